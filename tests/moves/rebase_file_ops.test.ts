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

  it("places a move's and a copy's source and target where their lines moved", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      const read = "one\ntwo\nthree\nfour\nfive\n";
      await writeFile(join(t.root, "a.txt"), read);
      await writeFile(join(t.root, "b.txt"), "b1\nb2\n");
      const ws = t.open();
      await ws.read("a.txt");
      await ws.read("b.txt");
      const at = (n: number, text: string) => `${n}:${lineHash(text)}`;
      // A line put above everything read: each read line now stands one lower.
      await writeFile(join(t.root, "a.txt"), "zero\n" + read);
      await writeFile(join(t.root, "b.txt"), "b0\nb1\nb2\n");
      const move = {
        files: [{
          path: "a.txt",
          ops: [],
          moves: [{
            op: "move",
            start: at(2, "two"),
            end: at(3, "three"),
            after: at(5, "five"),
          }],
        }],
      };
      const before = await snapshot(t.root);
      const stale = await ws.patch(move as never).then(() => null, (e) => e);
      assert.ok(stale instanceof PatchRefusedError, String(stale));
      assert.deepEqual(await snapshot(t.root), before);

      const moved = await ws.patch(move as never, { rebase: true });
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "zero\none\nfour\nfive\ntwo\nthree\n",
      );
      assert.match(moved.summary, /Moved lines 3–4 → a\.txt:5/);

      // A copy into another file, both files drifted since the read.
      await ws.read("a.txt");
      await writeFile(
        join(t.root, "a.txt"),
        "top\nzero\none\nfour\nfive\ntwo\nthree\n",
      );
      const copied = await ws.patch({
        files: [{
          path: "a.txt",
          ops: [],
          moves: [{
            op: "copy",
            start: at(5, "two"),
            end: at(6, "three"),
            to: "b.txt",
            after: at(1, "b1"),
          }],
        }],
      } as never, { rebase: true });
      assert.equal(
        await readFile(join(t.root, "b.txt"), "utf8"),
        "b0\nb1\ntwo\nthree\nb2\n",
      );
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "top\nzero\none\nfour\nfive\ntwo\nthree\n",
      );
      assert.ok(
        copied.rebased.includes("a.txt copy source: lines 5–6 → 6–7"),
        copied.rebased.join("; "),
      );
      assert.ok(
        copied.rebased.includes("b.txt op 1: line 1 → 2"),
        copied.rebased.join("; "),
      );
    } finally {
      await t.cleanup();
    }
  });

  it("refuses a move under rebase when its source changed or fits two places", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      const read = "one\ntwo\nthree\nfour\n";
      const at = (n: number, text: string) => `${n}:${lineHash(text)}`;
      const move = {
        files: [{
          path: "a.txt",
          ops: [],
          moves: [{ op: "move", start: at(2, "two"), after: at(4, "four") }],
        }],
      };
      for (
        const [now, code] of [
          // The source line itself was edited.
          ["one\ntwo!\nthree\nfour\n", "STALE_ANCHOR"],
          // A copy of it directly above: two placements fit equally well.
          ["zero\none\ntwo\ntwo\nthree\nfour\n", "STALE_ANCHOR"],
        ] as const
      ) {
        await writeFile(join(t.root, "a.txt"), read);
        const ws = t.open();
        await ws.read("a.txt");
        await writeFile(join(t.root, "a.txt"), now);
        const before = await snapshot(t.root);
        const error = await ws.patch(move as never, { rebase: true }).then(
          () => null,
          (e) => e,
        );
        assert.ok(error instanceof PatchRefusedError, `${now}: ${error}`);
        assert.ok(error.problems.some((p) => p.code === code), error.message);
        assert.deepEqual(await snapshot(t.root), before, now);
        assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), now);
      }
    } finally {
      await t.cleanup();
    }
  });

  it(
    "places a block op and a move by block anchor beside a rename, whole blocks only",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const src = [
          "function f() {",
          "  return 1;",
          "}",
          "function g() {",
          "  return 2;",
          "}",
          "const x = f();",
          "",
        ].join("\n");
        await writeFile(join(t.root, "a.ts"), src);
        await writeFile(join(t.root, "b.txt"), "b\n");
        const ws = t.open();
        await ws.read("a.ts");
        await ws.read("b.txt");
        await writeFile(join(t.root, "a.ts"), "// hi\n" + src);
        const f = `1:${lineHash("function f() {")}*`;
        const g = `4:${lineHash("function g() {")}*`;
        const done = await ws.patch(`@@ b.txt -> c.txt\n@@ a.ts\n- ${f}\n`, {
          rebase: true,
        });
        assert.equal(
          await readFile(join(t.root, "a.ts"), "utf8"),
          "// hi\nfunction g() {\n  return 2;\n}\nconst x = f();\n",
        );
        assert.deepEqual(done.blocks, ["a.ts op 1: block 2–4"]);
        assert.equal(await readFile(join(t.root, "c.txt"), "utf8"), "b\n");

        // A move of a block after another block, both moved down by a line.
        await writeFile(join(t.root, "a.ts"), src);
        await ws.read("a.ts");
        await writeFile(join(t.root, "a.ts"), "// hi\n" + src);
        await ws.patch(`@@ a.ts\nm ${f} > ${g}\n`, { rebase: true });
        assert.equal(
          await readFile(join(t.root, "a.ts"), "utf8"),
          [
            "// hi",
            "function g() {",
            "  return 2;",
            "}",
            "function f() {",
            "  return 1;",
            "}",
            "const x = f();",
            "",
          ].join("\n"),
        );
      } finally {
        await t.cleanup();
      }
    },
  );
});
