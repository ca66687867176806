/**
 * The alignment (docs/patch-format.md#drift): the session's record of a
 * file (remembered line numbers and full hashes, in order) matched against
 * the file as it is now, to say where each remembered line stands — at one
 * line in every best alignment, at one of several, or nowhere.
 *
 * @module
 */

/** Where a remembered line stands now, by the best alignments. */
export type Placement =
  /** Every best alignment pairs it with line `at`. */
  | { kind: "placed"; at: number }
  /** Best alignments differ: they pair it with these lines (and some maybe with none). */
  | { kind: "ambiguous"; at: number[] }
  /** No best alignment pairs it: it changed or was removed. */
  | { kind: "gone" };

/** Options of {@link alignRecord}. */
export interface AlignOptions {
  /**
   * Most DP cells (rows × band width) one pass may visit; past it the
   * drift is too large to align and every queried line is `gone`.
   * Default 400,000,000.
   */
  maxCells?: number;
}

/** What {@link alignRecord} found. */
export interface Alignment {
  /** Pairs in a best alignment (-1 when the drift was too large to align). */
  pairs: number;
  /** The placement of each queried remembered line. */
  placements: Map<number, Placement>;
}

const NONE = -1;

/**
 * Aligns a file's record with the file now: pairs remembered lines with
 * lines now of the same full hash, both in increasing order, and keeps the
 * alignments with the most pairs. A queried line is `placed` at n when every
 * best alignment pairs it with n, `ambiguous` when best alignments differ
 * about it, and `gone` when none pairs it. Lines never remembered take no
 * part (and are not answered). The work is a banded dynamic programme over
 * the two hash sequences, forwards and backwards, whose band grows with the
 * drift: O((R + N) · D) for R remembered lines, N lines now and D lines
 * inserted or removed, with one row kept per queried line.
 *
 * @param lines Remembered line numbers, strictly increasing.
 * @param hashes Their full hashes (`hashes[i]` is line `lines[i]`'s).
 * @param now Full hashes of the file now (index 0 is line 1).
 * @param query Remembered lines whose placement is wanted.
 * @param options `maxCells`.
 * @returns The size of a best alignment and each queried line's placement.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { alignRecord } from "./align.ts";
 * // Read a, T, b; a copy of T was put directly above it.
 * const out = alignRecord([1, 2, 3], [1, 7, 2], [1, 7, 7, 2], [1, 2]);
 * assert.deepEqual(out.placements.get(1), { kind: "placed", at: 1 });
 * assert.deepEqual(out.placements.get(2), { kind: "ambiguous", at: [2, 3] });
 * ```
 */
export function alignRecord(
  lines: ArrayLike<number>,
  hashes: ArrayLike<number>,
  now: ArrayLike<number>,
  query: Iterable<number>,
  options: AlignOptions = {},
): Alignment {
  const maxCells = options.maxCells ?? 400_000_000;
  const placements = new Map<number, Placement>();
  const wanted = new Set<number>();
  const rowOfLine = new Map<number, number>();

  // Lines that can never pair take no part: dropping them changes no
  // alignment, and keeps the band narrow after a read of part of a file.
  const inNow = new Set<number>();
  for (let j = 0; j < now.length; j++) inNow.add(now[j] >>> 0);
  const inRecord = new Set<number>();
  const aHash: number[] = [];
  const aLine: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const h = hashes[i] >>> 0;
    if (!inNow.has(h)) continue;
    inRecord.add(h);
    aHash.push(h);
    aLine.push(lines[i]);
    rowOfLine.set(lines[i], aHash.length);
  }
  const bHash: number[] = [];
  const bLine: number[] = [];
  for (let j = 0; j < now.length; j++) {
    const h = now[j] >>> 0;
    if (!inRecord.has(h)) continue;
    bHash.push(h);
    bLine.push(j + 1);
  }
  const known = new Set<number>();
  for (let i = 0; i < lines.length; i++) known.add(lines[i]);
  for (const n of query) {
    if (!known.has(n)) continue;
    if (rowOfLine.has(n)) wanted.add(rowOfLine.get(n)!);
    else placements.set(n, { kind: "gone" });
  }

  const R = aHash.length;
  const N = bHash.length;
  const lo0 = Math.min(0, N - R);
  const hi0 = Math.max(0, N - R);
  let x = 8;
  for (;;) {
    const kLo = lo0 - x;
    const kHi = hi0 + x;
    const width = kHi - kLo + 1;
    if ((R + 1) * width > maxCells || wanted.size * width > maxCells / 8) {
      for (const i of wanted) placements.set(aLine[i - 1], { kind: "gone" });
      return { pairs: -1, placements };
    }
    const pass = forward(aHash, bHash, kLo, kHi, wanted);
    const L = pass.total;
    const need = Math.max((R - L) + lo0, (N - L) - hi0, 0);
    if (need > x) {
      x = Math.max(need, x * 2);
      continue;
    }
    backward(aHash, bHash, kLo, kHi, wanted, pass.rows, L, (i, at) => {
      placements.set(aLine[i - 1], toPlacement(at, bLine));
    });
    return { pairs: L, placements };
  }
}

