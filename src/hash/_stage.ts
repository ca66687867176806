/**
 * Staging buffers shared by the whole-buffer functions (hashLines and
 * friends). Results are gathered here, then copied once into an array of the
 * exact size: on hosts where the first touch of fresh memory is slow, that
 * touches fresh pages once instead of once per growth step. Kept between
 * calls unless a call made them very large.
 *
 * @module
 */
import { BatchBuffer, KEEP_FOLDS } from "./_batch.ts";

/** Staging past this many bytes is dropped after the call. */
const RETAIN_BYTES = 32 << 20;

const staged = new Map<number, BatchBuffer>();

/**
 * The shared buffer keeping `keep` (KEEP_* bits), emptied.
 *
 * @param keep Which per-line arrays the caller wants.
 * @returns A buffer with `count` 0, reused by the next caller.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KEEP_HASHES } from "./_batch.ts";
 * import { stagedBatch } from "./_stage.ts";
 * assert.equal(stagedBatch(KEEP_HASHES), stagedBatch(KEEP_HASHES));
 * ```
 */
export function stagedBatch(keep: number): BatchBuffer {
  let batch = staged.get(keep);
  if (batch === undefined) {
    batch = new BatchBuffer(1 << 12, keep);
    staged.set(keep, batch);
  }
  batch.count = 0;
  return batch;
}

/**
 * Lets go of staging that grew past the retained size.
 *
 * @example
 * ```ts
 * import { trimStages } from "./_stage.ts";
 * trimStages();
 * ```
 */
export function trimStages(): void {
  for (const [keep, batch] of staged) {
    const perLine = (keep & KEEP_FOLDS ? 1 : 0) +
      batch.hashes.BYTES_PER_ELEMENT *
        (batch.hashes.length ? 1 : 0) +
      (batch.ends.length ? 8 : 0);
    if (batch.capacity * perLine > RETAIN_BYTES) staged.delete(keep);
  }
}
