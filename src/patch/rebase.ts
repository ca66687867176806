/**
 * Rebase (docs/patch-format.md#rebase): re-addressing an op whose lines only
 * moved — lines were inserted or removed above it since the read — to where
 * they stand now, and never guessing.
 *
 * @module
 */

import { leanLines } from "../anchor/lean.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import type { LineLookup, PatchOp, ReadMemory } from "./types.ts";
import { regionOf, tryAnchor } from "./lookup.ts";
import { anchorsOf, mapAnchors, rowOf } from "./ops.ts";
import { type Place, placeRecord, regionLines } from "./_drift.ts";
import type { Placement } from "./align.ts";
import { CONTEXT, existsIn, window } from "./fresh.ts";
import { opLabel, type Problem, problem } from "./problems.ts";
import { judge } from "./_stale.ts";

/** One op that rebase moved. */
export interface RebasedOp {
  /** Index of the op in the patch. */
  index: number;
  /** Its lines as read, `[start, end]`. */
  from: [number, number];
  /** Where those lines stand now. */
  to: [number, number];
}

/**
 * An insert that rebase did not move: its anchor line moved, but the gap
 * the new lines go into did not move whole with it.
 */
export interface GapConflict {
  /** Index of the op in the patch. */
  index: number;
  /** The anchor line as read. */
  line: number;
  /** Where the anchor line stands now. */
  at: number;
  /** What happened on the other side of the gap, as a clause. */
  why: string;
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
  /** Indexes of the ops the alignment placed (moved or not): validation does not place them again. */
  placed: Set<number>;
  /** Inserts not moved because their gap changed (see {@link gapProblems}); left as they were. */
  conflicts: GapConflict[];
}

/** Options of {@link rebaseOps}. */
export interface RebaseOptions {
  /** The alignment's placements, when already made (else made here). */
  place?: (line: number) => Placement | undefined;
  /** Whether the file is known unchanged since the record was made. */
  unchanged?: boolean;
}

function shifted(op: PatchOp, d: number): PatchOp {
  return mapAnchors(op, (text) => {
    const a = tryAnchor(text)!;
    return `${a.line + d}:${a.hash}`;
  });
}

function span(from: number, to: number): string {
  return from === to ? `line ${from}` : `lines ${from}–${to}`;
}

/**
 * Lines as read and where they stand now, as a rebase note says it:
 * `lines 40–42 → 43–45`, `line 7 → 9`.
 *
 * @param from The lines as read, `[start, end]`.
 * @param to Where they stand now.
 * @returns The text.
 */
export function movedText(
  from: readonly [number, number],
  to: readonly [number, number],
): string {
  return `${span(from[0], from[1])} → ${
    to[0] === to[1] ? to[0] : `${to[0]}–${to[1]}`
  }`;
}

