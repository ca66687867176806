/**
 * Anchored reads: every line as `LINE:HH|content`, in windows.
 *
 * @module
 */

import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";

/** Options of a read window. */
export interface FormatOptions {
  /** First line to show, 1-based (default 1). */
  offset?: number;
  /** Most lines to show (default 2000). */
  limit?: number;
  /** Longer lines are shown cut, counted in code points (default 2000). */
  maxLineChars?: number;
}

/** One window of an anchored read. */
export interface HashlineView {
  /** `LINE:HH|content` lines joined with `\n` (no trailing newline). */
  text: string;
  /** Number of lines in the whole content. */
  totalLines: number;
  /** First line shown (1-based). */
  startLine: number;
  /** Last line shown (`startLine - 1` when nothing is shown). */
  endLine: number;
  /** Where the next window starts, or `null` when this one reaches the end. */
  nextOffset: number | null;
}

/** Which lines a read window covers, before any line is rendered. */
export interface ReadWindow {
  /** First line shown (1-based). */
  startLine: number;
  /** Last line shown (`startLine - 1` when nothing is shown). */
  endLine: number;
  /** Where the next window starts, or `null`. */
  nextOffset: number | null;
  /** The display limit per line, in code points. */
  maxLineChars: number;
}

/** Default number of lines in a read window. */
export const DEFAULT_LIMIT = 2000;
/** Default display limit of one line, in code points. */
export const DEFAULT_MAX_LINE_CHARS = 2000;

function wholeNumber(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number") {
    throw new TypeError(
      `Cannot read: ${name} must be a number, got ${typeof value}.`,
    );
  }
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `Cannot read: ${name} must be a whole number from 1, got ${value}.`,
    );
  }
  return value;
}

/**
 * Checks read options and works out the window over a file of `totalLines`
 * lines, so every reader (in memory or streaming) answers alike.
 *
 * @param totalLines Number of lines in the whole content.
 * @param options `offset`, `limit`, `maxLineChars`.
 * @returns The window's first and last line and where the next one starts.
 * @throws {TypeError} When an option is not a number.
 * @throws {RangeError} When an option is not a whole number from 1, or
 *   `offset` is past the last line (except offset 1 on empty content).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readWindow } from "./format.ts";
 * assert.deepEqual(readWindow(5, { offset: 2, limit: 2 }), {
 *   startLine: 2, endLine: 3, nextOffset: 4, maxLineChars: 2000,
 * });
 * assert.throws(() => readWindow(3, { offset: 4 }), /has 3 lines/);
 * ```
 */
export function readWindow(
  totalLines: number,
  options: FormatOptions = {},
): ReadWindow {
  if (options === null || typeof options !== "object") {
    throw new TypeError("Cannot read: options must be an object.");
  }
  const offset = wholeNumber("offset", options.offset, 1);
  const limit = wholeNumber("limit", options.limit, DEFAULT_LIMIT);
  const maxLineChars = wholeNumber(
    "maxLineChars",
    options.maxLineChars,
    DEFAULT_MAX_LINE_CHARS,
  );
  if (offset > totalLines && !(offset === 1 && totalLines === 0)) {
    const has = totalLines === 1 ? "1 line" : `${totalLines} lines`;
    const hint = totalLines === 0
      ? "read from offset 1"
      : `use an offset from 1 to ${totalLines}`;
    throw new RangeError(
      `Offset ${offset} is past the end: the file has ${has}; ${hint}.`,
    );
  }
  const endLine = Math.min(totalLines, offset + limit - 1);
  return {
    startLine: offset,
    endLine,
    nextOffset: endLine < totalLines ? endLine + 1 : null,
    maxLineChars,
  };
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Index just past `count` code points from the start of `text`. */
function codePointEnd(text: string, count: number): number {
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length &&
        isLow(text.charCodeAt(i + 1))
      ? 2
      : 1;
  }
  return i;
}

