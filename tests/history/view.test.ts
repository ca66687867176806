/**
 * Entry diffs as views show them (pure): 3 context lines from the file as
 * it stands, nearby changes in one block, the kept line on each side where
 * the entry's lines no longer stand, and withheld lines of denied files.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hunksOf, makeRecord, toDetail } from "../../src/history/mod.ts";

const lines = (n: number, f = (i: number) => `l${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1) + "\n").join("");

function entryOf(before: string, after: string) {
  return makeRecord({
    id: "h_1",
    session: "s",
    door: "library",
    summary: "Edited a.txt",
    files: [{
      path: "a.txt",
      added: 0,
      removed: 0,
      hunks: hunksOf(before, after),
    }],
  });
}

describe("history diffs with context", () => {
  it("shows 3 lines each side, merging changes whose context meets", {
    timeout: 10_000,
  }, () => {
    const before = lines(20);
    const after = lines(20, (i) => i === 5 || i === 10 ? `L${i}` : `l${i}`);
    const r = makeRecord({
      id: "h_1",
      session: "s",
      door: "library",
      summary: "x",
      files: [{
        path: "a.txt",
        added: 2,
        removed: 2,
        hunks: hunksOf(before, after, [
          { at: 5, deleteCount: 1, lines: ["L5"] },
          { at: 10, deleteCount: 1, lines: ["L10"] },
        ]),
      }],
    });
    const diff = toDetail(r, { current: () => after }).files[0].diff;
    assert.equal(
      diff,
      [
        "--- a.txt",
        "+++ a.txt",
        "@@ -2,12 +2,12 @@",
        " l2",
        " l3",
        " l4",
        "-l5",
        "+L5",
        " l6",
        " l7",
        " l8",
        " l9",
        "-l10",
        "+L10",
        " l11",
        " l12",
        " l13",
      ].join("\n"),
    );
  });

  it("falls back to the line kept on each side where the file moved on", {
    timeout: 10_000,
  }, () => {
    const before = lines(9);
    const after = lines(9, (i) => i === 5 ? "L5" : `l${i}`);
    const r = entryOf(before, after);
    const now = after.replace("L5", "changed since");
    const diff = toDetail(r, { current: () => now }).files[0].diff;
    assert.equal(
      diff,
      "--- a.txt\n+++ a.txt\n@@ -4,3 +4,3 @@\n l4\n-l5\n+L5\n l6",
    );
    // At the top of the file, context starts at line 1.
    const top = entryOf("a\nb\nc\nd\ne\n", "A\nb\nc\nd\ne\n");
    assert.equal(
      toDetail(top, { current: () => "A\nb\nc\nd\ne\n" }).files[0].diff,
      "--- a.txt\n+++ a.txt\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d",
    );
  });

  it("withholds the lines of a denied file, keeping its counts", {
    timeout: 10_000,
  }, () => {
    const r = entryOf("TOKEN=1\n", "TOKEN=2\n");
    const d = toDetail(r, {
      withheld: (p) => p.endsWith(".txt") ? "*.txt" : undefined,
    });
    assert.equal(
      d.files[0].diff,
      "(lines withheld: the workspace denies this file, deny: *.txt)",
    );
    assert.doesNotMatch(JSON.stringify(d), /TOKEN/);
  });
});
