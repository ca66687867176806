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
import { type Place, placeRecord, regionLines } from "./_drift.ts";
import type { Placement } from "./align.ts";

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
  /** Indexes of the ops the alignment placed (moved or not): validation does not place them again. */
  placed: Set<number>;
}

/** Options of {@link rebaseOps}. */
export interface RebaseOptions {
  /** The alignment's placements, when already made (else made here). */
  place?: (line: number) => Placement | undefined;
  /** Whether the file is known unchanged since the record was made. */
  unchanged?: boolean;
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
 * Re-addresses ops whose lines moved, by the drift alignment
 * (docs/patch-format.md#drift): an op moves when every line of its region
 * (an insert's: its anchor line) is a remembered line and the alignment
 * places them all, one to one and in order, onto one contiguous run of
 * unchanged lines now, at another place than they were read. Everything
 * else — a changed line inside the region, an ambiguous placement (a copy
 * of its lines directly above or below), a line of the region the session
 * never read, an anchor that disagrees with the record — is left as it is,
 * for validation to refuse as usual. Append and prepend never move. The
 * returned ops still go through `validateOps` (with the returned memory).
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
  ops.forEach((op, index) => {
    let d = place ? moveOf(op, memory.hash32.bind(memory), place) : null;
    layerOf[index] = memory.hash32.bind(memory);
    if (d === null && memory.read32 && !fits(op, memory.hash32.bind(memory))) {
      const p = asRead();
      d = p ? moveOf(op, read, p) : null;
      layerOf[index] = read;
    }
    if (d === null) {
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
    notes.push(
      `op ${index + 1}: ${span(s, e)} → ${
        s === e ? s + d : `${s + d}–${e + d}`
      }`,
    );
    rebased.push({ index, from: [s, e], to: [s + d, e + d] });
    views.push({ from: s + d, to: e + d, d, layer: layerOf[index] });
  });
  const view: ReadMemory = views.length === 0 ? memory : {
    hash32(n) {
      const v = views.find((w) => w.from <= n && n <= w.to);
      return v ? v.layer(n - v.d) : memory.hash32(n);
    },
  };
  return { ops: out, notes, rebased, memory: view, placed };
}

/**
 * How far the alignment moved an op's lines (0: in place), or null when it
 * does not place the whole region one to one onto one run.
 */
function moveOf(
  op: PatchOp,
  hash32: (n: number) => number | undefined,
  place: Place,
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
  return d;
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