/**
 * Re-addresses ops whose lines moved, by the drift alignment
 * (docs/patch-format.md#drift): an op moves when every line of its region
 * (an insert's: its anchor line) is a remembered line and the alignment
 * places them all, one to one and in order, onto one contiguous run of
 * unchanged lines now, at another place than they were read. Everything
 * else — a changed line inside the region, an ambiguous placement (a copy
 * of its lines directly above or below), a line of the region the session
 * never read, an anchor that disagrees with the record — is left as it is,
 * for validation to refuse as usual. An insert moves only with its gap:
 * the line across it (below `insert_after`, above `insert_before`; or the
 * file's end) must have moved by as much, unchanged; else it is left as it
 * is and listed in `conflicts`, a change beside where the new lines would
 * go (refuse it with {@link gapProblems}). Append and prepend never move.
 * The returned ops still go through `validateOps` (with the returned memory).
 *
 * @param ops The ops of one file, addressed against the file as read.
 * @param now The file as it is now.
 * @param memory The session's read record of the file.
 * @param options `place` (placements already made) and `unchanged`.
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
  options: RebaseOptions = {},
): RebaseResult {
  const place = options.place ??
    placeRecord(
      now,
      memory,
      regionLines(ops, memory),
      options.unchanged === true,
    );
  const out: PatchOp[] = [];
  const notes: string[] = [];
  const rebased: RebasedOp[] = [];
  const placed = new Set<number>();
  const views: {
    from: number;
    to: number;
    d: number;
    layer: (n: number) => number | undefined;
  }[] = [];
  const read = memory.read32
    ? (n: number) => memory.read32!(n)
    : (n: number) => memory.hash32(n);
  let placeRead: Place | undefined | null = null;
  // A patch built from the read a refusal has since overlaid is placed by
  // the record as first read.
  const asRead = (): Place | undefined =>
    placeRead ??= placeRecord(
      now,
      {
        hash32: read,
        lineCount: memory.lineCount,
        entries: memory.readEntries
          ? () => memory.readEntries!()
          : memory.entries
          ? () => memory.entries!()
          : undefined,
      },
      regionLines(ops, { hash32: read }),
      false,
    );
  const layerOf: ((n: number) => number | undefined)[] = [];
  const ends = {
    read: memory.lineCount ?? lastRemembered(memory),
    now: now.lineCount,
  };
  const conflicts: GapConflict[] = [];
  ops.forEach((op, index) => {
    let gap: GapConflict | undefined;
    const onGap = (line: number, at: number, why: string): void => {
      gap = { index, line, at, why };
    };
    let d = place
      ? moveOf(op, memory.hash32.bind(memory), place, ends, onGap)
      : null;
    layerOf[index] = memory.hash32.bind(memory);
    if (d === null && memory.read32 && !fits(op, memory.hash32.bind(memory))) {
      const p = asRead();
      gap = undefined;
      d = p ? moveOf(op, read, p, ends, onGap) : null;
      layerOf[index] = read;
    }
    if (d === null) {
      if (gap) conflicts.push(gap);
      out.push(op);
      return;
    }
    placed.add(index);
    if (d === 0) {
      out.push(op);
      return;
    }
    const [s, e] = regionOf(op)!;
    out.push(shifted(op, d));
    notes.push(`op ${index + 1}: ${movedText([s, e], [s + d, e + d])}`);
    rebased.push({ index, from: [s, e], to: [s + d, e + d] });
    views.push({ from: s + d, to: e + d, d, layer: layerOf[index] });
  });
  const view: ReadMemory = views.length === 0 ? memory : {
    hash32(n) {
      const v = views.find((w) => w.from <= n && n <= w.to);
      return v ? v.layer(n - v.d) : memory.hash32(n);
    },
  };
  return { ops: out, notes, rebased, memory: view, placed, conflicts };
}

/**
 * The refusals of inserts rebase did not move because their gap changed:
 * stale, naming where the anchor line went and what changed beside it, with
 * the lines around the gap now as fresh anchors (they count as read).
 *
 * @param conflicts From {@link rebaseOps}.
 * @param ops The ops of the file, as given to {@link rebaseOps}.
 * @param now The file as it is now.
 * @param options `path` put on each problem; `lean` shows fresh lines as `LINE|content`.
 * @returns One `STALE_ANCHOR` problem per conflict.
 */
export function gapProblems(
  conflicts: readonly GapConflict[],
  ops: PatchOp[],
  now: LineLookup,
  options: { path?: string; lean?: boolean } = {},
): Problem[] {
  const problems: Problem[] = [];
  const exists = existsIn(now);
  for (const c of conflicts) {
    const op = ops[c.index];
    const region = rowOf(op).region;
    if (region !== "after" && region !== "before") continue;
    const a = tryAnchor(anchorsOf(op)[0])!;
    const [from, to] = region === "after"
      ? [c.at - CONTEXT, c.at + 1 + CONTEXT]
      : [c.at - 1 - CONTEXT, c.at + CONTEXT];
    judge(now, [a], opLabel(op, c.index), [{
      code: "STALE_ANCHOR",
      anchor: true,
      line: a.line,
      head:
        `Anchor ${a.line}:${a.hash} is stale: line ${c.line} → ${c.at}, but ${c.why}, so the insert is not relocated`,
      listing: window(exists, now, from, to),
    }], (code, message, line, shown) => {
      problems.push(
        problem(code, options.lean ? leanLines(message) : message, {
          path: options.path,
          line,
          shown,
        }),
      );
    });
  }
  return problems;
}