function toPlacement(at: number[], bLine: number[]): Placement {
  if (at.length === 1 && at[0] !== NONE) {
    return { kind: "placed", at: bLine[at[0] - 1] };
  }
  const lines = at.filter((j) => j !== NONE).map((j) => bLine[j - 1]);
  return lines.length === 0
    ? { kind: "gone" }
    : { kind: "ambiguous", at: lines.sort((p, q) => p - q) };
}

/**
 * LCS lengths F[i][j] (prefixes A[1..i], B[1..j]) for j - i in [kLo, kHi];
 * -1 marks a cell outside the file. Keeps row i - 1 of each wanted row i.
 */
function forward(
  a: number[],
  b: number[],
  kLo: number,
  kHi: number,
  wanted: Set<number>,
): { total: number; rows: Map<number, Int32Array> } {
  const R = a.length;
  const N = b.length;
  const width = kHi - kLo + 1;
  let prev = new Int32Array(width).fill(-1);
  let cur = new Int32Array(width).fill(-1);
  // Row 0: F[0][j] = 0 for 0 <= j <= N.
  for (let k = Math.max(kLo, 0); k <= Math.min(kHi, N); k++) prev[k - kLo] = 0;
  const rows = new Map<number, Int32Array>();
  if (wanted.has(1)) rows.set(1, prev.slice());
  for (let i = 1; i <= R; i++) {
    cur.fill(-1);
    const ai = a[i - 1];
    const jFrom = Math.max(0, i + kLo);
    const jTo = Math.min(N, i + kHi);
    for (let j = jFrom; j <= jTo; j++) {
      const c = j - i - kLo;
      let best = -1;
      if (j === 0) best = 0;
      else {
        // Diagonal: (i-1, j-1), same band column.
        const d = prev[c];
        if (d >= 0) best = d + (ai === b[j - 1] ? 1 : 0);
        // Left: (i, j-1), column c - 1.
        if (c > 0) {
          const l = cur[c - 1];
          if (l > best) best = l;
        }
      }
      // Up: (i-1, j), column c + 1.
      if (c + 1 < width) {
        const u = prev[c + 1];
        if (u > best) best = u;
      }
      cur[c] = best;
    }
    if (wanted.has(i + 1)) rows.set(i + 1, cur.slice());
    [prev, cur] = [cur, prev];
  }
  const end = N - R - kLo;
  return { total: end >= 0 && end < width ? prev[end] : 0, rows };
}

/**
 * Suffix LCS lengths G[i][j] (A[i+1..R], B[j+1..N]) in the same band; at
 * each wanted row i, with F[i-1] from the forward pass, lists every partner
 * of A[i] on a best alignment (NONE when some best alignment leaves it
 * unpaired).
 */
function backward(
  a: number[],
  b: number[],
  kLo: number,
  kHi: number,
  wanted: Set<number>,
  rows: Map<number, Int32Array>,
  total: number,
  report: (i: number, at: number[]) => void,
): void {
  if (wanted.size === 0) return;
  const R = a.length;
  const N = b.length;
  const width = kHi - kLo + 1;
  let lowest = R;
  for (const i of wanted) lowest = Math.min(lowest, i);
  const fill = (row: Int32Array, i: number, below: Int32Array | null) => {
    row.fill(-1);
    const jFrom = Math.max(0, i + kLo);
    const jTo = Math.min(N, i + kHi);
    const ai = i < R ? a[i] : 0;
    for (let j = jTo; j >= jFrom; j--) {
      const c = j - i - kLo;
      if (i === R || j === N || below === null) {
        row[c] = 0;
        continue;
      }
      let best = -1;
      const d = below[c];
      if (d >= 0) best = d + (ai === b[j] ? 1 : 0);
      if (c > 0 && below[c - 1] > best) best = below[c - 1];
      if (c + 1 < width && row[c + 1] > best) best = row[c + 1];
      row[c] = best;
    }
  };
  let next = new Int32Array(width);
  let cur = new Int32Array(width);
  fill(next, R, null);
  for (let i = R; i >= lowest; i--) {
    // `next` holds G[i]; A[i]'s partners come from F[i-1] and G[i].
    if (wanted.has(i)) {
      const f = rows.get(i)!;
      const at: number[] = [];
      let skipped = false;
      const jFrom = Math.max(0, i + kLo);
      const jTo = Math.min(N, i + kHi);
      for (let j = jFrom; j <= jTo; j++) {
        const c = j - i - kLo;
        const g = next[c];
        if (g < 0) continue;
        // Crossing row i on the diagonal from (i-1, j-1): column c of F[i-1].
        if (j >= 1 && f[c] >= 0) {
          if (a[i - 1] === b[j - 1]) {
            if (f[c] + 1 + g === total) at.push(j);
          } else if (f[c] + g === total) skipped = true;
        }
        // Crossing row i straight down from (i-1, j): column c + 1 of F[i-1].
        if (c + 1 < width && f[c + 1] >= 0 && f[c + 1] + g === total) {
          skipped = true;
        }
      }
      if (skipped) at.push(NONE);
      report(i, at);
    }
    if (i - 1 >= lowest) {
      fill(cur, i - 1, next);
      [next, cur] = [cur, next];
    }
  }
}
