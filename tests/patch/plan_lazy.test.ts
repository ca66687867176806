import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { planPatch } from "../../src/patch/plan.ts";
import { lineHash32 } from "../../src/hash/fnv.ts";
import type { LineLookup, PatchOp } from "../../src/patch/types.ts";
import { anchorOf } from "./_fixture.ts";

const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const content = lines.join("\n") + "\n";

/**
 * A lookup that counts how often its line count is read: over content that
 * is indexed lazily, reading it walks every line, which a one-line edit near
 * the top must not pay (bench/patch_bench.ts holds it within 2× of a slice).
 */
function countingLookup(): LineLookup & { counted: () => number } {
  const inner = lookupFromLines(lines);
  let reads = 0;
  return {
    counted: () => reads,
    get lineCount() {
      reads++;
      return inner.lineCount;
    },
    has: (n) => n >= 1 && n <= lines.length,
    hash32: (n) => inner.hash32(n),
    text: (n) => inner.text(n),
    linesWithHash: (h) => inner.linesWithHash(h),
  };
}

describe("planPatch counts the lines only when an op needs the count", () => {
  const cases: [string, PatchOp[], boolean][] = [
    ["a replace by anchor", [
      { op: "replace", start: anchorOf(content, 3), lines: ["x"] },
    ], false],
    ["a delete of a range", [
      { op: "delete", start: anchorOf(content, 3), end: anchorOf(content, 5) },
    ], false],
    ["an insert_after", [
      { op: "insert_after", anchor: anchorOf(content, 7), lines: ["x"] },
    ], false],
    ["an append", [{ op: "append", lines: ["x"] }], true],
  ];
  for (const [name, ops, counts] of cases) {
    it(`${name} ${counts ? "reads" : "does not read"} the line count`, {
      timeout: 10_000,
    }, () => {
      const now = countingLookup();
      const out = planPatch(now, ops);
      assert.deepEqual(out.problems, []);
      assert.equal(now.counted() > 0, counts);
    });
  }

  it("a bare number the read record holds does not read the count", {
    timeout: 10_000,
  }, () => {
    const now = countingLookup();
    const memory = memoryFromHashes(lines.map((l) => lineHash32(l)));
    const out = planPatch(now, [{ op: "replace", start: "4", lines: ["x"] }], {
      memory,
    });
    assert.deepEqual(out.problems, []);
    assert.deepEqual(out.plan, [{ at: 4, deleteCount: 1, lines: ["x"] }]);
    assert.equal(now.counted(), 0);
  });

  it("a bare number past the end still is OUT_OF_RANGE naming the count", {
    timeout: 10_000,
  }, () => {
    const now = countingLookup();
    const memory = memoryFromHashes(lines.map((l) => lineHash32(l)));
    const out = planPatch(now, [{ op: "replace", start: "40", lines: ["x"] }], {
      memory,
    });
    assert.deepEqual(out.problems.map((p) => p.code), ["OUT_OF_RANGE"]);
    assert.match(out.problems[0].message, /20/);
    assert.deepEqual(out.plan, []);
  });
});
