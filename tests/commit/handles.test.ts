/**
 * A commit holds the file it replaces, and the locks it takes, open until
 * after its answer, so that freeing them never delays the answer
 * (docs/workspace.md "Writing"); it then closes them. Every kind of write
 * leaves no handle of this process open under the workspace or its state
 * folder once its answer has gone.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { anchorOf, makeTree } from "../workspace/_helpers.ts";
import { handlesClosed, handlesListed } from "../_handles.ts";

describe("handles after a commit", () => {
  it("every kind of write closes what it held once its answer has gone", async (t) => {
    if (!handlesListed()) {
      return t.skip("this platform does not list a process's handles");
    }
    const tree = await makeTree();
    try {
      await writeFile(join(tree.root, "a.ts"), "let a = 1;\nlet b = 2;\n");
      const ws = tree.open({ session: "s" });
      const writes: [string, () => Promise<unknown>][] = [
        ["a line patch", async () => {
          const view = await ws.read("a.ts");
          return ws.patch({
            files: [{
              path: "a.ts",
              ops: [{
                op: "replace",
                start: anchorOf(view.text, 2),
                lines: ["let b = 3;"],
              }],
            }],
          });
        }],
        ["a whole-file write", () => ws.write("a.ts", "let c = 4;\n")],
        ["a creation", () => ws.create("b.ts", "let d = 5;\n")],
        ["an undo", async () => {
          const [last] = await ws.history({ limit: 1 });
          return ws.undo(last.id);
        }],
      ];
      for (const [what, write] of writes) {
        await write();
        assert.deepEqual(await handlesClosed(tree.base), [], what);
      }
      assert.equal(
        (await ws.read("a.ts")).text.split("|")[1],
        "let c = 4;",
      );
    } finally {
      await tree.cleanup();
    }
  });
});
