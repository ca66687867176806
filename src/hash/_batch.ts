/**
 * Reusable output arrays for a scanner's {@link LineBatch}: grown by
 * doubling, never shrunk, so a scanner fed many chunks allocates only while
 * it meets more lines per call than before. Only the arrays asked for are
 * kept (the whole-buffer functions want folds or hashes alone).
 *
 * @module
 */
import type { LineBatch } from "./types.ts";

/** Keep each line's full hash. */
export const KEEP_HASHES = 1;
/** Keep each line's absolute end. */
export const KEEP_ENDS = 2;
/** Keep each line's folded 8-bit anchor. */
export const KEEP_FOLDS = 4;

/**
 * Growable per-line arrays, filled by one push or end call at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchBuffer, KEEP_FOLDS } from "./_batch.ts";
 * const out = new BatchBuffer(2, KEEP_FOLDS);
 * out.reserve(5);
 * assert.ok(out.capacity >= 5);
 * assert.equal(out.hashes.length, 0);
 * ```
 */
export class BatchBuffer {
  /** Full hashes (when kept); the first `count` are this call's lines. */
  hashes: Uint32Array;
  /** Absolute ends (when kept); the first `count` are this call's lines. */
  ends: Float64Array;
  /** Folded anchors (when kept); the first `count` are this call's lines. */
  folds: Uint8Array;
  /** Lines completed by the current call. */
  count = 0;
  /** KEEP_* bits: which arrays are filled. */
  readonly keep: number;
  #capacity: number;

  /**
   * @param capacity Lines of room before the first growth.
   * @param keep KEEP_* bits (hashes and ends by default).
   */
  constructor(capacity = 256, keep: number = KEEP_HASHES | KEEP_ENDS) {
    this.keep = keep;
    this.#capacity = capacity;
    this.hashes = new Uint32Array(keep & KEEP_HASHES ? capacity : 0);
    this.ends = new Float64Array(keep & KEEP_ENDS ? capacity : 0);
    this.folds = new Uint8Array(keep & KEEP_FOLDS ? capacity : 0);
  }

  /** Lines of room before the next growth. */
  get capacity(): number {
    return this.#capacity;
  }

  /**
   * Makes room for `more` lines beyond `count`, keeping the first `count`.
   *
   * @param more Lines about to be added.
   */
  reserve(more: number): void {
    const need = this.count + more;
    if (need <= this.#capacity) return;
    let size = this.#capacity * 2;
    while (size < need) size *= 2;
    const n = this.count;
    if (this.keep & KEEP_HASHES) {
      const hashes = new Uint32Array(size);
      hashes.set(this.hashes.subarray(0, n));
      this.hashes = hashes;
    }
    if (this.keep & KEEP_ENDS) {
      const ends = new Float64Array(size);
      ends.set(this.ends.subarray(0, n));
      this.ends = ends;
    }
    if (this.keep & KEEP_FOLDS) {
      const folds = new Uint8Array(size);
      folds.set(this.folds.subarray(0, n));
      this.folds = folds;
    }
    this.#capacity = size;
  }

  /**
   * The lines gathered by the current call.
   *
   * @returns A batch over these arrays (valid until they are refilled).
   */
  batch(): LineBatch {
    return { count: this.count, hashes: this.hashes, ends: this.ends };
  }
}
