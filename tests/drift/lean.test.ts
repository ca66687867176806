import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash, lineHash32 } from "../../src/hash/fnv.ts";
import { applyPatch, editContent } from "../../src/patch/apply.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";

const T = 20_000;
const FILE = "const a = 1;\nconst b = 2;\nconst c = 3;\n";

function refused(
  code: string,
  pattern: RegExp,
): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof PatchRefusedError, String(e));
    assert.deepEqual(e.problems.map((p) => p.code), [code]);
    assert.match(e.message, pattern);
    return true;
  };
}

describe("lean reads: the library", () => {
  it("refuses bare numbers without a read record, naming the LINE:HH form", {
    timeout: T,
  }, () => {
    assert.throws(
      () => applyPatch(FILE, "= 2\n~const b = 20;"),
      refused("BAD_ANCHOR", /"2" names a line by its number alone.*"2:a3"/),
    );
    assert.throws(
      () => editContent(FILE, [{ op: "delete", start: "1", end: "2" }]),
      refused("BAD_ANCHOR", /LINE:HH/),
    );
  });

  it("checks a bare number against the record as a full anchor", {
    timeout: T,
  }, () => {
    const memory = memoryFromHashes(
      FILE.split("\n").slice(0, 3).map(lineHash32),
    );
    memory.form = "lean";
    const out = editContent(FILE, [
      { op: "replace", start: "2", lines: ["const b = 20;"] },
    ], { memory });
    assert.equal(out.content, "const a = 1;\nconst b = 20;\nconst c = 3;\n");
    // Line 2 changed since the read: stale, with fresh lines in the lean form.
    const changed = FILE.replace("b = 2", "b = 9");
    assert.throws(
      () => editContent(changed, [{ op: "delete", start: "2" }], { memory }),
      refused("STALE_ANCHOR", /\n2\|const b = 9;\n3\|const c = 3;$/),
    );
    // A range with one bare end and one full anchor.
    const both = editContent(FILE, [
      { op: "delete", start: "1", end: `2:${lineHash("const b = 2;")}` },
    ], { memory });
    assert.equal(both.content, "const c = 3;\n");
    // A line the record does not hold.
    const partial = memoryFromHashes(
      new Map([[1, lineHash32("const a = 1;")]]),
    );
    assert.throws(
      () =>
        editContent(FILE, [{ op: "delete", start: "3" }], { memory: partial }),
      refused("NOT_READ", /line 3 was never shown/),
    );
  });

  it("refuses a pasted N| prefix after a lean read unless literal", {
    timeout: T,
  }, () => {
    const memory = memoryFromHashes(
      FILE.split("\n").slice(0, 3).map(lineHash32),
    );
    memory.form = "lean";
    assert.throws(
      () =>
        editContent(FILE, [
          { op: "insert_after", anchor: "3", lines: ["2|const b = 2;"] },
        ], { memory }),
      refused("PASTED_PREFIX", /without its LINE\| prefix/),
    );
    const out = editContent(FILE, [
      {
        op: "insert_after",
        anchor: "3",
        lines: ["2|const b = 2;"],
        literal: true,
      },
    ], { memory });
    assert.match(out.content, /\n2\|const b = 2;\n$/);
  });
});

describe("lean reads: the workspace", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.ts"), FILE);
  });
  afterEach(() => t.cleanup());
  const get = () => readFile(join(t.root, "a.ts"), "utf8");

  it(
    "shows LINE|content and takes an edit by number",
    { timeout: T },
    async () => {
      const ws = t.open();
      const view = await ws.read("a.ts", { anchors: "lean" });
      assert.equal(view.text, "1|const a = 1;\n2|const b = 2;\n3|const c = 3;");
      const out = await ws.patch("@@ a.ts\n= 2\n~const b = 20;");
      assert.equal(await get(), "const a = 1;\nconst b = 20;\nconst c = 3;\n");
      // The result's fresh lines are in the form of the last read.
      assert.match(out.files[0].anchors, /^1\|const a = 1;\n2\|const b = 20;/);
      // L:HH keeps working.
      await ws.patch(
        `@@ a.ts\n= 1:${lineHash("const a = 1;")}\n~const a = 10;`,
      );
      assert.equal(await get(), "const a = 10;\nconst b = 20;\nconst c = 3;\n");
    },
  );

  it(
    "refuses a bare number stale, with lean fresh lines, after the line changed",
    {
      timeout: T,
    },
    async () => {
      const ws = t.open();
      await ws.read("a.ts", { anchors: "lean" });
      await writeFile(join(t.root, "a.ts"), FILE.replace("b = 2", "b = 9"));
      await assert.rejects(
        ws.patch("@@ a.ts\n- 2"),
        refused("STALE_ANCHOR", /\n1\|const a = 1;\n2\|const b = 9;/),
      );
      assert.equal(await get(), FILE.replace("b = 2", "b = 9"));
    },
  );

  it("refuses a bare number NOT_READ when the session has no record", {
    timeout: T,
  }, async () => {
    const ws = t.open();
    await assert.rejects(
      ws.patch("@@ a.ts\n- 2"),
      refused("NOT_READ", /read it first/),
    );
    await ws.read("a.ts", { anchors: "lean", limit: 1 });
    await assert.rejects(
      ws.patch("@@ a.ts\n- 3"),
      refused("NOT_READ", /line 3 was never shown/),
    );
    assert.equal(await get(), FILE);
  });

  it(
    "refuses an anchors value other than hash or lean",
    { timeout: T },
    async () => {
      const ws = t.open();
      await assert.rejects(
        ws.read("a.ts", { anchors: "short" as "lean" }),
        TypeError,
      );
    },
  );
});