function codePointsFrom(text: string, from: number): number {
  let n = 0;
  for (let i = from; i < text.length; n++) {
    i += isHigh(text.charCodeAt(i)) && i + 1 < text.length &&
        isLow(text.charCodeAt(i + 1))
      ? 2
      : 1;
  }
  return n;
}

/**
 * Renders one line of a read as `LINE:HH|content`; a line over
 * `maxLineChars` code points is cut and ends with `[+N chars]` (N code points
 * not shown), while its anchor still hashes the whole line.
 *
 * @param lineNo 1-based line number.
 * @param text The whole line, without its terminator.
 * @param maxLineChars Display limit in code points (default 2000).
 * @param anchorByte The line's folded hash (0–255) when already known, e.g.
 *   from the Wasm engine; computed from `text` when omitted.
 * @returns The rendered line.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatLine } from "./format.ts";
 * assert.equal(formatLine(1, "def greet(name):"), "1:fb|def greet(name):");
 * assert.equal(formatLine(7, "😀😀😀", 1).slice(-10), "[+2 chars]");
 * ```
 */
export function formatLine(
  lineNo: number,
  text: string,
  maxLineChars: number = DEFAULT_MAX_LINE_CHARS,
  anchorByte?: number,
): string {
  const hash = hex2(anchorByte ?? foldHash(lineHash32(text)));
  let shown = text;
  if (text.length > maxLineChars) {
    const end = codePointEnd(text, maxLineChars);
    if (end < text.length) {
      shown = `${text.slice(0, end)}[+${codePointsFrom(text, end)} chars]`;
    }
  }
  return `${lineNo}:${hash}|${shown}`;
}

/**
 * Reads content as anchored lines, one window at a time. Only the lines in
 * the window are hashed.
 *
 * @param content The text of a file (a leading BOM is hidden).
 * @param options `offset` (1-based, default 1), `limit` (default 2000),
 *   `maxLineChars` (default 2000 code points).
 * @returns The rendered window and where the next one starts.
 * @throws {TypeError} When `content` is not a string or an option is not a number.
 * @throws {RangeError} When an option is not a whole number from 1, or
 *   `offset` is past the last line (offset 1 on empty content gives an empty view).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatHashlines } from "./format.ts";
 * const view = formatHashlines("a = 1\r\nb = 2\r\n");
 * assert.equal(view.text, "1:69|a = 1\n2:9f|b = 2");
 * assert.equal(view.totalLines, 2);
 * assert.equal(view.nextOffset, null);
 * assert.equal(formatHashlines("x\ny\nz", { offset: 2, limit: 1 }).nextOffset, 3);
 * ```
 */
export function formatHashlines(
  content: string,
  options: FormatOptions = {},
): HashlineView {
  if (typeof content !== "string") {
    throw new TypeError(
      `Cannot read: content must be a string, got ${typeof content}.`,
    );
  }
  // Options are checked before the scan so bad input fails fast on big content.
  readWindow(Number.MAX_SAFE_INTEGER, options);
  const first = options.offset ?? 1;
  const last = first + (options.limit ?? DEFAULT_LIMIT) - 1;
  const max = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const out: string[] = [];
  const len = content.length;
  let pos = content.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  while (pos < len) {
    const nl = content.indexOf("\n", pos);
    lineNo++;
    if (lineNo >= first && lineNo <= last) {
      const stop = nl < 0 ? len : nl;
      const end = stop > pos && nl >= 0 && content.charCodeAt(stop - 1) === 13
        ? stop - 1
        : stop;
      out.push(formatLine(lineNo, content.slice(pos, end), max));
    }
    if (nl < 0) break;
    pos = nl + 1;
  }
  const window = readWindow(lineNo, options);
  return {
    text: out.join("\n"),
    totalLines: lineNo,
    startLine: window.startLine,
    endLine: window.endLine,
    nextOffset: window.nextOffset,
  };
}
