/**
 * Staging arrays shared by the whole-buffer functions (hashLines and
 * friends). Results are gathered here, then copied once into an array of the
 * exact size: on hosts where the first touch of fresh memory is slow, that
 * touches fresh pages once instead of once per growth step. Kept between
 * calls unless a call made them very large.
 *
 * @module
 */
import { BatchBuffer } from "./_batch.ts";

/** Staging beyond this many lines is dropped after the call. */
const RETAIN_LINES = 1 << 22;

let batch: BatchBuffer | null = null;
let folds = new Uint8Array(0);

/** The shared line buffer, emptied. */
export function stagedBatch(): BatchBuffer {
  batch ??= new BatchBuffer(1 << 12);
  batch.count = 0;
  return batch;
}

/**
 * A fold buffer of at least `need` bytes whose first `keep` bytes are those
 * of the previous buffer.
 */
export function stagedFolds(keep: number, need: number): Uint8Array {
  if (need > folds.length) {
    let size = Math.max(1 << 16, folds.length * 2);
    while (size < need) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(folds.subarray(0, keep));
    folds = grown;
  }
  return folds;
}

/** Lets go of staging that grew past the retained size. */
export function trimStages(): void {
  if (batch !== null && batch.hashes.length > RETAIN_LINES) batch = null;
  if (folds.length > RETAIN_LINES * 4) folds = new Uint8Array(0);
}
