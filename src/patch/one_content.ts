/**
 * Patches applied to one content given by the caller (`POST /v1/apply`, a
 * store revision): they address lines of that content only. Moves, copies
 * and file operations (create, delete, rename) name files of a workspace, so
 * such a call refuses them instead of dropping them and answering as if it
 * had done what was asked.
 *
 * @module
 */
import type { Patch } from "./types.ts";

/**
 * Refuses the parts of a patch that only a workspace can carry out.
 *
 * @param patch The parsed patch.
 * @param what What the call edits, for the message (`"the content in the request"`).
 * @param instead Where to send such a patch instead.
 * @throws {TypeError} When an entry moves or copies lines, or creates,
 *   deletes or renames a file.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePatch } from "./parse.ts";
 * import { refuseFileParts } from "./one_content.ts";
 * const what = "the content in the request";
 * const where = "POST /v1/files/patch";
 * refuseFileParts(parsePatch("= 1:ed\n~A", { headerless: true }), what, where);
 * assert.throws(
 *   () => refuseFileParts(parsePatch("m 1:ed > 2:23", { headerless: true }), what, where),
 *   TypeError,
 * );
 * ```
 */
export function refuseFileParts(
  patch: Patch,
  what: string,
  instead: string,
): void {
  const parts = new Set<string>();
  for (const f of patch.files) {
    for (const m of f.moves ?? []) parts.add(m.op === "copy" ? "copy" : "move");
    if (f.create) parts.add("create");
    if (f.delete) parts.add("delete");
    if (f.rename !== undefined) parts.add("rename");
  }
  if (parts.size === 0) return;
  throw new TypeError(
    `Cannot apply ${
      [...parts].join(", ")
    } to ${what}: moves, copies and file operations (create, delete, rename) name files of a workspace, and this call edits one content. Send the patch to ${instead}, or name the lines with replace, delete and insert ops.`,
  );
}
