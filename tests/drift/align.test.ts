import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { alignRecord, type Placement } from "../../src/patch/align.ts";
import { oracle, oracleTables } from "./_oracle.ts";

const seq = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

describe("alignRecord", () => {
  const cases: [string, string, string, Record<number, Placement>][] = [
    ["unchanged", "abc", "abc", {
      1: { kind: "placed", at: 1 },
      2: { kind: "placed", at: 2 },
      3: { kind: "placed", at: 3 },
    }],
    ["a line inserted far above", "abcd", "xabcd", {
      3: { kind: "placed", at: 4 },
    }],
    ["a copy of the target directly above it", "aTb", "aTTb", {
      1: { kind: "placed", at: 1 },
      2: { kind: "ambiguous", at: [2, 3] },
      3: { kind: "placed", at: 4 },
    }],
    ["a copy of the target directly below it", "aTb", "aTTb", {
      2: { kind: "ambiguous", at: [2, 3] },
    }],
    ["a changed neighbour", "aTb", "aXTb".replace("aX", "X"), {
      1: { kind: "gone" },
      2: { kind: "placed", at: 2 },
    }],
    ["a line removed above", "abcd", "acd", {
      2: { kind: "gone" },
      3: { kind: "placed", at: 2 },
    }],
    ["two lines swapped", "ab", "ba", {
      1: { kind: "ambiguous", at: [2] },
      2: { kind: "ambiguous", at: [1] },
    }],
    ["many identical lines, unchanged", "xxxx", "xxxx", {
      2: { kind: "placed", at: 2 },
    }],
  ];
  for (const [name, read, now, want] of cases) {
    it(`places lines: ${name}`, { timeout: 10_000 }, () => {
      const lines = [...read].map((_, i) => i + 1);
      const out = alignRecord(
        lines,
        seq(read),
        seq(now),
        Object.keys(want).map(Number),
      );
      for (const [line, p] of Object.entries(want)) {
        assert.deepEqual(out.placements.get(Number(line)), p, `line ${line}`);
      }
      assert.deepEqual(
        out.placements,
        new Map(
          [...oracle(lines, seq(read), seq(now))].filter(([n]) => n in want),
        ),
      );
    });
  }

  it("answers nothing for a line never remembered", { timeout: 10_000 }, () => {
    const out = alignRecord([1, 3], seq("ac"), seq("abc"), [2, 3]);
    assert.equal(out.placements.get(2), undefined);
    assert.deepEqual(out.placements.get(3), { kind: "placed", at: 3 });
  });

  it(
    "gives up (every line gone) past its cell budget",
    { timeout: 10_000 },
    () => {
      const out = alignRecord([1, 2], seq("ab"), seq("xxxxab"), [1], {
        maxCells: 4,
      });
      assert.equal(out.pairs, -1);
      assert.deepEqual(out.placements.get(1), { kind: "gone" });
    },
  );

  it("agrees with every best alignment enumerated (property)", {
    timeout: 60_000,
  }, () => {
    const sym = fc.constantFrom(1, 2, 3);
    fc.assert(
      fc.property(
        fc.array(sym, { minLength: 0, maxLength: 7 }),
        fc.array(sym, { minLength: 0, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
        (read, now, seen) => {
          const lines: number[] = [];
          const hashes: number[] = [];
          read.forEach((h, i) => {
            if (seen[i] || i === 0) lines.push(i + 1), hashes.push(h);
          });
          const want = oracle(lines, hashes, now);
          const out = alignRecord(lines, hashes, now, lines, { maxCells: 1e6 });
          assert.deepEqual(out.placements, want);
          assert.deepEqual(oracleTables(lines, hashes, now), want);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it(
    "is exact when the band must grow (large drift)",
    { timeout: 60_000 },
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(1, 2, 3, 4), { minLength: 1, maxLength: 6 }),
          fc.array(fc.constantFrom(1, 2, 5), { minLength: 10, maxLength: 30 }),
          (read, junk) => {
            const lines = read.map((_, i) => i + 1);
            const now = [...junk, ...read, ...junk.slice(0, 3)];
            const out = alignRecord(lines, read, now, lines);
            assert.deepEqual(out.placements, oracle(lines, read, now));
          },
        ),
        { numRuns: 300 },
      );
    },
  );
});
