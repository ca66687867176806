import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { PatchRefusedError } from "../../src/errors.ts";
import { foldHash, hex2, lineHash32 } from "../../src/hash/fnv.ts";
import { editContent } from "../../src/patch/apply.ts";
import { rebaseOps } from "../../src/patch/rebase.ts";
import type { PatchOp, ReadMemory } from "../../src/patch/types.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { validateOps } from "../../src/patch/validate.ts";
import { referenceApply } from "./_reference.ts";
import { oracleTables } from "../drift/_oracle.ts";

const RUNS = 400;

function anchor(lines: string[], n: number): string {
  return `${n}:${hex2(foldHash(lineHash32(lines[n - 1])))}`;
}

function fullMemory(lines: string[], withCount = true): ReadMemory {
  const m = memoryFromHashes(lines.map(lineHash32));
  return withCount
    ? { hash32: (n) => m.hash32(n), lineCount: lines.length }
    : m;
}

const text = (lines: string[]): string =>
  lines.length ? lines.join("\n") + "\n" : "";

describe("rebaseOps", () => {
  const read = ["head", "a", "b", "c", "d", "tail"];
  const memory = fullMemory(read);
  const A = (n: number): string => anchor(read, n);

  it("moves a range whose lines and neighbours stand unchanged at one other place", () => {
    const now = ["x", "y", ...read];
    const out = rebaseOps(
      [{ op: "delete", start: A(3), end: A(4) }],
      lookupFromLines(now),
      memory,
    );
    assert.deepEqual(out.ops, [{
      op: "delete",
      start: `5:${A(3).split(":")[1]}`,
      end: `6:${A(4).split(":")[1]}`,
    }]);
    assert.deepEqual(out.notes, ["op 1: lines 3–4 → 5–6"]);
    assert.deepEqual(out.rebased, [{ index: 0, from: [3, 4], to: [5, 6] }]);
    assert.deepEqual(
      validateOps(out.ops, lookupFromLines(now), { memory: out.memory }),
      [],
    );
  });

  it("moves inserts by their anchor line, and follows removals above too", () => {
    const now = read.slice(1);
    const out = rebaseOps(
      [
        { op: "insert_after", anchor: A(3), lines: ["new"] },
        { op: "append", lines: ["end"] },
      ],
      lookupFromLines(now),
      memory,
    );
    assert.deepEqual(out.notes, ["op 1: line 3 → 2"]);
    assert.deepEqual(out.ops[1], { op: "append", lines: ["end"] });
  });

  const refusals: [string, string[], PatchOp, ReadMemory?][] = [
    [
      "a line of the region changed",
      ["x", "head", "a", "B", "c", "d", "tail"],
      {
        op: "delete",
        start: A(3),
      },
    ],
    [
      "the anchor disagrees with the read",
      ["x", ...read],
      {
        op: "delete",
        start: `3:${hex2(parseInt(A(3).split(":")[1], 16) ^ 1)}`,
      },
    ],
    [
      "a copy of the line stands directly above it",
      ["head", "a", "b", "b", "c", "d", "tail"],
      { op: "delete", start: A(3) },
    ],
    [
      "a copy of the region stands directly below it",
      ["x", "head", "a", "b", "c", "b", "c", "d", "tail"],
      { op: "delete", start: A(3), end: A(4) },
    ],
  ];
  for (const [name, now, op, mem] of refusals) {
    it(`leaves the op as it is when ${name}`, () => {
      const out = rebaseOps([op], lookupFromLines(now), mem ?? memory);
      assert.deepEqual(out.ops, [op]);
      assert.deepEqual(out.notes, []);
      assert.throws(
        () =>
          editContent(text(now), [op], { memory: mem ?? memory, rebase: true }),
        PatchRefusedError,
      );
    });
  }

  // Placed by the alignment of the region's own lines: neighbours no longer
  // need to stand beside it, unchanged and read.
  const placed: [string, string[], PatchOp, string, ReadMemory?][] = [
    [
      "a neighbour changed",
      ["x", "head", "A", "b", "c", "d", "tail"],
      { op: "delete", start: A(3) },
      "op 1: line 3 → 4",
    ],
    [
      "part of the region's surroundings stands twice, but one place fits best",
      ["a", "b", "c", "x", "head", "a", "b", "c", "d", "tail"],
      { op: "delete", start: A(3) },
      "op 1: line 3 → 7",
    ],
    [
      "a neighbour was never read",
      ["x", ...read],
      { op: "delete", start: A(3) },
      "op 1: line 3 → 4",
      memoryFromHashes(
        new Map(
          read.map((l, i) => [i + 1, lineHash32(l)] as [number, number]).filter(
            ([n]) => n !== 4,
          ),
        ),
      ),
    ],
    [
      "the region starts at line 1 and lines were put above it",
      ["x", ...read],
      { op: "replace", start: A(1), lines: ["H"] },
      "op 1: line 1 → 2",
    ],
    [
      "the region ends at the last line and the read's line count is unknown",
      ["x", ...read],
      { op: "delete", start: A(6) },
      "op 1: line 6 → 7",
      fullMemory(read, false),
    ],
    [
      "the region ends at the last line and lines were put after it",
      ["x", ...read, "more"],
      { op: "delete", start: A(6) },
      "op 1: line 6 → 7",
    ],
  ];
  for (const [name, now, op, note, mem] of placed) {
    it(`moves the op when ${name}`, () => {
      const out = rebaseOps([op], lookupFromLines(now), mem ?? memory);
      assert.deepEqual(out.notes, [note]);
      const applied = editContent(text(now), [op], {
        memory: mem ?? memory,
        rebase: true,
      });
      assert.deepEqual(applied.rebased, [note]);
    });
  }

  it("at the end of the file, the file's end is the neighbour below", () => {
    const now = ["x", ...read];
    const out = rebaseOps(
      [{ op: "delete", start: A(6) }],
      lookupFromLines(now),
      memory,
    );
    assert.deepEqual(out.notes, ["op 1: line 6 → 7"]);
  });

  it("an op that still fits where it was addressed is left alone", () => {
    const out = rebaseOps(
      [{ op: "delete", start: A(3) }],
      lookupFromLines(read),
      memory,
    );
    assert.deepEqual(out.notes, []);
  });

  it("rebased ops still go through validation: two that land on one line overlap", () => {
    const now = ["x", ...read];
    assert.throws(
      () =>
        editContent(text(now), [
          { op: "delete", start: A(3) },
          { op: "delete", start: "4:" + anchor(now, 4).split(":")[1] },
        ], { memory, rebase: true }),
      (e: unknown) =>
        e instanceof PatchRefusedError &&
        e.problems.some((p) => p.code === "OVERLAP"),
    );
  });
});

