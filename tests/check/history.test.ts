import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

const SOURCE = "export function one(): number {\n  return 1;\n}\n";

describe("syntax refusals and the edit history", () => {
  it("a refused patch or write is no history entry and uses no entry id", async () => {
    const tree = await tempTree({ "a.ts": SOURCE });
    try {
      const file = join(tree.dir, "a.ts");
      const ws = openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        check: "refuse",
      });
      const view = (await ws.read("a.ts")).text;
      const last = view.split("\n")[2];
      await assert.rejects(
        ws.patch({
          files: [{
            path: "a.ts",
            ops: [{ op: "delete", start: last.slice(0, last.indexOf("|")) }],
          }],
        }),
        { code: "SYNTAX" },
      );
      await assert.rejects(ws.write("a.ts", "export const x = ;\n"), {
        code: "SYNTAX",
      });
      await assert.rejects(ws.create("b.ts", "export const y = ;\n"), {
        code: "SYNTAX",
      });
      assert.equal(await readFile(file, "utf8"), SOURCE, "bytes unchanged");
      await assert.rejects(readFile(join(tree.dir, "b.ts")), {
        code: "ENOENT",
      });
      assert.deepEqual(await ws.history(), []);

      const ok = await ws.write("a.ts", "export const x = 2;\n");
      assert.deepEqual(ok.checks.map((c) => c.status), ["ok"]);
      assert.equal(ok.entry, "h_1");
      assert.deepEqual((await ws.history()).map((e) => e.id), ["h_1"]);
    } finally {
      await tree.cleanup();
    }
  });
});
