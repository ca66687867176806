/**
 * Line anchors: the FNV-1a/32 hash of every line of UTF-8 content, folded
 * to two hex digits for reads (`LINE:HH|content`) and kept whole where the
 * toolkit remembers a read.
 *
 * The byte-level work runs in WebAssembly (SIMD newline scan, sixteen lines
 * hashed side by side); a pure TypeScript twin gives the same answers where
 * Wasm is not allowed, or when `HASHLINE_ENGINE=ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashLines, hex2, lineHash } from "./mod.ts";
 * const anchors = hashLines(new TextEncoder().encode("def greet(name):\n"));
 * assert.equal(hex2(anchors[0]), lineHash("def greet(name):"));
 * ```
 *
 * @module
 */
import { getEnv } from "../_runtime/config.ts";
import { BinaryContentError } from "../errors.ts";
import {
  type BatchBuffer,
  KEEP_ENDS,
  KEEP_FOLDS,
  KEEP_HASHES,
} from "./_batch.ts";
import { stagedBatch, trimStages } from "./_stage.ts";
import { TsLineScanner } from "./scan_ts.ts";
import type { HashEngine, LineScanner } from "./types.ts";
import { wasmEngine, wasmHashAll, WasmLineScanner } from "./wasm.ts";

export { foldHash, hex2, lineHash, lineHash32 } from "./fnv.ts";
export type { HashEngine, LineBatch, LineScanner } from "./types.ts";

/** Options of {@link createLineScanner}. */
export interface LineScannerOptions {
  /** Which engine scans; defaults to {@link hashEngine}(). */
  engine?: HashEngine;
  /**
   * When false, only line ends, the BOM, NUL bytes and UTF-8 validity are
   * tracked and hashes are not computed (their values are unspecified):
   * the fast way to count lines.
   */
  hash?: boolean;
}

/** Options of {@link hashLines}, {@link hashLines32} and {@link scanLines}. */
export interface ScanLinesOptions {
  /** Which engine scans; defaults to {@link hashEngine}(). */
  engine?: HashEngine;
}

/** Every line of a whole buffer, as {@link scanLines} reports it. */
export interface ScannedLines {
  /** Full 32-bit anchor hash of each line. */
  hashes: Uint32Array;
  /** Byte offset just past each line's terminator (the end of input for an unterminated last line). */
  ends: Float64Array;
  /** Offset of the first byte of the first ill-formed UTF-8 sequence, or -1. */
  invalidAt: number;
  /** Offset of the first NUL byte, or -1. */
  nulAt: number;
  /** True when the content starts with a UTF-8 BOM (not part of line 1). */
  hasBom: boolean;
}

let chosen: HashEngine | undefined;

/**
 * The engine {@link hashLines} uses: `"wasm"`, or `"ts"` when the
 * environment variable `HASHLINE_ENGINE` is `ts` or this runtime refuses to
 * compile the Wasm module. Decided once, on first use.
 *
 * @returns `"wasm"` or `"ts"`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashEngine } from "./mod.ts";
 * assert.ok(["wasm", "ts"].includes(hashEngine()));
 * ```
 */
export function hashEngine(): HashEngine {
  if (chosen === undefined) {
    const wanted = getEnv("HASHLINE_ENGINE")?.trim().toLowerCase();
    chosen = wanted !== "ts" && wasmEngine() !== null ? "wasm" : "ts";
  }
  return chosen;
}

function pickEngine(engine: unknown, caller: string): HashEngine {
  if (engine === undefined) return hashEngine();
  if (engine === "wasm" || engine === "ts") return engine;
  throw new TypeError(
    `${caller}: engine must be "wasm" or "ts", got ${JSON.stringify(engine)}.`,
  );
}

function checkBytes(bytes: unknown, caller: string): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  const got = typeof bytes === "string"
    ? "a string"
    : bytes === null
    ? "null"
    : typeof bytes;
  throw new TypeError(
    `${caller} expects a Uint8Array of UTF-8 bytes, got ${got}; encode text with new TextEncoder().encode(text).`,
  );
}

function notText(offset: number): BinaryContentError {
  return new BinaryContentError(
    `Cannot hash content: invalid UTF-8 at byte ${offset}.`,
    offset,
  );
}

/**
 * Creates a streaming line scanner: push UTF-8 bytes in chunks of any size
 * (a line or a code point may span chunks), then call `end()`. Memory stays
 * bounded whatever the total size.
 *
 * @param options `engine` (default {@link hashEngine}()) and `hash` (default true).
 * @returns A fresh scanner for one input.
 * @throws {TypeError} When `engine` is neither `"wasm"` nor `"ts"`.
 * @throws {Error} When `engine: "wasm"` is asked for and this runtime cannot load it.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLineScanner } from "./mod.ts";
 * const scanner = createLineScanner();
 * const bytes = new TextEncoder().encode("one\ntwo\r\nthree");
 * let lines = scanner.push(bytes.subarray(0, 6)).count;
 * lines += scanner.push(bytes.subarray(6)).count;
 * lines += scanner.end().count;
 * assert.equal(lines, 3);
 * assert.equal(scanner.linesSeen, 3);
 * ```
 */