/** Lines of the file as read (when known) and now. */
interface Ends {
  read: number | undefined;
  now: number;
}

/**
 * How far the alignment moved an op's lines (0: in place), or null when it
 * does not place the whole region one to one onto one run. An insert that
 * moved is placed by its gap, not by its anchor alone: the line across the
 * gap (below `insert_after`, above `insert_before`) must stand unchanged
 * beside the anchor now, moved by as much, or the file's end or start must
 * still bound the gap. A change there touches the place the new lines go,
 * so the insert is a conflict and is refused like a change inside a region.
 */
function moveOf(
  op: PatchOp,
  hash32: (n: number) => number | undefined,
  place: Place,
  ends: Ends,
  onGap: (line: number, at: number, why: string) => void,
): number | null {
  const region = regionOf(op);
  if (!region) return null;
  const [s, e] = region;
  if (!fits(op, hash32)) return null;
  let d: number | null = null;
  for (let n = s; n <= e; n++) {
    if (hash32(n) === undefined) return null;
    const p = place(n);
    if (!p || p.kind !== "placed") return null;
    if (d === null) d = p.at - n;
    else if (p.at - n !== d) return null;
  }
  if (d === null || d === 0) return d;
  const gap = rowOf(op).region;
  if (gap !== "after" && gap !== "before") return d;
  const why = gap === "after"
    ? gapBreak(e, 1, d, hash32, place, ends)
    : gapBreak(s, -1, d, hash32, place, ends);
  if (why === null) return d;
  onGap(s, s + d, why);
  return null;
}

/**
 * What breaks an insert's gap, or null when it holds: the line across the
 * gap from its anchor (`side` 1: the next line, -1: the one before) must
 * have moved by `d` too, unchanged. Past the start of the file as read, the
 * gap must still open the file (it cannot once lines moved); past its end
 * (or, with the line count unknown, past the last line remembered), it must
 * still close the file. A line inside the file the session did not read
 * leaves the gap unknown.
 */
function gapBreak(
  anchor: number,
  side: 1 | -1,
  d: number,
  hash32: (n: number) => number | undefined,
  place: Place,
  ends: Ends,
): string | null {
  const across = anchor + side;
  if (across < 1) {
    return anchor + d === 1
      ? null
      : "lines now stand above it, where the file began";
  }
  if (hash32(across) === undefined) {
    if (side === 1 && ends.read !== undefined && across > ends.read) {
      return anchor + d === ends.now
        ? null
        : "lines now follow it, where the file ended";
    }
    return `line ${across}, on the other side of the insertion point, was never read`;
  }
  const p = place(across);
  if (p?.kind === "placed" && p.at === across + d) return null;
  return `line ${across}, on the other side of the insertion point, ${
    p?.kind === "gone" ? "changed since it was read" : "did not move with it"
  }`;
}

/** The last line of the record, when the read's line count is not kept. */
function lastRemembered(memory: ReadMemory): number | undefined {
  const list = memory.readEntries ?? memory.entries;
  if (!list) return undefined;
  let last: number | undefined;
  for (const [n] of list.call(memory)) last = n;
  return last;
}

/** Whether every anchor of the op agrees with the record (else it was not built from it). */
function fits(op: PatchOp, hash32: (n: number) => number | undefined): boolean {
  for (const text of anchorsOf(op)) {
    const a = tryAnchor(text);
    if (!a) return false;
    const r = hash32(a.line);
    if (r === undefined || hex2(foldHash(r)) !== a.hash) return false;
  }
  return true;
}
