/**
 * The read view built by the Wasm engine (see assembly/format.ts): the
 * scanner hashes every line of the content at the engine's input, then one
 * pass splits, prefixes and JSON-escapes a window of it. The content gets
 * there encoded from a string, or unescaped from the bytes of a
 * `{"content":"…"}` request body (assembly/body.ts), which spares decoding
 * the body and `JSON.parse`.
 *
 * @module
 */
import * as layout from "./_layout.ts";
import {
  NONE_I32,
  type WasmEngine,
  wasmEngine,
  wholeInputOwner,
} from "./wasm.ts";

const { M_FINAL, M_FOLD, M_HASH } = layout;
const S_INVALID = layout.S_INVALID / 4;

const inputEncoder = new TextEncoder();

/**
 * Builds the result from the view's bytes, a window of the engine's memory
 * that is valid only during the call, and the content's line count.
 */
export type ViewFrame<T> = (text: Uint8Array, total: number) => T;

/**
 * The read view of lines `first`..`last` (a window past the end is cut to
 * it) as the UTF-8 bytes of JSON string content (what
 * `JSON.stringify(view.text)` gives between its quotes), with the total line
 * count. `content` (bytes, or a well-formed string encoded straight into the
 * engine's input) is scanned in place, and `frame` gets the view's bytes as
 * a window of the engine's memory, valid only during the call, to copy into
 * the answer it builds.
 *
 * @param content The whole content (a string must hold no lone surrogate).
 * @param first First line of the window, 1-based.
 * @param last Last line of the window (cut to the total).
 * @param maxBytes Longest window line taken, in bytes.
 * @param frame Builds the result from the borrowed view and the line count.
 * @returns What `frame` returned; null when the engine cannot load, the
 *   input is over one chunk, a window line is longer than `maxBytes` bytes
 *   (it may need the cut marker, which is the caller's), or the answer would
 *   not fit the engine's output buffer.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wasmFormatInto } from "./_wasm_format.ts";
 * const got = wasmFormatInto("x\ny", 1, 9, 2000, (text, total) =>
 *   `${new TextDecoder().decode(text)} (${total})`);
 * assert.equal(got, "1:26|x\\n2:4a|y (2)");
 * ```
 */
export function wasmFormatInto<T>(
  content: Uint8Array | string,
  first: number,
  last: number,
  maxBytes: number,
  frame: ViewFrame<T>,
): T | null {
  const engine = wasmEngine();
  if (engine === null) return null;
  let length: number;
  if (typeof content === "string") {
    // UTF-8 takes at least one byte per UTF-16 unit: a longer string cannot fit.
    if (content.length > engine.capacity) return null;
    const input = engine.bytes.subarray(
      engine.input,
      engine.input + engine.capacity,
    );
    const { read, written } = inputEncoder.encodeInto(content, input);
    if (read !== content.length) return null;
    length = written;
  } else {
    if (content.length > engine.capacity) return null;
    engine.bytes.set(content, engine.input);
    length = content.length;
  }
  return formatInput(engine, length, first, last, maxBytes, frame);
}

const answerDecoder = new TextDecoder();

/**
 * {@link wasmFormatInto} for the content of a request body of the one shape
 * `{"content":"…"}` (JSON whitespace around the tokens allowed), taken from
 * the body's bytes without decoding or parsing them, and framed by `head`
 * and `tail` into one string. Where the body spells every character as
 * `JSON.stringify` does, the view copies the lines' spellings from the body
 * rather than escaping the content again.
 *
 * @param body The request body's bytes.
 * @param first First line of the window, 1-based.
 * @param last Last line of the window (cut to the total).
 * @param maxBytes Longest window line taken, in bytes.
 * @param head What goes before the view: at most `OUT_HEAD` bytes.
 * @param tail What goes after the view, given the line count: ASCII.
 * @returns `head`, the view and the tail as one string; null when the
 *   engine cannot load, the body is over one chunk or of another shape
 *   (other members, a BOM, a lone surrogate, anything `JSON.parse` would
 *   refuse), the content is not well-formed UTF-8, or
 *   {@link wasmFormatInto} would give up: the caller then takes the general
 *   path, which has every answer and refusal.
 * @throws {RangeError} When `head` is longer than `OUT_HEAD` bytes.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wasmFormatBody } from "./_wasm_format.ts";
 * const body = new TextEncoder().encode('{"content":"x\\ny"}');
 * const got = wasmFormatBody(body, 1, 9, 2000, new TextEncoder().encode("<"),
 *   (total) => `> (${total})`);
 * assert.equal(got, "<1:26|x\\n2:4a|y> (2)");
 * ```
 */
export function wasmFormatBody(
  body: Uint8Array,
  first: number,
  last: number,
  maxBytes: number,
  head: Uint8Array,
  tail: (total: number) => string,
): string | null {
  if (head.length > layout.OUT_HEAD) {
    throw new RangeError(
      `The head of a view takes at most ${layout.OUT_HEAD} bytes, got ${head.length}.`,
    );
  }
  const engine = wasmEngine();
  if (engine === null || body.length > engine.capacity) return null;
  engine.bytes.set(body, layout.BODY);
  const length = engine.exports.unescapeBody(body.length);
  if (length < 0) return null;
  const total = hashInput(engine, length);
  if (total < 0) return null;
  const to = Math.min(last, total);
  let n = 0;
  if (first <= to) {
    const max = Math.min(maxBytes, 0xffffffff) >>> 0;
    n = engine.exports.formatBody(first, to, max);
    if (n < 0) n = engine.exports.formatView(length, first, to, max);
    if (n < 0) return null;
  }
  // The head goes just below the view and the tail just after it, so the
  // answer is decoded at once into one flat string.
  const from = layout.OUT - head.length;
  engine.bytes.set(head, from);
  const after = tail(total);
  const { read, written } = inputEncoder.encodeInto(
    after,
    engine.bytes.subarray(layout.OUT + n, layout.LAYOUT_END),
  );
  if (read !== after.length) return null;
  return answerDecoder.decode(
    engine.bytes.subarray(from, layout.OUT + n + written),
  );
}

/**
 * Hashes the `length` bytes at the engine's input.
 *
 * @returns The line count, or -1 when the bytes are not well-formed UTF-8.
 */
function hashInput(engine: WasmEngine, length: number): number {
  const owner = wholeInputOwner(engine);
  engine.claim(owner);
  try {
    const total = engine.exports.push(length, M_HASH | M_FOLD | M_FINAL, 0);
    return engine.state[S_INVALID] !== NONE_I32 ? -1 : total;
  } finally {
    engine.release(owner);
  }
}

/** Hashes the `length` bytes at the engine's input, then formats the window. */
function formatInput<T>(
  engine: WasmEngine,
  length: number,
  first: number,
  last: number,
  maxBytes: number,
  frame: ViewFrame<T>,
): T | null {
  const total = hashInput(engine, length);
  if (total < 0) return null;
  const to = Math.min(last, total);
  if (first > to) return frame(new Uint8Array(0), total);
  const n = engine.exports.formatView(
    length,
    first,
    to,
    Math.min(maxBytes, 0xffffffff) >>> 0,
  );
  if (n < 0) return null;
  const at = engine.exports.outPtr();
  return frame(engine.bytes.subarray(at, at + n), total);
}