export function createLineScanner(
  options: LineScannerOptions = {},
): LineScanner {
  const engine = pickEngine(options.engine, "createLineScanner");
  const hash = options.hash ?? true;
  return engine === "wasm"
    ? new WasmLineScanner(hash)
    : new TsLineScanner(hash);
}

/**
 * The folded anchor byte of every line of UTF-8 content, in order (a
 * leading BOM is skipped). `hex2(result[i])` is the `HH` of line i + 1.
 *
 * @param bytes UTF-8 content; NUL bytes are hashed like any other.
 * @param options `engine` (default {@link hashEngine}()).
 * @returns One byte per line.
 * @throws {BinaryContentError} When the content is not valid UTF-8 (the message names the byte offset).
 * @throws {TypeError} When `bytes` is not a Uint8Array or `engine` is unknown.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashLines, hex2 } from "./mod.ts";
 * const anchors = hashLines(new TextEncoder().encode("a = 1\r\nb = 2\r\n"));
 * assert.deepEqual([...anchors].map(hex2), ["69", "9f"]);
 * ```
 */
export function hashLines(
  bytes: Uint8Array,
  options: ScanLinesOptions = {},
): Uint8Array {
  checkBytes(bytes, "hashLines");
  const out = stagedBatch(KEEP_FOLDS);
  scanWhole(bytes, pickEngine(options.engine, "hashLines"), out);
  const folds = out.folds.slice(0, out.count);
  trimStages();
  return folds;
}

/**
 * The full 32-bit anchor hash of every line of UTF-8 content, in order (a
 * leading BOM is skipped).
 *
 * @param bytes UTF-8 content.
 * @param options `engine` (default {@link hashEngine}()).
 * @returns One unsigned 32-bit hash per line.
 * @throws {BinaryContentError} When the content is not valid UTF-8 (the message names the byte offset).
 * @throws {TypeError} When `bytes` is not a Uint8Array or `engine` is unknown.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hashLines32, lineHash32 } from "./mod.ts";
 * const hashes = hashLines32(new TextEncoder().encode("λ → α\n😀\n"));
 * assert.deepEqual([...hashes], [lineHash32("λ → α"), lineHash32("😀")]);
 * ```
 */
export function hashLines32(
  bytes: Uint8Array,
  options: ScanLinesOptions = {},
): Uint32Array {
  checkBytes(bytes, "hashLines32");
  const out = stagedBatch(KEEP_HASHES);
  scanWhole(bytes, pickEngine(options.engine, "hashLines32"), out);
  const hashes = out.hashes.slice(0, out.count);
  trimStages();
  return hashes;
}

/** Hashes a whole buffer into `out`; throws on ill-formed UTF-8. */
function scanWhole(
  bytes: Uint8Array,
  engine: HashEngine,
  out: BatchBuffer,
): void {
  let invalidAt: number;
  if (engine === "wasm") invalidAt = wasmHashAll(bytes, out);
  else {
    const scanner = new TsLineScanner(true, out);
    scanner.end(bytes);
    invalidAt = scanner.invalidAt;
  }
  if (invalidAt >= 0) throw notText(invalidAt);
}

/**
 * Every line of a whole buffer: full hashes, ends, and what the content
 * holds besides text (ill-formed UTF-8, NUL bytes, a BOM). Nothing is
 * refused; callers decide.
 *
 * @param bytes The content.
 * @param options `engine` (default {@link hashEngine}()).
 * @returns Hashes and ends of every line, and the offsets found.
 * @throws {TypeError} When `bytes` is not a Uint8Array or `engine` is unknown.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scanLines } from "./mod.ts";
 * const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a, 0x62, 0x00, 0xff]);
 * const scan = scanLines(bytes);
 * assert.deepEqual([...scan.ends], [5, 8]);
 * assert.equal(scan.hasBom, true);
 * assert.equal(scan.nulAt, 6);
 * assert.equal(scan.invalidAt, 7);
 * ```
 */
export function scanLines(
  bytes: Uint8Array,
  options: ScanLinesOptions = {},
): ScannedLines {
  checkBytes(bytes, "scanLines");
  const engine = pickEngine(options.engine, "scanLines");
  const batch = stagedBatch(KEEP_HASHES | KEEP_ENDS);
  const scanner = engine === "wasm"
    ? new WasmLineScanner(true, batch)
    : new TsLineScanner(true, batch);
  scanner.end(bytes);
  const result: ScannedLines = {
    hashes: batch.hashes.slice(0, batch.count),
    ends: batch.ends.slice(0, batch.count),
    invalidAt: scanner.invalidAt,
    nulAt: scanner.nulAt,
    hasBom: scanner.hasBom,
  };
  trimStages();
  return result;
}
