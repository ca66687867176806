/**
 * What a check of a renamed file may count as there before the edit
 * (docs/syntax-checks.md, "Renames"): a check applies to the file under the
 * name the patch leaves it, and errors the content had before are not
 * blamed on the edit only when that name's grammar read it before too.
 *
 * @module
 */
import { grammarFor } from "./languages.ts";

/**
 * The content before a rename, as the check of the file under its new name
 * takes it: the old content when the same grammar checks both names, else
 * null (every error counts as introduced), so `bad.txt` renamed to
 * `bad.ts` is checked as a new TypeScript file.
 *
 * @param from The file's name before the patch.
 * @param to Its name after the patch (undefined when it keeps its name).
 * @param before Its content before the patch (null for a new file).
 * @returns The content the check compares against, or null.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { beforeRename } from "./rename.ts";
 * assert.equal(beforeRename("a.ts", "b.mts", "x"), "x");
 * assert.equal(beforeRename("a.txt", undefined, "x"), "x");
 * assert.equal(beforeRename("bad.txt", "bad.ts", "x"), null);
 * assert.equal(beforeRename("a.js", "a.ts", "x"), null);
 * ```
 */
export function beforeRename(
  from: string,
  to: string | undefined,
  before: string | null,
): string | null {
  if (to === undefined) return before;
  const was = grammarFor(from);
  const now = grammarFor(to);
  return was !== null && now !== null && was.language === now.language &&
      was.package === now.package
    ? before
    : null;
}
