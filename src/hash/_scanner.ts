/**
 * What both line scanners share: the bookkeeping of one input (bytes and
 * lines seen, the first ill-formed sequence and NUL, the BOM) and the
 * push/end protocol, so the TypeScript twin and the Wasm engine differ only
 * in how they scan a piece of input (`scan_ts.ts`, `wasm.ts`).
 *
 * @module
 */
import type { BatchBuffer } from "./_batch.ts";
import type { HashEngine, LineBatch, LineScanner } from "./types.ts";

/** A {@link LineScanner} less the scan itself, which each engine supplies. */
export abstract class ScannerBase implements LineScanner {
  /** The engine doing the work. */
  abstract readonly engine: HashEngine;
  /** Total bytes scanned so far. */
  protected seen = 0;
  /** Lines completed so far. */
  protected lines = 0;
  /** Absolute offset of the first ill-formed UTF-8 sequence, or -1. */
  protected invalid = -1;
  /** Absolute offset of the first NUL byte, or -1. */
  protected nul = -1;
  /** Whether the input began with a UTF-8 BOM. */
  protected bom = false;
  /** Where batches are gathered. */
  protected readonly out: BatchBuffer;
  #spent = false;

  /** @param out Where batches are gathered. */
  constructor(out: BatchBuffer) {
    this.out = out;
  }

  /** Absolute offset of the first byte of the first ill-formed UTF-8 sequence, or -1. */
  get invalidAt(): number {
    return this.invalid;
  }

  /** Absolute offset of the first NUL byte, or -1. */
  get nulAt(): number {
    return this.nul;
  }

  /** True when the input began with a UTF-8 BOM. */
  get hasBom(): boolean {
    return this.bom;
  }

  /** Total bytes pushed so far. */
  get bytesSeen(): number {
    return this.seen;
  }

  /** Lines completed so far. */
  get linesSeen(): number {
    return this.lines;
  }

  /**
   * Scans the next chunk.
   *
   * @param chunk UTF-8 bytes; a line or a code point may continue in the next chunk.
   * @returns The lines this chunk completed.
   * @throws {TypeError} After {@link ScannerBase.end}.
   */
  push(chunk: Uint8Array): LineBatch {
    this.#checkLive();
    this.out.count = 0;
    this.scan(chunk, false);
    return this.out.batch();
  }

  /**
   * Ends the input: an unfinished sequence is ill-formed, a trailing CR is
   * content, and an unterminated last line is completed.
   *
   * @param last A final chunk to scan first (saves a separate push).
   * @returns The lines completed by `last` and the end of input.
   * @throws {TypeError} When called twice.
   */
  end(last: Uint8Array = new Uint8Array(0)): LineBatch {
    this.#checkLive();
    this.out.count = 0;
    this.scan(last, true);
    this.#spent = true;
    this.ended();
    return this.out.batch();
  }

  /**
   * Scans `bytes`, adding the lines they complete to {@link out}; with
   * `final`, the end of input follows them.
   */
  protected abstract scan(bytes: Uint8Array, final: boolean): void;

  /** Runs once the input has ended (an engine lets go of what it held). */
  protected ended(): void {}

  #checkLive(): void {
    if (this.#spent) {
      throw new TypeError(
        "Cannot scan more bytes: this line scanner was ended; create a new one for the next input.",
      );
    }
  }
}
