import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { splitLines } from "../../src/anchor/split.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { foldHash, hex2, lineHash32 } from "../../src/hash/fnv.ts";
import { editContent } from "../../src/patch/apply.ts";
import { formatPatchText, parsePatch } from "../../src/patch/parse.ts";
import type { PatchOp } from "../../src/patch/types.ts";
import { linesNeeded, lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { planOps } from "../../src/patch/plan.ts";
import { validateOps } from "../../src/patch/validate.ts";
import { applyHashlineEdit } from "../../src/patch/hashline_edit.ts";
import { guardedLookup } from "./_fixture.ts";
import { referenceApply } from "./_reference.ts";

const RUNS = 300;

const contentArb = fc.tuple(
  fc.boolean(),
  fc.array(
    fc.constantFrom("a", "b", " ", "é", "😀", "\r", "\n", "\r\n", "|", "1:aa|"),
    { maxLength: 40 },
  ),
).map(([bom, parts]) => (bom ? "\uFEFF" : "") + parts.join(""));

const newLineArb = fc.array(
  fc.constantFrom("x", "y", " ", "\r", "λ", "😀", ""),
  { maxLength: 4 },
)
  .map((parts) => parts.join(""));

interface Seed {
  kind: number;
  a: number;
  b: number;
  lines: string[];
}
const seedsArb = fc.array(
  fc.record({
    kind: fc.integer({ min: 0, max: 5 }),
    a: fc.nat(),
    b: fc.nat(),
    lines: fc.array(newLineArb, { maxLength: 3 }),
  }),
  { maxLength: 8 },
);

type Spec =
  | { kind: "range"; start: number; end: number; lines: string[] | null }
  | {
    kind: "insert";
    gap: number;
    after: boolean;
    line: number;
    lines: string[];
  }
  | { kind: "edge"; gap: "start" | "end"; lines: string[] };

/** Turns random seeds into valid, non-overlapping ops for a file of n lines. */
function buildSpecs(n: number, seeds: Seed[]): Spec[] {
  const taken = new Set<number>();
  const anchoredInserts = new Set<number>();
  const specs: Spec[] = [];
  for (const s of seeds) {
    const lines = s.lines.length ? s.lines : ["filler"];
    if (s.kind === 4) specs.push({ kind: "edge", gap: "end", lines });
    else if (s.kind === 5) specs.push({ kind: "edge", gap: "start", lines });
    else if (n === 0) continue;
    else if (s.kind <= 1) {
      const start = 1 + (s.a % n);
      const end = Math.min(n, start + (s.b % 3));
      let free = true;
      for (let l = start; l <= end; l++) {
        if (taken.has(l) || anchoredInserts.has(l)) free = false;
      }
      if (!free) continue;
      for (let l = start; l <= end; l++) taken.add(l);
      specs.push({
        kind: "range",
        start,
        end,
        lines: s.kind === 0 ? s.lines : null,
      });
    } else {
      const line = 1 + (s.a % n);
      if (taken.has(line)) continue;
      anchoredInserts.add(line);
      const after = s.kind === 2;
      specs.push({
        kind: "insert",
        gap: after ? line + 1 : line,
        after,
        line,
        lines,
      });
    }
  }
  return specs;
}

function anchor(lines: string[], n: number): string {
  return `${n}:${hex2(foldHash(lineHash32(lines[n - 1])))}`;
}

function toOps(lines: string[], specs: Spec[]): PatchOp[] {
  return specs.map((s): PatchOp => {
    if (s.kind === "edge") {
      return { op: s.gap === "end" ? "append" : "prepend", lines: s.lines };
    }
    if (s.kind === "insert") {
      return {
        op: s.after ? "insert_after" : "insert_before",
        anchor: anchor(lines, s.line),
        lines: s.lines,
      };
    }
    const end = s.end !== s.start ? { end: anchor(lines, s.end) } : {};
    return s.lines === null
      ? { op: "delete", start: anchor(lines, s.start), ...end }
      : {
        op: "replace",
        start: anchor(lines, s.start),
        ...end,
        lines: s.lines,
      };
  });
}

/** The naive reference: walk the gaps and lines of the original, in order. */
function reference(lines: string[], specs: Spec[]): string[] {
  const n = lines.length;
  const gapOf = (s: Spec): number =>
    s.kind === "insert"
      ? s.gap
      : s.kind === "edge"
      ? (s.gap === "start" ? 1 : n + 1)
      : -1;
  const out: string[] = [];
  for (let g = 1; g <= n + 1; g++) {
    for (const s of specs) {
      if (s.kind !== "range" && gapOf(s) === g) out.push(...s.lines);
    }
    if (g > n) break;
    const range = specs.find((s) =>
      s.kind === "range" && s.start <= g && g <= s.end
    );
    if (!range) out.push(lines[g - 1]);
    else if (range.kind === "range" && range.start === g && range.lines) {
      out.push(...range.lines);
    }
  }
  return out;
}

describe("property: applying a valid patch equals a naive splice", () => {
  it("lines, BOM and final-newline state come out as the reference says", () => {
    fc.assert(
      fc.property(contentArb, seedsArb, (content, seeds) => {
        const src = splitLines(content);
        const specs = buildSpecs(src.lines.length, seeds);
        const ops = toOps(src.lines, specs);
        const out = editContent(content, ops).content;
        const got = splitLines(out);
        const want = reference(src.lines, specs);
        assert.deepEqual(got.lines, want);
        assert.equal(got.bom, src.bom);
        if (want.length > 0 && ops.length > 0) {
          const final = src.lines.length === 0 || src.finalNewline ||
            want[want.length - 1] === "";
          assert.equal(got.finalNewline, final);
        }
        if (ops.length === 0) assert.equal(out, content);
        assert.equal(
          out,
          referenceApply(content, planOps(ops, src.lines.length)),
          "byte for byte what splitting and joining the whole content gives",
        );
        if (
          src.firstTerminator === "\r\n" &&
          src.terminators.every((t) => t !== "\n")
        ) {
          assert.ok(
            got.terminators.every((t) => t !== "\n"),
            "a CRLF file stays CRLF",
          );
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("the text form carries the same ops", () => {
    fc.assert(
      fc.property(contentArb, seedsArb, (content, seeds) => {
        const src = splitLines(content);
        const ops = toOps(src.lines, buildSpecs(src.lines.length, seeds))
          .filter((op) =>
            !("lines" in op) || op.lines.every((l) => !l.endsWith("\r"))
          );
        assert.deepEqual(
          parsePatch(formatPatchText(ops), { headerless: true }).files[0]
            ?.ops ?? [],
          ops,
        );
      }),
      { numRuns: RUNS },
    );
  });

  it("applyHashlineEdit gives byte for byte what splitting and joining gives", () => {
    fc.assert(
      fc.property(
        contentArb,
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        fc.array(newLineArb, { maxLength: 3 }),
        (content, a, b, insertAfter, lines) => {
          const src = splitLines(content).lines;
          fc.pre(src.length > 0);
          const start = 1 + (a % src.length);
          const end = insertAfter
            ? start
            : Math.min(src.length, start + (b % 3));
          const hash = (n: number): string =>
            hex2(foldHash(lineHash32(src[n - 1])));
          fc.pre(!insertAfter || lines.length > 0);
          const out = applyHashlineEdit(content, {
            startLine: start,
            startHash: hash(start),
            ...(end !== start ? { endLine: end, endHash: hash(end) } : {}),
            newContent: lines.length ? lines.join("\n") + "\n" : "",
            insertAfter,
          });
          // In newContent "\r\n" is a break, so a line ending in "\r" joined
          // with "\n" cannot be told from one without it.
          fc.pre(lines.every((l) => !l.endsWith("\r")));
          const plan = insertAfter
            ? [{ at: start + 1, deleteCount: 0, lines }]
            : [{ at: start, deleteCount: end - start + 1, lines }];
          assert.deepEqual(out, {
            content: referenceApply(content, plan),
            error: null,
          });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("property: refusals", () => {
  it("a patch with a stale anchor or an overlap is refused whole and the content is unchanged", () => {
    fc.assert(
      fc.property(
        contentArb,
        seedsArb,
        fc.nat(),
        fc.boolean(),
        (content, seeds, pick, overlap) => {
          const src = splitLines(content);
          const ops = toOps(src.lines, buildSpecs(src.lines.length, seeds));
          const anchored = ops.filter((op) =>
            op.op !== "append" && op.op !== "prepend"
          );
          fc.pre(anchored.length > 0);
          const victim = anchored[pick % anchored.length];
          const broken = ops.slice();
          if (overlap) {
            const line = "start" in victim ? victim.start : victim.anchor;
            broken.push({ op: "delete", start: line });
          } else {
            const i = broken.indexOf(victim);
            const flip = (a: string): string => {
              const [l, h] = a.split(":");
              return `${l}:${hex2(parseInt(h, 16) ^ 0x5a)}`;
            };
            broken[i] = "start" in victim
              ? { ...victim, start: flip(victim.start) }
              : { ...victim, anchor: flip(victim.anchor) };
          }
          const before = content;
          assert.throws(() => editContent(content, broken), PatchRefusedError);
          assert.equal(content, before);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("validation never asks a lookup for anything linesNeeded did not list", () => {
    fc.assert(
      fc.property(contentArb, contentArb, seedsArb, (read, now, seeds) => {
        const readLines = splitLines(read).lines;
        const nowLines = splitLines(now).lines;
        const ops = toOps(readLines, buildSpecs(readLines.length, seeds));
        ops.push({ op: "delete", start: `${nowLines.length + 3}:ab` });
        const memory = memoryFromHashes(readLines.map(lineHash32));
        const need = linesNeeded(ops, { memory, lineCount: nowLines.length });
        const guarded = guardedLookup(nowLines, need.lines, need.hashes);
        assert.deepEqual(
          validateOps(ops, guarded, { memory }),
          validateOps(ops, lookupFromLines(nowLines), { memory }),
        );
      }),
      { numRuns: RUNS },
    );
  });
});
