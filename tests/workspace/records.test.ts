import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import type { Workspace } from "../../src/workspace/mod.ts";
import { makeTree, type Tree } from "./_helpers.ts";

/** Replaces line `n` (whose text is `old`) with `next`. */
function replace(ws: Workspace, n: number, old: string, next: string) {
  return ws.patch({
    files: [{
      path: "f.txt",
      ops: [{ op: "replace", start: `${n}:${lineHash(old)}`, lines: [next] }],
    }],
  });
}

async function recordFiles(t: Tree): Promise<string[]> {
  const dir = join(t.state, "sessions", "default");
  return (await readdir(dir)).filter((n) => n.endsWith(".rec")).map((n) =>
    join(dir, n)
  );
}

describe("read records shared through the state folder", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.txt"), "a\nb\nc\n");
  });
  afterEach(() => t.cleanup());

  it("two workspaces on one state folder chain edits of one line, each from the other's fresh anchors", async () => {
    const one = t.open();
    const two = t.open();
    await one.read("f.txt");
    await replace(one, 2, "b", "b1");
    // `two` never read the file: it builds on the record `one` saved.
    await replace(two, 2, "b1", "b2");
    // `one` must see the record `two` updated, or its own (older) record
    // would call line 2 stale.
    await replace(one, 2, "b2", "b3");
    await replace(two, 2, "b3", "b4");
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), "a\nb4\nc\n");
    assert.equal((await recordFiles(t)).length, 1);
  });

  it("a re-read that shows nothing new leaves the record file's bytes as they were", async () => {
    const ws = t.open();
    await ws.read("f.txt");
    const [file] = await recordFiles(t);
    const before = await readFile(file);
    await ws.read("f.txt");
    await ws.read("f.txt", { offset: 2, limit: 1 });
    assert.deepEqual(await readFile(file), before);
    await replace(ws, 1, "a", "A");
    assert.notDeepEqual(await readFile(file), before);
  });

  it("a record cut short on disk counts as not read: the patch is refused and the file kept, and a new read lets it through", async () => {
    await t.open().read("f.txt");
    const [file] = await recordFiles(t);
    const bytes = await readFile(file);
    for (
      const damaged of [
        bytes.subarray(0, bytes.length - 4),
        bytes.map((b, i) => i === bytes.length - 1 ? b ^ 1 : b),
      ]
    ) {
      await writeFile(file, damaged);
      const fresh = t.open();
      await assert.rejects(replace(fresh, 2, "b", "B"), { code: "NOT_READ" });
      assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), "a\nb\nc\n");
    }
    const again = t.open();
    await again.read("f.txt");
    await replace(again, 2, "b", "B");
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), "a\nB\nc\n");
  });
});
