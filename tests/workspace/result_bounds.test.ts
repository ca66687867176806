/**
 * Patch results follow the read view's display rules and a 64 KiB cap: a
 * one-line edit beside a 5 MB line answers in kilobytes, a huge insert is
 * cut with a note naming the lines to read, and a patch that creates a file
 * says so.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { makeTree, type Tree } from "./_helpers.ts";

const KiB = 1024;
const HUGE = "x".repeat(5_000_000);

function anchorOf(text: string, line: number): string {
  const row = text.split("\n")[line - 1];
  return row.slice(0, row.indexOf("|"));
}

function size(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

describe("bounded patch results", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  it("a one-line edit beside a 5 MB line returns under 80 KiB, the long line cut with its marker", async () => {
    await writeFile(join(t.root, "min.js"), `a\n${HUGE}\nb\n`);
    const ws = t.open();
    const view = await ws.read("min.js");
    const result = await ws.patch({
      files: [{
        path: "min.js",
        ops: [{ op: "replace", start: anchorOf(view.text, 1), lines: ["A"] }],
      }],
    });
    assert.ok(size(result) < 80 * KiB, `result is ${size(result)} bytes`);
    const [file] = result.files;
    assert.match(
      file.anchors,
      /^1:[0-9a-f]{2}\|A\n2:[0-9a-f]{2}\|x{2000}\[\+4998000 chars\]\n3:/,
    );
    assert.match(file.diff, /\n-a\n\+A\n x{2000}\[\+4998000 chars\]\n b$/);
    assert.match(result.summary, /^Edited min\.js \(\+1 -1\)/);
    assert.equal(
      await readFile(join(t.root, "min.js"), "utf8"),
      `A\n${HUGE}\nb\n`,
    );
    // The anchors it gave chain into the next edit.
    const next = await ws.patch({
      files: [{
        path: "min.js",
        ops: [{
          op: "replace",
          start: anchorOf(file.anchors, 3),
          lines: ["B"],
        }],
      }],
    });
    assert.ok(size(next) < 80 * KiB);
    assert.equal(
      await readFile(join(t.root, "min.js"), "utf8"),
      `A\n${HUGE}\nB\n`,
    );
  });

  it("a change past the display limit still shows in the diff", async () => {
    const long = "y".repeat(3000);
    await writeFile(join(t.root, "l.txt"), `${long}a\n`);
    const ws = t.open();
    const view = await ws.read("l.txt");
    const result = await ws.patch({
      files: [{
        path: "l.txt",
        ops: [{
          op: "replace",
          start: anchorOf(view.text, 1),
          lines: [`${long}b`],
        }],
      }],
    });
    assert.match(
      result.files[0].diff,
      /\n-y{2000}\[\+1001 chars\]\n\+y{2000}\[\+1001 chars\]$/,
    );
  });

  it("cuts a result over 64 KiB with a note naming the lines to read", async () => {
    await writeFile(join(t.root, "f.txt"), "top\n");
    const ws = t.open();
    const view = await ws.read("f.txt");
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `line ${i} ${"z".repeat(100)}`,
    );
    const result = await ws.patch({
      files: [{
        path: "f.txt",
        ops: [{ op: "insert_after", anchor: anchorOf(view.text, 1), lines }],
      }],
    });
    assert.ok(
      new TextEncoder().encode(result.summary).length <= 66 * KiB,
      `summary is ${result.summary.length} chars`,
    );
    assert.ok(size(result) < 140 * KiB);
    assert.match(result.files[0].anchors, /read lines \d+–3001 of f\.txt/);
    assert.match(
      result.files[0].diff,
      /diff cut .*read lines 2–3001 of f\.txt/,
    );
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      ["top", ...lines, ""].join("\n"),
    );
  });

  it("a patch that creates a file answers Created PATH (+n)", async () => {
    const ws = t.open();
    const result = await ws.patch("@@ new.txt\n+\n~one\n~two\n");
    assert.match(result.summary, /^Created new\.txt \(\+2\)\n/);
    assert.equal(await readFile(join(t.root, "new.txt"), "utf8"), "one\ntwo\n");
  });

  /** Lines `from..to` of a numbered file, each `tag line N`. */
  function numbered(tag: (n: number) => string, count: number): string {
    let out = "";
    for (let n = 1; n <= count; n++) out += `${tag(n)} line ${n}\n`;
    return out;
  }

  it(
    "a whole write of 8,000 changed lines keeps exact counts in the result and the entry",
    {
      timeout: 60_000,
    },
    async () => {
      await writeFile(join(t.root, "big.txt"), numbered(() => "old", 20_000));
      const ws = t.open();
      await ws.read("big.txt", { limit: 20_000 });
      const content = numbered(
        (n) => n > 5_000 && n <= 13_000 ? "new" : "old",
        20_000,
      );
      const result = await ws.write("big.txt", content);
      assert.deepEqual([result.added, result.removed], [8_000, 8_000]);
      assert.match(result.summary, /^Wrote big\.txt \(\+8000 -8000\)/);
      assert.ok(size(result) < 80 * KiB, `result is ${size(result)} bytes`);
      assert.match(result.diff, /^@@ -4998,8006 \+4998,8006 @@$/m);
      assert.match(result.diff, /diff cut after \d+ of 16009 lines/);
      assert.match(result.diff, /read lines 1–20000 of big\.txt/);
      assert.equal(await readFile(join(t.root, "big.txt"), "utf8"), content);
      const [entry] = await ws.history({ limit: 1 });
      assert.deepEqual(
        [entry.files[0].added, entry.files[0].removed],
        [8_000, 8_000],
      );
    },
  );

  it("a whole write that changes two far-apart lines counts +2 -2", {
    timeout: 60_000,
  }, async () => {
    await writeFile(join(t.root, "two.txt"), numbered(() => "old", 30_000));
    const ws = t.open();
    await ws.read("two.txt", { limit: 30_000 });
    const content = numbered(
      (n) => n === 2 || n === 29_999 ? "new" : "old",
      30_000,
    );
    const result = await ws.write("two.txt", content);
    assert.deepEqual([result.added, result.removed], [2, 2]);
    assert.match(result.diff, /^-old line 2\n\+new line 2$/m);
    assert.match(result.diff, /^-old line 29999\n\+new line 29999$/m);
    assert.equal(await readFile(join(t.root, "two.txt"), "utf8"), content);
  });

  it("a patch replacing 16,000 lines answers with a bounded diff", {
    timeout: 60_000,
  }, async () => {
    await writeFile(join(t.root, "r.txt"), numbered(() => "old", 16_000));
    const ws = t.open();
    const view = await ws.read("r.txt", { limit: 16_000 });
    const lines = numbered(() => "new", 16_000).split("\n").slice(0, -1);
    const result = await ws.patch({
      files: [{
        path: "r.txt",
        ops: [{
          op: "replace",
          start: anchorOf(view.text, 1),
          end: anchorOf(view.text, 16_000),
          lines,
        }],
      }],
    });
    assert.match(result.summary, /^Edited r\.txt \(\+16000 -16000\)/);
    assert.ok(
      new TextEncoder().encode(result.summary).length <= 66 * KiB,
      `summary is ${result.summary.length} chars`,
    );
    assert.match(result.files[0].diff, /read lines 1–16000 of r\.txt/);
    assert.equal(
      await readFile(join(t.root, "r.txt"), "utf8"),
      lines.join("\n") + "\n",
    );
  });
});
