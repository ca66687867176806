/**
 * Rebase (docs/patch-format.md#rebase): re-addressing an op whose lines only
 * moved — lines were inserted or removed above it since the read — to where
 * they stand now, and never guessing.
 *
 * @module
 */

import { foldHash, hex2 } from "../hash/fnv.ts";
import type { LineLookup, PatchOp, ReadMemory } from "./types.ts";
import { anchorsOf, regionOf, tryAnchor } from "./lookup.ts";

/** One op that rebase moved. */
export interface RebasedOp {
  /** Index of the op in the patch. */
  index: number;
  /** Its lines as read, `[start, end]`. */
  from: [number, number];
  /** Where those lines stand now. */
  to: [number, number];
}

/** What {@link rebaseOps} did. */
export interface RebaseResult {
  /** The ops, those that moved re-addressed to where their lines stand now. */
  ops: PatchOp[];
  /** One note per moved op, such as `op 2: lines 40–42 → 43–45`. */
  notes: string[];
  /** The moved ops, in op order. */
  rebased: RebasedOp[];
  /**
   * The read record seen from the lines as they stand now: a moved op's
   * lines (and their neighbours) answer with what was read at their old
   * place. Validate the returned ops against this memory.
   */
  memory: ReadMemory;
}

function shifted(op: PatchOp, d: number): PatchOp {
  const move = (text: string): string => {
    const a = tryAnchor(text)!;
    return `${a.line + d}:${a.hash}`;
  };
  switch (op.op) {
    case "replace":
    case "delete":
      return {
        ...op,
        start: move(op.start),
        ...(op.end !== undefined ? { end: move(op.end) } : {}),
      };
    case "insert_after":
    case "insert_before":
      return { ...op, anchor: move(op.anchor) };
    default:
      return op;
  }
}

function span(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}–${to}`;
}

/**
 * Re-addresses ops whose lines moved. An op moves only when it no longer
 * fits where it was addressed and every line of its region plus one line
 * either side, as the session read them (full 32-bit hashes from `memory`),
 * stand unchanged as one contiguous run at exactly one place in the file
 * now. At the top of the file the neighbour above is the file's start (the
 * run must start at line 1 now); at the bottom the neighbour below is the
 * file's end, which needs `memory.lineCount` to know the region was last
 * (the run must end at the last line now). An insert's region is its anchor
 * line; append and prepend never move. Everything else — a changed line, a
 * second copy of the run, a line of the run the session never read — is left
 * as it is, for validation to refuse as usual. The returned ops still go
 * through `validateOps` (with the returned memory): overlaps and every other
 * rule apply to them as to any op.
 *
 * @param ops The ops of one file, addressed against the file as read.
 * @param now The file as it is now.
 * @param memory The session's read record of the file.
 * @returns The ops (moved ones re-addressed), notes, and the memory to validate them with.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../hash/fnv.ts";
 * import { rebaseOps } from "./rebase.ts";
 * import { lookupFromLines } from "./lookup.ts";
 * import { memoryFromHashes } from "./memory.ts";
 * import { validateOps } from "./validate.ts";
 * const read = ["a", "b", "c", "d"];
 * const memory = memoryFromHashes(read.map(lineHash32));
 * const now = lookupFromLines(["new", "a", "b", "c", "d"]);
 * const out = rebaseOps([{ op: "replace", start: "2:23", lines: ["B"] }], now, memory);
 * assert.deepEqual(out.ops, [{ op: "replace", start: "3:23", lines: ["B"] }]);
 * assert.deepEqual(out.notes, ["op 1: line 2 → 3"]);
 * assert.deepEqual(validateOps(out.ops, now, { memory: out.memory }), []);
 * ```
 */
export function rebaseOps(
  ops: PatchOp[],
  now: LineLookup,
  memory: ReadMemory,
): RebaseResult {
  const exists = now.has
    ? (n: number) => n >= 1 && now.has!(n)
    : (n: number) => n >= 1 && n <= now.lineCount;
  const out: PatchOp[] = [];
  const notes: string[] = [];
  const rebased: RebasedOp[] = [];
  const views: { from: number; to: number; d: number }[] = [];
  // Lines as the session first read them: what a refusal showed since does
  // not hide where the region was read.
  const read = memory.read32
    ? (n: number) => memory.read32!(n)
    : (n: number) => memory.hash32(n);
  ops.forEach((op, index) => {
    const d = moveOf(op, now, memory, read, exists);
    if (d === 0) {
      out.push(op);
      return;
    }
    const [s, e] = regionOf(op)!;
    out.push(shifted(op, d));
    notes.push(
      `op ${index + 1}: ${span(s, e)} → ${
        s === e ? s + d : `${s + d}–${e + d}`
      }`,
    );
    rebased.push({ index, from: [s, e], to: [s + d, e + d] });
    views.push({ from: s - 1 + d, to: e + 1 + d, d });
  });
  const view: ReadMemory = views.length === 0 ? memory : {
    hash32(n) {
      const v = views.find((w) => w.from <= n && n <= w.to);
      return v ? read(n - v.d) : memory.hash32(n);
    },
  };
  return { ops: out, notes, rebased, memory: view };
}

/** How far an op's lines moved, or 0 when it stays as addressed. */
function moveOf(
  op: PatchOp,
  now: LineLookup,
  memory: ReadMemory,
  read: (n: number) => number | undefined,
  exists: (n: number) => boolean,
): number {
  const region = regionOf(op);
  if (!region) return 0;
  const [s, e] = region;
  const anchors = anchorsOf(op).map((t) => tryAnchor(t)!);
  for (const a of anchors) {
    const r = read(a.line);
    // An anchor that disagrees with the read was not built from it.
    if (r === undefined || hex2(foldHash(r)) !== a.hash) return 0;
  }
  if (fitsInPlace(s, e, anchors, now, read, exists)) return 0;

  const top = s > 1 ? s - 1 : s;
  let bottom: number;
  let toEnd = false;
  if (read(e + 1) !== undefined) bottom = e + 1;
  else if (memory.lineCount === e) [bottom, toEnd] = [e, true];
  else return 0;
  const run: number[] = [];
  for (let n = top; n <= bottom; n++) {
    const h = read(n);
    if (h === undefined) return 0;
    run.push(h);
  }
  const found: number[] = [];
  for (const p of now.linesWithHash(run[0])) {
    if (s === 1 && p !== 1) continue;
    let ok = true;
    for (let k = 1; k < run.length && ok; k++) {
      ok = exists(p + k) && now.hash32(p + k) === run[k];
    }
    if (ok && toEnd && exists(p + run.length)) ok = false;
    if (ok) found.push(p);
    if (found.length > 1) return 0;
  }
  return found.length === 1 ? found[0] - top : 0;
}

/** Whether the op's lines still stand where it addressed them, as read. */
function fitsInPlace(
  s: number,
  e: number,
  anchors: { line: number; hash: string }[],
  now: LineLookup,
  read: (n: number) => number | undefined,
  exists: (n: number) => boolean,
): boolean {
  if (!exists(e)) return false;
  for (const a of anchors) {
    if (hex2(foldHash(now.hash32(a.line))) !== a.hash) return false;
  }
  for (let n = s; n <= e; n++) {
    const r = read(n);
    if (r !== undefined && now.hash32(n) !== r) return false;
  }
  return true;
}
