/**
 * A million new lines through the library: a create, a whole-file write, an
 * append and an insert each land (the file holds exactly what was sent, the
 * result and the history entry count every line), with no call stack that
 * grows with the number of lines (docs/safety.md "Bounded work").
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { makeTree, type Tree } from "./_helpers.ts";

const MILLION = 1_000_000;
const T = { timeout: 240_000 };

/** `count` short lines, `p0`, `p1`, … */
function manyLines(count: number, prefix: string): string[] {
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = `${prefix}${i}`;
  return out;
}

describe("a million new lines through openWorkspace", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  const lines = manyLines(MILLION, "n");
  const text = lines.join("\n") + "\n";

  async function lastEntry(ws: ReturnType<Tree["open"]>) {
    const [entry] = await ws.history({ limit: 1 });
    return entry.files[0];
  }

  it("a create writes them all and counts them", T, async () => {
    const ws = t.open();
    const result = await ws.write("big.txt", text);
    assert.equal(result.created, true);
    assert.equal(result.totalLines, MILLION);
    assert.match(result.summary, /^Created big\.txt \(1000000 lines\)/);
    assert.equal(await readFile(join(t.root, "big.txt"), "utf8"), text);
    const entry = await lastEntry(ws);
    assert.equal(entry.added, MILLION);
    assert.equal(entry.created, true);
  });

  it(
    "a whole-file write over a read file replaces it, counts exact",
    T,
    async () => {
      await writeFile(join(t.root, "w.txt"), "old\n");
      const ws = t.open();
      await ws.read("w.txt");
      const result = await ws.write("w.txt", text);
      assert.equal(result.added, MILLION);
      assert.equal(result.removed, 1);
      assert.match(result.summary, /^Wrote w\.txt \(\+1000000 -1\)/);
      assert.equal(await readFile(join(t.root, "w.txt"), "utf8"), text);
      const entry = await lastEntry(ws);
      assert.deepEqual([entry.added, entry.removed], [MILLION, 1]);
    },
  );

  it("an append patch adds them after the last line", T, async () => {
    await writeFile(join(t.root, "a.txt"), "first\n");
    const ws = t.open();
    await ws.read("a.txt");
    const result = await ws.patch({
      files: [{ path: "a.txt", ops: [{ op: "append", lines }] }],
    });
    assert.match(result.summary, /^Edited a\.txt \(\+1000000 -0\)/);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "first\n" + text,
    );
    const entry = await lastEntry(ws);
    assert.deepEqual([entry.added, entry.removed], [MILLION, 0]);
  });

  it("an insert puts them between two lines", T, async () => {
    await writeFile(join(t.root, "i.txt"), "top\nbottom\n");
    const ws = t.open();
    const view = await ws.read("i.txt");
    const anchor = view.text.split("\n")[0].split("|")[0];
    const result = await ws.patch({
      files: [{ path: "i.txt", ops: [{ op: "insert_after", anchor, lines }] }],
    });
    assert.match(result.summary, /^Edited i\.txt \(\+1000000 -0\)/);
    assert.equal(
      await readFile(join(t.root, "i.txt"), "utf8"),
      "top\n" + text + "bottom\n",
    );
    // The result stays within its cap and names what to read instead.
    assert.ok(result.summary.length < 200 * 1024, `${result.summary.length}`);
    assert.match(result.summary, /read lines \d+–\d+ of i\.txt/);
  });
});
