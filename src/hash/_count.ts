/**
 * Counting the lines of a long stretch of a file without hashing them, as a
 * read of one window of a huge file does for the rest of the file: how many
 * lines there are, whether every byte is well-formed UTF-8, and where every
 * `every`-th line starts (the checkpoints of a sparse line index).
 *
 * The Wasm counter works on its instance's input buffer directly, so a file
 * can be read straight into it with no copy; the TypeScript twin runs the
 * twin line scanner and gives the same answers.
 *
 * @module
 */
import { BatchBuffer, KEEP_ENDS } from "./_batch.ts";
import { TsLineScanner } from "./scan_ts.ts";
import type { HashEngine, LineBatch } from "./types.ts";
import { NONE_I32 as NONE, requireEngine, type WasmEngine } from "./wasm.ts";

/**
 * Counts the lines of a stretch of input that starts at the start of a line
 * (offset 0, just past a BOM, or just past a line feed). Fill `buffer` from index 0 and call `count`
 * straight away (nothing else may run on the engine in between), then
 * `end` once.
 */
export interface LineCounter {
  /** Where the next bytes go (reused by every call). */
  readonly buffer: Uint8Array;
  /** Counts the first `n` bytes of `buffer`. */
  count(n: number): void;
  /** Ends the input: an unterminated last line counts. */
  end(): void;
  /** Lines so far, those before the stretch included. */
  readonly lines: number;
  /** Absolute offset of the first ill-formed UTF-8 sequence, or -1. */
  readonly invalidAt: number;
  /** Absolute offset just past line `k * every`, for each such line counted. */
  readonly checkpoints: number[];
}

/**
 * Creates a counter for the stretch starting at absolute offset `start`.
 *
 * @param engine Which engine counts.
 * @param start Absolute offset of the stretch, where a line starts.
 * @param linesBefore Lines that end before `start`.
 * @param every Distance between checkpoints, in lines.
 * @returns A fresh counter.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLineCounter } from "./_count.ts";
 * for (const engine of ["wasm", "ts"] as const) {
 *   const counter = createLineCounter(engine, 10, 4, 2);
 *   const bytes = new TextEncoder().encode("e\nf\ng");
 *   counter.buffer.set(bytes);
 *   counter.count(bytes.length);
 *   counter.end();
 *   assert.equal(counter.lines, 7);
 *   assert.deepEqual(counter.checkpoints, [14]);
 * }
 * ```
 */
export function createLineCounter(
  engine: HashEngine,
  start: number,
  linesBefore: number,
  every: number,
): LineCounter {
  if (!(start >= 0) || !Number.isSafeInteger(start)) {
    throw new RangeError("A line count must start at a byte offset.");
  }
  if (!(every >= 1) || !Number.isSafeInteger(every)) {
    throw new RangeError("Checkpoints must be a whole number of lines apart.");
  }
  return engine === "wasm"
    ? new WasmLineCounter(start, linesBefore, every)
    : new TsLineCounter(start, linesBefore, every);
}

class WasmLineCounter implements LineCounter {
  readonly buffer: Uint8Array;
  readonly checkpoints: number[] = [];
  lines: number;
  invalidAt = -1;
  #engine: WasmEngine;
  #counts: Int32Array;
  #checks: Int32Array;
  #every: number;
  #until: number;
  #pos: number;
  #held = 0;
  #carry = new Uint8Array(4);
  #open = false;
  #spent = false;

  constructor(start: number, linesBefore: number, every: number) {
    const engine = requireEngine();
    const { exports, bytes, input, capacity } = engine;
    this.#engine = engine;
    this.buffer = bytes.subarray(input, input + capacity);
    this.#counts = new Int32Array(bytes.buffer, exports.countsPtr(), 5);
    this.#checks = new Int32Array(bytes.buffer, exports.checksPtr(), capacity);
    this.lines = linesBefore;
    this.#every = every;
    this.#until = every - (linesBefore % every);
    this.#pos = start;
  }

  count(n: number): void {
    this.#run(n, false);
  }

  end(): void {
    this.#run(0, true);
    this.#spent = true;
    if (this.#open) {
      this.lines++;
      if (this.lines % this.#every === 0) this.checkpoints.push(this.#pos);
    }
  }

  #run(n: number, final: boolean): void {
    if (this.#spent) throw new TypeError("This line counter was ended.");
    const { bytes, input, exports } = this.#engine;
    const held = this.#held;
    bytes.set(this.#carry.subarray(0, held), input - held);
    const decided = exports.countLines(
      held,
      n,
      final ? 1 : 0,
      this.#until,
      this.#every,
    );
    const counts = this.#counts;
    const base = this.#pos;
    this.lines += counts[0];
    if (counts[1] !== NONE && this.invalidAt < 0) {
      this.invalidAt = base + counts[1];
    }
    for (let k = 0; k < counts[2]; k++) {
      this.checkpoints.push(base + this.#checks[k]);
    }
    this.#until = counts[3];
    const decidedEnd = decided - held;
    if (counts[4] !== NONE) this.#open = decidedEnd > counts[4];
    else if (decided > 0) this.#open = true;
    this.#held = held + n - decided;
    this.#carry.set(bytes.subarray(input + n - this.#held, input + n));
    this.#pos = base + n;
  }
}

class TsLineCounter implements LineCounter {
  readonly buffer: Uint8Array;
  readonly checkpoints: number[] = [];
  lines: number;
  #scanner = new TsLineScanner(false, new BatchBuffer(256, KEEP_ENDS));
  #every: number;
  #shift: number;

  constructor(start: number, linesBefore: number, every: number) {
    this.buffer = new Uint8Array(1 << 20);
    this.lines = linesBefore;
    this.#every = every;
    // A leading line feed keeps the scanner from taking the first bytes
    // for a BOM; it ends one line of its own, which is not counted.
    this.#shift = start - 1;
    this.#scanner.push(new Uint8Array([10]));
  }

  get invalidAt(): number {
    const at = this.#scanner.invalidAt;
    return at < 0 ? -1 : at + this.#shift;
  }

  count(n: number): void {
    this.#take(this.#scanner.push(this.buffer.subarray(0, n)));
  }

  end(): void {
    this.#take(this.#scanner.end());
  }

  #take(batch: LineBatch): void {
    for (let i = 0; i < batch.count; i++) {
      if (++this.lines % this.#every === 0) {
        this.checkpoints.push(batch.ends[i] + this.#shift);
      }
    }
  }
}
