/**
 * The anchor hash on strings: FNV-1a/32 over each code point, feeding the
 * code point's bytes low byte first (as many as it needs, at least one), then
 * folded to 8 bits. ASCII hashes exactly like its UTF-8 bytes.
 *
 * @module
 */

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * Full 32-bit anchor hash of one line (without its terminator).
 *
 * @param line The line's text.
 * @returns The unsigned 32-bit FNV-1a value.
 * @throws {TypeError} When `line` is not a string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "./fnv.ts";
 * assert.equal(lineHash32("").toString(16), "811c9dc5");
 * ```
 */
export function lineHash32(line: string): number {
  if (typeof line !== "string") {
    throw new TypeError(
      `Cannot hash a line: expected a string (the line's text without its terminator), got ${
        line === null ? "null" : typeof line
      }.`,
    );
  }
  let h = OFFSET_BASIS;
  for (let i = 0; i < line.length; i++) {
    let cp = line.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < line.length) {
      const lo = line.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    h = Math.imul(h ^ (cp & 0xff), PRIME);
    if (cp > 0xff) {
      h = Math.imul(h ^ ((cp >>> 8) & 0xff), PRIME);
      if (cp > 0xffff) h = Math.imul(h ^ (cp >>> 16), PRIME);
    }
  }
  return h >>> 0;
}

/**
 * Folds a full 32-bit hash to the 8-bit anchor value.
 *
 * @param h The 32-bit hash.
 * @returns `(h ^ h>>>8 ^ h>>>16 ^ h>>>24) & 0xff`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foldHash } from "./fnv.ts";
 * assert.equal(foldHash(0x811c9dc5), 0xc5);
 * ```
 */
export function foldHash(h: number): number {
  return (h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 0xff;
}

const HEX: string[] = Array.from(
  { length: 256 },
  (_, i) => i.toString(16).padStart(2, "0"),
);

/**
 * Two lowercase hex digits of an 8-bit value.
 *
 * @param byte 0–255.
 * @returns e.g. `"0e"`.
 */
export function hex2(byte: number): string {
  return HEX[byte & 0xff];
}

/**
 * The two-hex-digit anchor hash of one line.
 *
 * @param line The line's text, without its terminator.
 * @returns Two lowercase hex digits.
 * @throws {TypeError} When `line` is not a string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash } from "./fnv.ts";
 * assert.equal(lineHash("def greet(name):"), "fb");
 * ```
 */
export function lineHash(line: string): string {
  return HEX[foldHash(lineHash32(line))];
}
