import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { createToolRegistry, type ToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

/** What a plain string replacement gives, or null when it must be refused. */
function expected(
  content: string,
  old: string,
  next: string,
  all: boolean,
): string | null {
  const count = content.split(old).length - 1;
  if (count === 0 || (count > 1 && !all)) return null;
  const out = content.split(old).join(next);
  return out === content ? null : out;
}

describe("str_replace edit_file is byte-exact", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let registry: ToolRegistry;
  before(async () => {
    tree = await tempTree();
    const workspace = openWorkspace(tree.dir, {
      stateDir: join(tree.dir, ".hashline"),
      persistSessions: false,
    });
    registry = createToolRegistry({ workspace, editFormat: "str_replace" });
  });
  after(() => tree.cleanup());

  it("agrees with a plain replacement on LF, CRLF and lone-CR content, or writes nothing", async () => {
    const piece = fc.constantFrom("a", "b", "ab", "\n", "\n\n", "\r");
    const text = (min: number, max: number) =>
      fc.array(piece, { minLength: min, maxLength: max }).map((p) =>
        p.join("")
      );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        text(0, 7),
        text(1, 3),
        text(0, 3),
        fc.boolean(),
        fc.boolean(),
        async (body, old, next, all, crlf) => {
          const content = crlf ? body.replace(/\n/g, "\r\n") : body;
          const want = expected(content, old, next, all);
          const file = join(tree.dir, "f.txt");
          await writeFile(file, content);
          const result = await registry.call("edit_file", {
            path: "f.txt",
            old_string: old,
            new_string: next,
            replace_all: all,
          }, { session: `run${run++}` });
          const now = await readFile(file, "utf8");
          if (!result.ok) {
            assert.equal(now, content);
            assert.equal(want, null, result.error.message);
            return;
          }
          // A CRLF file also accepts old_string copied with bare newlines.
          if (want === null) {
            assert.ok(crlf && /(^|[^\r])\n/.test(old));
            return;
          }
          assert.equal(now, want);
        },
      ),
      { numRuns: 120, seed: 20240611 },
    );
  });
});
