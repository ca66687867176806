/**
 * Test helpers: run a whole input through a scanner of either engine, cut
 * into chunks at chosen offsets, and gather everything it reports.
 */
import { createLineScanner, type HashEngine } from "../../src/hash/mod.ts";

/** Everything a scanner reported for one input. */
export interface Scan {
  hashes: number[];
  ends: number[];
  invalidAt: number;
  nulAt: number;
  hasBom: boolean;
  linesSeen: number;
  bytesSeen: number;
}

export const ENGINES: HashEngine[] = ["wasm", "ts"];

/** Scans `bytes`, pushing the pieces between `cuts` (sorted offsets) one by one. */
export function scanChunked(
  engine: HashEngine,
  bytes: Uint8Array,
  cuts: number[] = [],
  hash = true,
): Scan {
  const scanner = createLineScanner({ engine, hash });
  const hashes: number[] = [];
  const ends: number[] = [];
  const take = (
    batch: { count: number; hashes: Uint32Array; ends: Float64Array },
  ) => {
    for (let i = 0; i < batch.count; i++) {
      hashes.push(batch.hashes[i]);
      ends.push(batch.ends[i]);
    }
  };
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    take(scanner.push(bytes.subarray(at, cut)));
    at = cut;
  }
  take(scanner.end());
  return {
    hashes: hash ? hashes : [],
    ends,
    invalidAt: scanner.invalidAt,
    nulAt: scanner.nulAt,
    hasBom: scanner.hasBom,
    linesSeen: scanner.linesSeen,
    bytesSeen: scanner.bytesSeen,
  };
}

/** Offsets that cut `length` bytes into pieces of `size`. */
export function everyN(length: number, size: number): number[] {
  const cuts: number[] = [];
  for (let at = size; at < length; at += size) cuts.push(at);
  return cuts;
}

/** Deterministic pseudo-random cut offsets (a small xorshift). */
export function randomCuts(
  length: number,
  seed: number,
  maxPiece = 7,
): number[] {
  let state = seed | 1;
  const cuts: number[] = [];
  let at = 0;
  for (;;) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    at += 1 + ((state >>> 0) % maxPiece);
    if (at >= length) return cuts;
    cuts.push(at);
  }
}

/** The chunkings every input is tried with. */
export function chunkings(length: number): [string, number[]][] {
  return [
    ["whole", []],
    ["1-byte chunks", everyN(length, 1)],
    ["3-byte chunks", everyN(length, 3)],
    ["random chunks", randomCuts(length, 0x5eed + length)],
  ];
}
