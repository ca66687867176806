import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PatchRefusedError } from "../../src/errors.ts";
import { foldHash, hex2, lineHash32 } from "../../src/hash/fnv.ts";
import { editContent } from "../../src/patch/apply.ts";
import { rebaseOps } from "../../src/patch/rebase.ts";
import type { PatchOp, ReadMemory } from "../../src/patch/types.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { validateOps } from "../../src/patch/validate.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
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
    "applies an op only where the alignment places every line of its region (a moved insert: and its gap), one to one — and always does then",
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
          // A moved insert needs its gap: the line across it moved by as
          // much, or the file's end still closing it.
          const readEnd = c.withCount
            ? c.read.length
            : remembered[remembered.length - 1]?.[0] ?? 0;
          const gapHolds = (shift: number, lenient: boolean): boolean => {
            if (c.kind < 2 || shift === 0) return true;
            const across = c.kind === 2 ? c.s + 1 : c.s - 1;
            if (across < 1) return c.s + shift === 1;
            if (holes.has(across) || across > c.read.length) {
              return c.kind === 2 && across > readEnd &&
                c.s + shift === now.length;
            }
            const p = places.get(across);
            return (p?.kind === "placed" && p.at === across + shift) ||
              (lenient && p?.kind === "ambiguous" && p.at.length === 1 &&
                p.at[0] === across + shift);
          };

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
            assert.ok(
              gapHolds(shift, true),
              "moved an insert whose gap changed",
            );
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
          if (whole && Number.isFinite(d) && gapHolds(d, false)) {
            assert.ok(out, "refused an op whose region the alignment places");
          }
        }),
        { numRuns: RUNS },
      );
    },
  );
});

