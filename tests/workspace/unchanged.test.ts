/**
 * A patch that leaves the file as it was says so: no line counted as
 * changed, no history entry, the bytes untouched.
 */
import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/mod.ts";
import { makeTree } from "./_helpers.ts";

describe("a patch that changes nothing", () => {
  it("answers Unchanged (+0 -0) and records no history entry", {
    timeout: 30_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
      const ws = t.open();
      await ws.read("a.txt");
      const before = await stat(join(t.root, "a.txt"));
      const out = await ws.patch(`@@ a.txt\n= 2:${lineHash("two")}\n~two`);
      assert.deepEqual(
        out.files.map((f) => [f.path, f.added, f.removed, f.diff]),
        [["a.txt", 0, 0, ""]],
      );
      assert.match(
        out.summary,
        /^Unchanged a\.txt: the patch leaves it as it was \(\+0 -0\)/,
      );
      assert.equal(out.entry, undefined);
      assert.deepEqual(await ws.history(), []);
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "one\ntwo\n");
      assert.equal((await stat(join(t.root, "a.txt"))).ino, before.ino);
    } finally {
      await t.cleanup();
    }
  });
});
