/**
 * Rebase in a patch that also creates, deletes or renames files: its line
 * ops whose lines only moved are applied where they now stand (and named
 * in `rebased`); without rebase the same patch is refused whole, nothing
 * written, the rename included.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { makeTree, snapshot } from "../workspace/_helpers.ts";

describe("rebase beside file operations", () => {
  it("moves the line ops whose lines moved, and refuses without rebase", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\n");
      await writeFile(join(t.root, "b.txt"), "b\n");
      const ws = t.open();
      await ws.read("a.txt");
      await ws.read("b.txt");
      // Someone else puts a line above: "three" now stands on line 4.
      await writeFile(join(t.root, "a.txt"), "zero\none\ntwo\nthree\n");
      const patch = `@@ b.txt -> c.txt\n@@ a.txt\n= 3:${
        lineHash("three")
      }\n~THREE\n`;

      const before = await snapshot(t.root);
      const error = await ws.patch(patch).then(() => null, (e) => e);
      assert.ok(error instanceof PatchRefusedError, String(error));
      assert.deepEqual(error.problems.map((p) => p.code), ["STALE_ANCHOR"]);
      assert.deepEqual(await snapshot(t.root), before);

      const done = await ws.patch(patch, { rebase: true });
      assert.deepEqual(done.rebased, ["a.txt op 1: line 3 → 4"]);
      assert.match(done.summary, /Rebased: a\.txt op 1: line 3 → 4/);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "zero\none\ntwo\nTHREE\n",
      );
      assert.equal(await readFile(join(t.root, "c.txt"), "utf8"), "b\n");
      await assert.rejects(readFile(join(t.root, "b.txt")));
    } finally {
      await t.cleanup();
    }
  });
});