describe("rebase: an insert is placed by its gap", () => {
  // A function read with tabs; before the edit arrives the whole file is
  // reformatted: the signature is split over lines (moving everything
  // below it) and the body re-indented, while blank lines and braces at
  // column 0 stand as they were.
  const read = [
    "const pick = (value, fdNumber, {strict, fallback}) => {",
    "\tif (value === 'inherit') {",
    "\t\treturn fdNumber;",
    "\t}",
    "",
    "\tif (index !== -1) {",
    "\t\treturn index;",
    "\t}",
    "};",
  ];
  const reformatted = [
    "const pick = (",
    "  value,",
    "  fdNumber,",
    "  { strict, fallback },",
    ") => {",
    '  if (value === "inherit") {',
    "    return fdNumber;",
    "  }",
    "",
    "  if (index !== -1) {",
    "    return index;",
    "  }",
    "};",
  ];
  const memory = fullMemory(read);
  const insert: PatchOp = {
    op: "insert_after",
    anchor: anchor(read, 5),
    lines: ["\tconst index = STREAMS.indexOf(value);"],
  };

  it(
    "refuses an insert whose anchor moved when the line across its gap changed",
    {
      timeout: 10_000,
    },
    () => {
      const out = rebaseOps([insert], lookupFromLines(reformatted), memory);
      assert.deepEqual(out.notes, []);
      assert.deepEqual(out.ops, [insert]);
      assert.throws(
        () =>
          editContent(text(reformatted), [insert], { memory, rebase: true }),
        (e: unknown) => {
          assert.ok(e instanceof PatchRefusedError, String(e));
          assert.deepEqual(e.problems.map((p) => p.code), ["STALE_ANCHOR"]);
          assert.match(e.message, /^Rejected — nothing written\./);
          assert.match(e.message, /line 5 → 9/);
          // Fresh lines around the anchor, in the file's new form.
          assert.match(e.message, /10:[0-9a-f]{2}\| {2}if \(index !== -1\) \{/);
          return true;
        },
      );
    },
  );

  it(
    "refuses the same insert through the workspace, leaving the bytes on disk as they were",
    {
      timeout: 20_000,
    },
    async () => {
      const base = await mkdtemp(join(tmpdir(), "hashline-gap-"));
      try {
        const ws = openWorkspace(base, {
          persistSessions: false,
          stateDir: join(base, ".state"),
        });
        const file = join(base, "pick.js");
        await writeFile(file, text(read));
        const view = await ws.read("pick.js");
        await writeFile(file, text(reformatted));
        const hash = /^5:([0-9a-f]{2})\|/m.exec(view.text)![1];
        await assert.rejects(
          ws.patch(`@@ pick.js\n+ 5:${hash}\n~${insert.lines[0]}`, {
            rebase: true,
          }),
          (e: unknown) =>
            e instanceof PatchRefusedError &&
            e.problems.every((p) => p.code === "STALE_ANCHOR") &&
            /line 5 → 9/.test(e.message),
        );
        assert.equal(await readFile(file, "utf8"), text(reformatted));
        // The refusal's fresh lines count as read: a resend built from them lands.
        const fixed = "  const index = STREAMS.indexOf(value);";
        await ws.patch(`@@ pick.js\n+ 9:${hash}\n~${fixed}`, { rebase: true });
        const want = reformatted.slice();
        want.splice(9, 0, fixed);
        assert.equal(await readFile(file, "utf8"), text(want));
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );

  it(
    "after a lean read, refuses a bare-number insert the same way, showing fresh lines as LINE|content",
    {
      timeout: 20_000,
    },
    async () => {
      const base = await mkdtemp(join(tmpdir(), "hashline-gap-"));
      try {
        const ws = openWorkspace(base, {
          persistSessions: false,
          stateDir: join(base, ".state"),
        });
        const file = join(base, "pick.js");
        await writeFile(file, text(read));
        await ws.read("pick.js", { anchors: "lean" });
        await writeFile(file, text(reformatted));
        await assert.rejects(
          ws.patch(`@@ pick.js\n+ 5\n~${insert.lines[0]}`, { rebase: true }),
          (e: unknown) => {
            assert.ok(e instanceof PatchRefusedError, String(e));
            assert.deepEqual(e.problems.map((p) => p.code), ["STALE_ANCHOR"]);
            assert.match(e.message, /line 5 → 9, but line 6/);
            assert.match(e.message, /^10\| {2}if \(index !== -1\) \{$/m);
            assert.doesNotMatch(e.message, /^10:[0-9a-f]{2}\|/m);
            return true;
          },
        );
        assert.equal(await readFile(file, "utf8"), text(reformatted));
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    },
  );

  const moves: [string, string[], PatchOp, string][] = [
    [
      "insert_after, lines only put above",
      ["// header", "", ...read],
      insert,
      "op 1: line 5 → 7",
    ],
    [
      "insert_before, lines only put above",
      ["// header", ...read],
      { op: "insert_before", anchor: anchor(read, 6), lines: ["\t// x"] },
      "op 1: line 6 → 7",
    ],
    [
      "insert_after the last line, the file's end still closing the gap",
      ["// header", ...read],
      { op: "insert_after", anchor: anchor(read, 9), lines: ["// end"] },
      "op 1: line 9 → 10",
    ],
  ];
  for (const [name, now, op, note] of moves) {
    it(`moves an insert whose gap moved whole: ${name}`, {
      timeout: 10_000,
    }, () => {
      const out = editContent(text(now), [op], { memory, rebase: true });
      assert.deepEqual(out.rebased, [note]);
    });
  }

  const conflicts: [string, string[], PatchOp][] = [
    [
      "insert_before, the line above changed",
      ["// header", ...read.map((l, i) => i === 4 ? "// was blank" : l)],
      { op: "insert_before", anchor: anchor(read, 6), lines: ["\t// x"] },
    ],
    [
      "insert_after the last line, lines put after it",
      ["// header", ...read, "export default pick;"],
      { op: "insert_after", anchor: anchor(read, 9), lines: ["// end"] },
    ],
    [
      "insert_before line 1, lines put above it",
      ["// header", ...read],
      { op: "insert_before", anchor: anchor(read, 1), lines: ["// top"] },
    ],
  ];
  for (const [name, now, op] of conflicts) {
    it(`refuses a moved insert whose gap changed: ${name}`, {
      timeout: 10_000,
    }, () => {
      assert.throws(
        () => editContent(text(now), [op], { memory, rebase: true }),
        (e: unknown) =>
          e instanceof PatchRefusedError &&
          e.problems.every((p) => p.code === "STALE_ANCHOR"),
      );
    });
  }

  it("an insert in place still merges with a change across its gap", {
    timeout: 10_000,
  }, () => {
    const now = read.map((l, i) =>
      i === 5 ? "\tif (index !== -1) { // edited" : l
    );
    for (const rebase of [false, true]) {
      const out = editContent(text(now), [insert], { memory, rebase });
      assert.equal(out.content.split("\n")[5], insert.lines[0]);
      assert.equal(out.content.split("\n")[6], now[5]);
    }
  });
});
