/**
 * The Wasm engine: loads the compiled AssemblyScript scanner (SIMD newline
 * scan, sixteen lines hashed side by side) synchronously and lazily, and
 * drives it through one reused 1 MiB input buffer in its memory: small calls
 * over warm memory, rather than one long call over fresh memory.
 *
 * One instance serves every scanner in the process. Each scanner keeps a
 * copy of the instance's small state block and swaps it in when it takes a
 * turn, so several inputs can be scanned interleaved.
 *
 * @module
 */
import { BatchBuffer, KEEP_ENDS, KEEP_FOLDS, KEEP_HASHES } from "./_batch.ts";
import * as layout from "./_layout.ts";
import { WASM_BASE64 } from "./_wasm_bytes.ts";
import type { HashEngine } from "./types.ts";
import { ScannerBase } from "./_scanner.ts";

const { F_BOM, F_NUL_SEEN, M_ENDS, M_FINAL, M_FOLD, M_HASH } = layout;
// The host reads the state block as i32 words: byte offsets become word
// indices, and the u32 "not found" reads as a negative i32.
const S_FLAGS = layout.S_FLAGS / 4;
const S_INVALID = layout.S_INVALID / 4;
const S_NUL = layout.S_NUL / 4;
const STATE_WORDS = layout.STATE_BYTES / 4;
/** `NONE` as an i32 word of the state block or of the counter's report reads it. */
export const NONE_I32: number = layout.NONE | 0;

/** What the compiled scanner exports (see assembly/index.ts). */
export interface ScannerExports {
  /** The instance's memory (fixed size, never grown). */
  memory: WebAssembly.Memory;
  /** Scans the chunk at inputPtr(); returns the lines it completed. */
  push(n: number, mode: number, base: number): number;
  /** Writes a fresh input's state block. */
  reset(): void;
  /** Where the host writes a chunk. */
  inputPtr(): number;
  /** Largest chunk per push. */
  capacity(): number;
  /** Address of the state block. */
  statePtr(): number;
  /** Address of the u32 hashes of the last push. */
  hashesPtr(): number;
  /** Address of the f64 ends of the last push. */
  endsPtr(): number;
  /** Address of the u8 folds of the last push. */
  foldsPtr(): number;
  /** First byte past the fixed layout. */
  layoutEnd(): number;
  /** Counts line feeds without hashing (see assembly/count.ts). */
  countLines(
    held: number,
    n: number,
    final: number,
    until: number,
    every: number,
  ): number;
  /** Address of what countLines reports (five i32). */
  countsPtr(): number;
  /** Address of the checkpoints countLines writes (i32 each). */
  checksPtr(): number;
  /** Writes a window of the read view as JSON string content (see assembly/format.ts). */
  formatView(n: number, first: number, last: number, maxChars: number): number;
  /** Address of what formatView writes. */
  outPtr(): number;
  /** Writes the content of the `{"content":"…"}` body at BODY to inputPtr() (see assembly/body.ts). */
  unescapeBody(n: number): number;
  /** formatView from the body's own spelling of the content (see assembly/body.ts). */
  formatBody(first: number, last: number, maxChars: number): number;
}

/** Whoever's state currently sits in the instance's state block. */
export interface StateOwner {
  /** The owner's copy of the state block. */
  readonly state: Int32Array;
}

/**
 * The loaded instance and views over its fixed layout.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wasmEngine } from "./wasm.ts";
 * const engine = wasmEngine();
 * assert.equal(engine?.capacity, 1 << 20);
 * ```
 */
export class WasmEngine {
  /** Raw exports. */
  readonly exports: ScannerExports;
  /** Largest chunk per call. */
  readonly capacity: number;
  /** The whole memory. */
  readonly bytes: Uint8Array;
  /** Where a chunk goes. */
  readonly input: number;
  /** The live state block. */
  readonly state: Int32Array;
  /** Hashes of the last call's lines. */
  readonly hashes: Uint32Array;
  /** Absolute ends of the last call's lines. */
  readonly ends: Float64Array;
  /** Folded anchors of the last call's lines. */
  readonly folds: Uint8Array;
  /** A fresh input's state block. */
  readonly initialState: Int32Array;
  #owner: StateOwner | null = null;