interface Case {
  read: string[];
  s: number;
  e: number;
  kind: number;
  holes: number[];
  withCount: boolean;
  inserted: string[];
  insertAt: number;
  removed: number;
  removeAt: number;
  edit: number | null;
  dup: "none" | "above" | "below";
}

const lineArb = fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h");

const caseArb: fc.Arbitrary<Case> = fc.record({
  read: fc.array(lineArb, { minLength: 1, maxLength: 14 }),
  a: fc.nat(),
  len: fc.nat({ max: 3 }),
  kind: fc.integer({ min: 0, max: 3 }),
  holes: fc.array(fc.nat(), { maxLength: 2 }),
  noHoles: fc.boolean(),
  withCount: fc.boolean(),
  inserted: fc.array(lineArb, { maxLength: 4 }),
  insertAt: fc.nat(),
  removed: fc.nat({ max: 3 }),
  removeAt: fc.nat(),
  edit: fc.option(fc.nat(), { freq: 3 }),
  dup: fc.constantFrom("none", "none", "above", "below"),
}).map((r) => {
  const n = r.read.length;
  const s = 1 + (r.a % n);
  const e = r.kind <= 1 ? Math.min(n, s + r.len) : s;
  return {
    read: r.read,
    s,
    e,
    kind: r.kind,
    holes: r.noHoles ? [] : r.holes.map((h) => 1 + (h % n)),
    withCount: r.withCount,
    inserted: r.inserted,
    insertAt: r.insertAt,
    removed: r.removed,
    removeAt: r.removeAt,
    edit: r.edit,
    dup: r.dup as Case["dup"],
  };
});

function opFor(c: Case): PatchOp {
  const A = (n: number): string => anchor(c.read, n);
  const end = c.e !== c.s ? { end: A(c.e) } : {};
  switch (c.kind) {
    case 0:
      return { op: "replace", start: A(c.s), ...end, lines: ["NEW"] };
    case 1:
      return { op: "delete", start: A(c.s), ...end };
    case 2:
      return { op: "insert_after", anchor: A(c.s), lines: ["NEW"] };
    default:
      return { op: "insert_before", anchor: A(c.s), lines: ["NEW"] };
  }
}

