/**
 * Hard links: a file with several names is read and patched as itself; a
 * commit replaces this path's link only, and the result says so.
 */
import assert from "node:assert/strict";
import { link, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Patch } from "../../src/patch/types.ts";
import { makeTree, type Tree } from "./_helpers.ts";

function anchorOf(text: string, line: number): string {
  const row = text.split("\n")[line - 1];
  return row.slice(0, row.indexOf("|"));
}

describe("hard links", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
    await link(join(t.root, "a.txt"), join(t.root, "b.txt"));
    await link(join(t.root, "a.txt"), join(t.root, "c.txt"));
  });
  afterEach(() => t.cleanup());

  it("a patch replaces this path's link only and says the others keep the old content", async () => {
    const ws = t.open();
    const view = await ws.read("a.txt");
    const patch: Patch = {
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: anchorOf(view.text, 2), lines: ["2"] }],
      }],
    };
    const dry = await ws.patch(patch, { dryRun: true });
    assert.match(
      dry.summary,
      /a\.txt had 3 links; the others keep the old content/,
    );
    const result = await ws.patch(patch);
    assert.match(
      result.summary,
      /\nWarning: a\.txt had 3 links; the others keep the old content/,
    );
    assert.deepEqual(result.warnings, [
      "a.txt had 3 links; the others keep the old content (only this path was replaced).",
    ]);
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "one\n2\n");
    assert.equal(await readFile(join(t.root, "b.txt"), "utf8"), "one\ntwo\n");
    assert.equal(await readFile(join(t.root, "c.txt"), "utf8"), "one\ntwo\n");
    assert.equal((await stat(join(t.root, "b.txt"))).nlink, 2);
  });

  it("a write replaces this path's link only and says so; a single-link file gets no note", async () => {
    const ws = t.open();
    await ws.read("b.txt");
    const written = await ws.write("b.txt", "whole\n");
    assert.match(
      written.summary,
      /b\.txt had 3 links; the others keep the old content/,
    );
    assert.equal(await readFile(join(t.root, "b.txt"), "utf8"), "whole\n");
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "one\ntwo\n");
    await ws.read("b.txt");
    const again = await ws.write("b.txt", "again\n");
    assert.deepEqual(again.warnings, []);
    assert.doesNotMatch(again.summary, /links/);
  });
});
