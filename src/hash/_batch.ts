/**
 * Reusable output arrays for a scanner's {@link LineBatch}: grown by
 * doubling, never shrunk, so a scanner fed many chunks allocates only while
 * it meets more lines per call than before.
 *
 * @module
 */
import type { LineBatch } from "./types.ts";

/** Growable hashes and ends, filled by one push or end call at a time. */
export class BatchBuffer {
  /** Full hashes; the first `count` are this call's lines. */
  hashes: Uint32Array;
  /** Absolute ends; the first `count` are this call's lines. */
  ends: Float64Array;
  /** Lines completed by the current call. */
  count = 0;

  /** @param capacity Lines room for before the first growth. */
  constructor(capacity = 256) {
    this.hashes = new Uint32Array(capacity);
    this.ends = new Float64Array(capacity);
  }

  /** Makes room for `more` lines beyond `count`. */
  reserve(more: number): void {
    const need = this.count + more;
    if (need <= this.hashes.length) return;
    let size = this.hashes.length * 2;
    while (size < need) size *= 2;
    const hashes = new Uint32Array(size);
    hashes.set(this.hashes.subarray(0, this.count));
    const ends = new Float64Array(size);
    ends.set(this.ends.subarray(0, this.count));
    this.hashes = hashes;
    this.ends = ends;
  }

  /** The lines gathered by the current call. */
  batch(): LineBatch {
    return { count: this.count, hashes: this.hashes, ends: this.ends };
  }
}
