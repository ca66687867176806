/**
 * The byte-level line scanner shared by the Wasm engine and its TypeScript
 * twin. Both engines give identical answers for every input.
 *
 * @module
 */

/** Which engine does the byte-level work. */
export type HashEngine = "wasm" | "ts";

/** Lines completed by one call to {@link LineScanner.push} or {@link LineScanner.end}. */
export interface LineBatch {
  /** Number of lines completed by this call. */
  readonly count: number;
  /**
   * Full 32-bit anchor hash of each completed line (length ≥ `count`; read
   * the first `count`). Valid until the next call on the scanner.
   */
  readonly hashes: Uint32Array;
  /**
   * Absolute byte offset just past each completed line's terminator (for an
   * unterminated last line: the end of input). Line k starts where line k-1
   * ended (the first line starts after the BOM, if any). Valid until the next
   * call on the scanner.
   */
  readonly ends: Float64Array;
}

/**
 * Streams UTF-8 bytes in chunks of any size and reports every line: a line
 * may span chunks, a code point may be split between chunks. Memory stays
 * bounded whatever the total size.
 */
export interface LineScanner {
  /** The engine doing the work. */
  readonly engine: HashEngine;
  /** Scans the next chunk. */
  push(chunk: Uint8Array): LineBatch;
  /** Ends the input, closing an unterminated last line; the scanner is then spent. */
  end(): LineBatch;
  /** Absolute offset of the first byte of the first ill-formed UTF-8 sequence, or -1. */
  readonly invalidAt: number;
  /** Absolute offset of the first NUL byte, or -1. */
  readonly nulAt: number;
  /** True when the input started with a UTF-8 BOM (EF BB BF), which is not part of line 1. */
  readonly hasBom: boolean;
  /** Total bytes pushed so far. */
  readonly bytesSeen: number;
  /** Lines completed so far. */
  readonly linesSeen: number;
}