  /** @param exports The instance's exports. */
  constructor(exports: ScannerExports) {
    this.exports = exports;
    const buffer = exports.memory.buffer;
    if (exports.layoutEnd() > buffer.byteLength) {
      throw new RangeError(
        "The line scanner's memory is smaller than its layout.",
      );
    }
    this.capacity = exports.capacity();
    const lines = layout.MAX_LINES;
    this.bytes = new Uint8Array(buffer);
    this.input = exports.inputPtr();
    this.state = new Int32Array(buffer, exports.statePtr(), STATE_WORDS);
    this.hashes = new Uint32Array(buffer, exports.hashesPtr(), lines);
    this.ends = new Float64Array(buffer, exports.endsPtr(), lines);
    this.folds = new Uint8Array(buffer, exports.foldsPtr(), lines);
    exports.reset();
    this.initialState = this.state.slice();
  }

  /**
   * Puts `owner`'s state in the instance, saving the previous owner's first.
   *
   * @param owner The scanner about to call {@link WasmEngine.run}.
   */
  claim(owner: StateOwner): void {
    if (this.#owner === owner) return;
    if (this.#owner !== null) this.#owner.state.set(this.state);
    this.state.set(owner.state);
    this.#owner = owner;
  }

  /**
   * Forgets `owner` (its input is finished).
   *
   * @param owner A scanner that will not call again.
   */
  release(owner: StateOwner): void {
    if (this.#owner === owner) this.#owner = null;
  }

  /**
   * Scans one chunk of at most `capacity` bytes for the current owner.
   *
   * @param chunk The bytes, copied into the instance's input buffer.
   * @param mode M_* bits.
   * @param base Absolute offset of the chunk's first byte.
   * @returns Lines completed; results are in `hashes`, `ends`, `folds`.
   */
  run(chunk: Uint8Array, mode: number, base: number): number {
    this.bytes.set(chunk, this.input);
    return this.exports.push(chunk.length, mode, base);
  }
}

let loaded: WasmEngine | null | undefined;
let loadError: unknown;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The shared Wasm engine, compiled on first use; null when this runtime
 * refuses to compile or run it (no WebAssembly, no SIMD, code generation
 * disallowed).
 *
 * @returns The engine, or null.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wasmEngine } from "./wasm.ts";
 * assert.ok(wasmEngine() !== null);
 * ```
 */
export function wasmEngine(): WasmEngine | null {
  if (loaded === undefined) {
    try {
      const module = new WebAssembly.Module(decodeBase64(WASM_BASE64));
      const instance = new WebAssembly.Instance(module, {});
      loaded = new WasmEngine(instance.exports as unknown as ScannerExports);
    } catch (error) {
      loaded = null;
      loadError = error;
    }
  }
  return loaded;
}

/**
 * Why the Wasm engine could not load, if it failed (for error messages).
 *
 * @returns The error the runtime raised, or undefined.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wasmEngine, wasmLoadError } from "./wasm.ts";
 * if (wasmEngine() !== null) assert.equal(wasmLoadError(), undefined);
 * ```
 */
export function wasmLoadError(): unknown {
  return loadError;
}

/**
 * The shared Wasm engine, or an error saying why this runtime cannot run it.
 *
 * @returns The engine.
 * @throws {Error} When this runtime refused to load the module.
 */
export function requireEngine(): WasmEngine {
  const engine = wasmEngine();
  if (engine === null) {
    const why = loadError instanceof Error
      ? loadError.message
      : String(loadError);
    throw new Error(
      `Cannot use the Wasm line scanner: this runtime refused to load it (${why}). Use the "ts" engine instead.`,
    );
  }
  return engine;
}

/**
 * A {@link LineScanner} backed by the Wasm engine.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WasmLineScanner } from "./wasm.ts";
 * const scanner = new WasmLineScanner();
 * const first = scanner.push(new TextEncoder().encode("a\r\nb"));
 * assert.equal(first.count, 1);
 * assert.equal(first.ends[0], 3);
 * const last = scanner.end();
 * assert.equal(last.count, 1);
 * assert.equal(last.hashes[0].toString(16), "e70c2de5");
 * ```
 */
export class WasmLineScanner extends ScannerBase {
  /** Always `"wasm"`. */
  readonly engine: HashEngine = "wasm";
  /** This input's copy of the instance state block (swapped in per call). */
  readonly state: Int32Array;
  #engine: WasmEngine;
  #mode: number;

  /**
   * Creates a scanner for one input.
   *
   * @param hash When false, only line ends and validity are tracked (hashes read as 0).
   * @param out Where batches are gathered (a fresh buffer by default); its
   *   `keep` bits say which per-line arrays are filled.
   * @throws {Error} When this runtime cannot load the Wasm engine.
   */
  constructor(hash = true, out: BatchBuffer = new BatchBuffer()) {
    super(out);
    this.#engine = requireEngine();
    this.#mode = (hash ? M_HASH : 0) | (out.keep & KEEP_ENDS ? M_ENDS : 0) |
      (hash && out.keep & KEEP_FOLDS ? M_FOLD : 0);
    this.state = this.#engine.initialState.slice();
  }

  /** Scans one piece of input, fed to Wasm 1 MiB at a time (see {@link ScannerBase}). */
  protected scan(bytes: Uint8Array, final: boolean): void {
    const capacity = this.#engine.capacity;
    let at = 0;
    while (bytes.length - at > (final ? capacity : 0)) {
      this.#run(bytes.subarray(at, at + capacity), 0);
      at += capacity;
    }
    if (final) this.#run(bytes.subarray(at), M_FINAL);
  }

  /** Lets go of the engine's state block once the input has ended. */
  protected override ended(): void {
    this.#engine.release(this);
  }

  #run(piece: Uint8Array, final: number): void {
    const engine = this.#engine;
    engine.claim(this);
    const count = engine.run(piece, this.#mode | final, this.seen);
    const state = engine.state;
    if (state[S_INVALID] !== NONE_I32 && this.invalid < 0) {
      this.invalid = this.seen + state[S_INVALID];
    }
    if (state[S_NUL] !== NONE_I32 && this.nul < 0) {
      this.nul = this.seen + state[S_NUL];
    }
    if ((state[S_FLAGS] & F_BOM) !== 0) this.bom = true;
    if (count > 0) {
      const out = this.out;
      out.reserve(count);
      if (this.#mode & M_HASH && out.keep & KEEP_HASHES) {
        out.hashes.set(engine.hashes.subarray(0, count), out.count);
      }
      if (this.#mode & M_ENDS) {
        out.ends.set(engine.ends.subarray(0, count), out.count);
      }
      if (this.#mode & M_FOLD) {
        out.folds.set(engine.folds.subarray(0, count), out.count);
      }
      out.count += count;
    }
    this.seen += piece.length;
    this.lines += count;
  }
}

/**
 * A fresh input's state for a caller that hashes whole inputs and reports no NUL.
 *
 * @param engine The shared engine.
 * @returns An owner to claim the engine with.
 */
export function wholeInputOwner(engine: WasmEngine): StateOwner {
  const owner: StateOwner = { state: engine.initialState.slice() };
  owner.state[S_FLAGS] |= F_NUL_SEEN;
  return owner;
}

/**
 * Hashes every line of a whole buffer, 1 MiB at a time through the
 * instance, into `out` (its hashes, or its folds when it keeps folds),
 * stopping at the first ill-formed UTF-8 sequence. NUL bytes are not looked
 * for and ends are not kept.
 *
 * @param bytes The whole content.
 * @param out Where lines go, from index 0; `out.count` ends as the number of lines.
 * @returns The offset of the first ill-formed UTF-8 sequence, or -1.
 * @throws {Error} When this runtime cannot load the Wasm engine.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BatchBuffer, KEEP_FOLDS } from "./_batch.ts";
 * import { wasmHashAll } from "./wasm.ts";
 * const out = new BatchBuffer(16, KEEP_FOLDS);
 * assert.equal(wasmHashAll(new TextEncoder().encode("x\ny"), out), -1);
 * assert.deepEqual([...out.folds.subarray(0, out.count)], [0x26, 0x4a]);
 * ```
 */
export function wasmHashAll(bytes: Uint8Array, out: BatchBuffer): number {
  const engine = requireEngine();
  const owner = wholeInputOwner(engine);
  engine.claim(owner);
  const capacity = engine.capacity;
  const total = bytes.length;
  const fold = (out.keep & KEEP_FOLDS) !== 0;
  const mode = M_HASH | (fold ? M_FOLD : 0);
  out.count = 0;
  try {
    let at = 0;
    do {
      const piece = bytes.subarray(at, at + capacity);
      const final = at + piece.length >= total ? M_FINAL : 0;
      const lines = engine.run(piece, mode | final, at);
      const bad = engine.state[S_INVALID];
      if (bad !== NONE_I32) return at + bad;
      out.reserve(lines);
      if (fold) out.folds.set(engine.folds.subarray(0, lines), out.count);
      else out.hashes.set(engine.hashes.subarray(0, lines), out.count);
      out.count += lines;
      at += piece.length;
    } while (at < total);
  } finally {
    engine.release(owner);
  }
  return -1;
}
