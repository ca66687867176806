/**
 * Every legal name can be read, patched, written and created: temporary,
 * lock and record names derived from a file's name are cut in UTF-8 bytes
 * on a character boundary, so they stay within 255 bytes even for a
 * 252-byte name of 3-byte characters.
 */
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { cutUtf8, utf8Length } from "../../src/_internal/names.ts";
import { lockName } from "../../src/lock/lock.ts";
import { sideName } from "../../src/commit/stage.ts";
import { leftovers, makeTree, type Tree } from "./_helpers.ts";

const CJK = "漢".repeat(84);

function anchorOf(text: string, line: number): string {
  const row = text.split("\n")[line - 1];
  return row.slice(0, row.indexOf("|"));
}

describe("long non-ASCII names", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  it("a 252-byte CJK name can be read, patched, written and created, in a folder too", async () => {
    assert.equal(utf8Length(CJK), 252);
    await writeFile(join(t.root, CJK), "one\ntwo\n");
    const ws = t.open();
    const view = await ws.read(CJK);
    await ws.patch({
      files: [{
        path: CJK,
        ops: [{ op: "replace", start: anchorOf(view.text, 2), lines: ["2"] }],
      }],
    });
    assert.equal(await readFile(join(t.root, CJK), "utf8"), "one\n2\n");
    await ws.write(CJK, "whole\n");
    assert.equal(await readFile(join(t.root, CJK), "utf8"), "whole\n");
    const other = "語".repeat(84);
    await ws.create(other, "new\n");
    assert.equal(await readFile(join(t.root, other), "utf8"), "new\n");
    // A multi-file patch (journaled) creating a file in a new folder.
    const again = await ws.read(CJK);
    await ws.patch({
      files: [
        {
          path: CJK,
          ops: [{ op: "append", lines: ["more"] }],
        },
        { path: `d/${other}`, ops: [{ op: "append", lines: ["x"] }] },
      ],
    });
    assert.equal(again.totalLines, 1);
    assert.equal(await readFile(join(t.root, CJK), "utf8"), "whole\nmore\n");
    assert.equal(await readFile(join(t.root, "d", other), "utf8"), "x\n");
    assert.deepEqual(await leftovers(t.root), []);
    for (const name of await readdir(t.root)) {
      assert.ok(utf8Length(name) <= 255, name);
    }
  });

  it("derived names stay within 255 bytes and cut on a character boundary", () => {
    for (const ch of ["a", "é", "漢", "😀"]) {
      const name = ch.repeat(Math.floor(255 / utf8Length(ch)));
      assert.ok(utf8Length(lockName(name)) + ".break".length <= 255);
      const side = sideName(name, 4_194_304, "0123456789abcdef", "one");
      assert.ok(utf8Length(side) <= 255, side);
      const cut = cutUtf8(name, 96);
      assert.ok(utf8Length(cut) <= 96 && name.startsWith(cut));
      assert.equal(cut.isWellFormed?.() ?? true, true);
    }
  });
});
