/**
 * Anchors name a line as `LINE:HH` — its 1-based number and the two-hex-digit
 * fold of its hash.
 *
 * @module
 */

import { hex2 } from "../hash/fnv.ts";

/** A parsed anchor. */
export interface Anchor {
  /** 1-based line number. */
  line: number;
  /** Two lowercase hex digits. */
  hash: string;
}

const ANCHOR = /^(\d+):([0-9a-fA-F]{2})\|?$/;
const READ_PREFIX = /^\d+:[0-9a-fA-F]{2}\|/;

/**
 * Parses an anchor such as `12:a3`; the `|` that ends a read prefix (`12:a3|`)
 * is accepted, and hex digits may be upper case.
 *
 * @param text The anchor as written (surrounding spaces are ignored).
 * @returns The line number and the lowercase hash.
 * @throws {TypeError} When `text` is not a string.
 * @throws {SyntaxError} When `text` is not `LINE:HH` with LINE ≥ 1 and HH two hex digits.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseAnchor } from "./anchor.ts";
 * assert.deepEqual(parseAnchor("12:A3|"), { line: 12, hash: "a3" });
 * assert.throws(() => parseAnchor("0:a3"), SyntaxError);
 * ```
 */
export function parseAnchor(text: string): Anchor {
  if (typeof text !== "string") {
    throw new TypeError(
      `Cannot parse anchor: expected a string such as "12:a3", got ${typeof text}.`,
    );
  }
  const m = ANCHOR.exec(text.trim());
  if (m) {
    const line = Number(m[1]);
    if (line >= 1 && Number.isSafeInteger(line)) {
      return { line, hash: m[2].toLowerCase() };
    }
  }
  throw new SyntaxError(
    `Cannot parse anchor ${
      JSON.stringify(text)
    }: write LINE:HH, a line number from 1 and the two hex digits shown in the read, such as "12:a3".`,
  );
}

/**
 * Writes an anchor as `LINE:HH`.
 *
 * @param line 1-based line number.
 * @param hash The fold as two hex digits, or as a number 0–255.
 * @returns e.g. `"12:a3"`.
 * @throws {RangeError} When `line` is not an integer ≥ 1.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatAnchor } from "./anchor.ts";
 * assert.equal(formatAnchor(12, "A3"), "12:a3");
 * assert.equal(formatAnchor(3, 0x0e), "3:0e");
 * ```
 */
export function formatAnchor(line: number, hash: string | number): string {
  if (!Number.isSafeInteger(line) || line < 1) {
    throw new RangeError(
      `Cannot format anchor: line must be an integer from 1, got ${line}.`,
    );
  }
  return `${line}:${
    typeof hash === "number" ? hex2(hash) : hash.toLowerCase()
  }`;
}

/**
 * Finds a read prefix (`12:a3|`) at the start of a line, as pasted from a read.
 *
 * @param line A line of new content.
 * @returns The prefix including its `|`, or `null` when the line has none.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readPrefixOf } from "./anchor.ts";
 * assert.equal(readPrefixOf("12:a3|const x = 1;"), "12:a3|");
 * assert.equal(readPrefixOf("const x = 1;"), null);
 * ```
 */
export function readPrefixOf(line: string): string | null {
  const m = READ_PREFIX.exec(line) ?? OUTLINE_MARKER.exec(line);
  return m ? m[0] : null;
}

/** The line an outline read puts for hidden lines (`…13–40`), refused like a read prefix. */
const OUTLINE_MARKER = /^…\d+(?:–\d+)?$/;
