/**
 * The drift alignment as the rules ask for it (docs/patch-format.md#drift):
 * where each remembered line of an op's region stands in the file now.
 *
 * @module
 */
import { alignRecord, type Placement } from "./align.ts";
import { regionOf } from "./lookup.ts";
import { acrossGap } from "./ops.ts";
import type { LineLookup, PatchOp, ReadMemory } from "./types.ts";

/** Where remembered line n stands now; undefined when it was never remembered. */
export type Place = (line: number) => Placement | undefined;

/** Most lines one op's region asks the alignment about. */
const MAX_QUERY = 20_000;

/** The remembered lines of every op's region (an insert's: its anchor line and the line across its gap). */
export function regionLines(ops: PatchOp[], memory: ReadMemory): number[] {
  const out = new Set<number>();
  for (const op of ops) {
    const region = regionOf(op);
    if (!region) continue;
    const [s, e] = region;
    for (let n = s; n <= Math.min(e, s + MAX_QUERY); n++) {
      if (memory.hash32(n) !== undefined) out.add(n);
    }
    // An insert's gap has a line on its other side too (rebase places both).
    const across = acrossGap(op, s, e);
    if (across >= 1 && memory.hash32(across) !== undefined) out.add(across);
  }
  return [...out].sort((a, b) => a - b);
}

function recordOf(
  memory: ReadMemory,
  bound: number,
): { lines: number[]; hashes: number[] } {
  const lines: number[] = [];
  const hashes: number[] = [];
  if (memory.entries) {
    for (const [n, h] of memory.entries()) lines.push(n), hashes.push(h);
  } else {
    const last = memory.lineCount ?? bound;
    for (let n = 1; n <= last; n++) {
      const h = memory.hash32(n);
      if (h !== undefined) lines.push(n), hashes.push(h);
    }
  }
  return { lines, hashes };
}

/**
 * Places the queried remembered lines in the file now. A file unchanged
 * since the session's last read or commit (`unchanged`), or whose every
 * line is remembered as it stands, places each line at its own number; a
 * lookup that cannot list every line's hash gives no placement (each line is
 * then judged where it was addressed).
 *
 * @param now The file as it is now.
 * @param memory The session's record of the file.
 * @param query Remembered lines to place.
 * @param unchanged Whether the file is known unchanged since the record was made.
 * @returns The placement of each queried line, or undefined.
 */
export function placeRecord(
  now: LineLookup,
  memory: ReadMemory,
  query: number[],
  unchanged: boolean,
): Place | undefined {
  if (query.length === 0) return undefined;
  const own: Place = (n) =>
    memory.hash32(n) === undefined ? undefined : { kind: "placed", at: n };
  if (unchanged) return own;
  if (!now.allHashes) return undefined;
  const hashesNow = now.allHashes();
  const record = recordOf(
    memory,
    Math.max(hashesNow.length, query[query.length - 1]) * 2 + 16,
  );
  if (
    record.lines.length === hashesNow.length &&
    record.lines.every((n, i) =>
      n === i + 1 && record.hashes[i] === hashesNow[i]
    )
  ) return own;
  // Each queried line with a few remembered neighbours either side, which
  // settle a tie that a changed neighbour of the same text leaves.
  const index = new Map<number, number>();
  record.lines.forEach((n, i) => index.set(n, i));
  const asked = new Set<number>();
  for (const n of query) {
    const i = index.get(n);
    if (i === undefined) continue;
    for (
      let k = Math.max(0, i - NEIGHBOURS);
      k <= Math.min(record.lines.length - 1, i + NEIGHBOURS);
      k++
    ) asked.add(record.lines[k]);
  }
  const wanted = [...asked].sort((a, b) => a - b);
  let { placements, pairs } = alignRecord(
    record.lines,
    record.hashes,
    hashesNow,
    wanted,
  );
  if (pairs < 0 && wanted.length > 0) {
    // Too much of a large file differs from the record to align it whole
    // (such as a read of part of it, then far-away changes): align the
    // stretch around the ops instead.
    const lo = wanted[0] - CROP;
    const hi = wanted[wanted.length - 1] + CROP;
    const from = Math.max(1, lo - CROP);
    const to = Math.min(hashesNow.length, hi + CROP);
    const keep = record.lines.flatMap((n, i) => n >= lo && n <= hi ? [i] : []);
    const local = alignRecord(
      keep.map((i) => record.lines[i]),
      keep.map((i) => record.hashes[i]),
      Array.prototype.slice.call(hashesNow, from - 1, to) as number[],
      wanted,
    );
    placements = new Map(
      [...local.placements].map(([n, p]) => [
        n,
        p.kind === "placed"
          ? { kind: "placed", at: p.at + from - 1 }
          : p.kind === "ambiguous"
          ? { kind: "ambiguous", at: p.at.map((m) => m + from - 1) }
          : p,
      ]),
    );
  }
  return (n) => {
    const p = placements.get(n);
    const i = index.get(n);
    if (p?.kind !== "ambiguous" || p.at.length !== 1 || i === undefined) {
      return p;
    }
    // Best alignments either pair it with line m or leave it unpaired (a
    // neighbour of the same text was changed, and could be either): it is
    // placed at m when the nearest placed lines on both sides moved by as
    // much as it would.
    const shift = p.at[0] - n;
    const agrees = (step: number): boolean => {
      for (let k = 1; k <= NEIGHBOURS; k++) {
        const j = i + step * k;
        if (j < 0 || j >= record.lines.length) return false;
        const q = placements.get(record.lines[j]);
        if (q?.kind === "placed") return q.at - record.lines[j] === shift;
      }
      return false;
    };
    return agrees(-1) && agrees(1) ? { kind: "placed", at: p.at[0] } : p;
  };
}

/** Lines either side of the ops aligned when the whole file is too large to align. */
const CROP = 2000;

/** Remembered lines either side of a queried one that the alignment also places. */
const NEIGHBOURS = 4;

/** Says where a placement puts a line: `15`, `12 or 13`, or that it is gone. */
export function whereText(p: Placement): string {
  if (p.kind === "placed") return `${p.at}`;
  if (p.kind === "gone") return "no line: it changed or was removed";
  const at = p.at.length > 4 ? [...p.at.slice(0, 4), "…"] : p.at;
  return `${at.slice(0, -1).join(", ")} or ${at[at.length - 1]}`;
}
