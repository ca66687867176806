/**
 * A move or copy by block anchor after an outline read: the block's hidden
 * lines were never shown, so it is `NOT_READ`, naming the move as sent and
 * the lines to read, nothing written; once they are read it lands.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { makeTree } from "../workspace/_helpers.ts";

const SRC =
  "export function a() {\n  return 1;\n}\n\nexport function b() {\n  return 2;\n}\n";

describe("moves by block anchor after an outline read", () => {
  it("are NOT_READ for the hidden lines, then land once they are read", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.ts"), SRC);
      const ws = t.open();
      const view = await ws.read("a.ts", { outline: true });
      const anchor = (n: number) =>
        view.text.split("\n").find((l) => l.startsWith(`${n}:`))!.split(
          "|",
        )[0];
      for (const op of ["move", "copy"]) {
        const patch = {
          files: [{
            path: "a.ts",
            ops: [],
            moves: [{ op, start: `${anchor(1)}*`, after: `${anchor(5)}*` }],
          }],
        };
        const error = await ws.patch(patch as never).then(() => null, (e) => e);
        assert.ok(error instanceof PatchRefusedError, String(error));
        // The source block and the block the lines go after, both unread.
        assert.deepEqual(error.problems.map((p) => p.code), [
          "NOT_READ",
          "NOT_READ",
        ]);
        assert.match(
          error.problems[1].message,
          new RegExp(
            `^${op} ${anchor(1)}\\* target after ${
              anchor(5)
            }\\* names the block of lines 5–7, but this session has not read lines 6–7`,
          ),
        );
        assert.match(
          error.problems[0].message,
          new RegExp(
            `^${op} ${
              anchor(1)
            }\\* names the block of lines 1–3, but this session has not read lines 2–3`,
          ),
        );
        assert.equal(await readFile(join(t.root, "a.ts"), "utf8"), SRC);
      }
      await ws.read("a.ts");
      await ws.patch({
        files: [{
          path: "a.ts",
          ops: [],
          moves: [{
            op: "move",
            start: `${anchor(1)}*`,
            after: `${anchor(5)}*`,
          }],
        }],
      } as never);
      assert.equal(
        await readFile(join(t.root, "a.ts"), "utf8"),
        "\nexport function b() {\n  return 2;\n}\nexport function a() {\n  return 1;\n}\n",
      );
    } finally {
      await t.cleanup();
    }
  });
});