/** The drifted file, and where the run (region ± 1 as read) was put in it. */
function drift(c: Case): { now: string[]; runAt: number; touched: boolean } {
  const top = c.s > 1 ? c.s - 1 : c.s;
  const bottom = Math.min(c.read.length, c.e + 1);
  let above = c.read.slice(0, top - 1);
  let run = c.read.slice(top - 1, bottom);
  let below = c.read.slice(bottom);
  let touched = false;
  if (above.length > 0 && c.removed > 0) {
    const at = c.removeAt % above.length;
    above = [...above.slice(0, at), ...above.slice(at + c.removed)];
  }
  if (c.inserted.length > 0) {
    const at = c.insertAt % (above.length + 1);
    above = [...above.slice(0, at), ...c.inserted, ...above.slice(at)];
  }
  if (c.edit !== null) {
    const k = c.edit % run.length;
    run = run.map((l, i) => (i === k ? `${l}!` : l));
    touched = true;
  }
  const copy = c.read.slice(top - 1, bottom);
  if (c.dup === "above") above = [...copy, "sep", ...above];
  if (c.dup === "below") below = [...below, "sep", ...copy];
  return {
    now: [...above, ...run, ...below],
    runAt: above.length + 1,
    touched,
  };
}

describe("property: rebase", () => {
  it(
    "applies an op only where the alignment places every line of its region, one to one — and always does then",
    {
      timeout: 60_000,
    },
    () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          const op = opFor(c);
          const { now } = drift(c);
          const holes = new Set(c.holes);
          const remembered = c.read
            .map((l, i) => [i + 1, lineHash32(l)] as [number, number])
            .filter(([n]) => !holes.has(n));
          const base = memoryFromHashes(new Map(remembered));
          const memory: ReadMemory = c.withCount
            ? {
              hash32: (n) => base.hash32(n),
              lineCount: c.read.length,
              entries: () => base.entries(),
            }
            : base;
          const places = oracleTables(
            remembered.map(([n]) => n),
            remembered.map(([, h]) => h),
            now.map(lineHash32),
          );
          const region: number[] = [];
          for (let n = c.s; n <= c.e; n++) region.push(n);
          const shifts = new Set(region.map((n) => {
            const p = places.get(n);
            return p?.kind === "placed" ? p.at - n : NaN;
          }));
          const d = shifts.size === 1 ? [...shifts][0] : NaN;
          const whole = region.every((n) => !holes.has(n));

          let out: ReturnType<typeof editContent> | null = null;
          try {
            out = editContent(text(now), [op], { memory, rebase: true });
          } catch (e) {
            if (!(e instanceof PatchRefusedError)) throw e;
          }
          let shift = 0;
          if (out && out.rebased.length > 0) {
            const m = /→ (\d+)/.exec(out.rebased[0])!;
            assert.ok(whole, "rebased a region that was not read in full");
            shift = Number(m[1]) - c.s;
            if (Number.isFinite(d)) {
              assert.equal(shift, d, "rebased off the placement");
            }
          }
          if (out) {
            for (const n of region) {
              const p = places.get(n);
              if (p === undefined) continue;
              // Placed, or paired with that one line by every best alignment
              // that pairs it at all (a changed neighbour of the same text).
              assert.ok(
                (p.kind === "placed" && p.at === n + shift) ||
                  (p.kind === "ambiguous" && p.at.length === 1 &&
                    p.at[0] === n + shift),
                `applied where line ${n} is not placed: ${JSON.stringify(p)}`,
              );
              assert.equal(now[n + shift - 1], c.read[n - 1]);
            }
            const at = c.kind === 2 ? c.s + shift + 1 : c.s + shift;
            const deleteCount = c.kind <= 1 ? c.e - c.s + 1 : 0;
            const lines = c.kind === 1 ? [] : ["NEW"];
            assert.equal(
              out.content,
              referenceApply(text(now), [{ at, deleteCount, lines }]),
            );
          }
          if (whole && Number.isFinite(d)) {
            assert.ok(out, "refused an op whose region the alignment places");
          }
        }),
        { numRuns: RUNS },
      );
    },
  );
});
