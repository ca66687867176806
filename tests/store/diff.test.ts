import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { revisionDiff, spanDiff } from "../../src/store/_diff.ts";

describe("edit diffs", () => {
  it("a unified diff labelled with the two handles, without jsdiff's banner line", () => {
    const { diff, diffTruncated } = revisionDiff(
      "a\nb\nc\n",
      "a\nB\nc\n",
      "p_111111111111",
      "p_222222222222",
    );
    assert.equal(
      diff,
      "--- p_111111111111\n+++ p_222222222222\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    );
    assert.equal(diffTruncated, false);
  });

  it("the coarse fallback is one hunk over the changed lines", () => {
    assert.equal(
      spanDiff("a\nb\nc\nd\n", "a\nB\nC\nd\n", "p_1", "p_2"),
      "--- p_1\n+++ p_2\n@@ -2,2 +2,2 @@\n-b\n-c\n+B\n+C\n",
    );
    assert.equal(
      spanDiff("x\n", "x\ny\n", "p_1", "p_2"),
      "--- p_1\n+++ p_2\n@@ -1,0 +2,1 @@\n+y\n",
    );
  });

  it("a long diff is cut at a line end to at most 8000 chars and flagged", () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i}`).join(
      "\n",
    );
    const { diff, diffTruncated } = revisionDiff(
      before,
      before.toUpperCase(),
      "p_1",
      "p_2",
    );
    assert.equal(diffTruncated, true);
    assert.ok(diff.length <= 8000);
    assert.ok(diff.endsWith("\n"));
  });
});
