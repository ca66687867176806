/**
 * Byte-array helpers shared by every layer.
 *
 * @module
 */

/**
 * The parts, one after another, in a fresh array.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { concatBytes } from "./bytes.ts";
 * const joined = concatBytes([Uint8Array.of(1, 2), Uint8Array.of(3)]);
 * assert.deepEqual([...joined], [1, 2, 3]);
 * ```
 */
export function concatBytes(
  parts: readonly Uint8Array[],
): Uint8Array<ArrayBuffer> {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Lowercase hex of bytes, two digits each.
 *
 * @param bytes The bytes.
 * @param count How many of the first bytes (default all).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toHex } from "./bytes.ts";
 * assert.equal(toHex(Uint8Array.of(0, 171, 255)), "00abff");
 * assert.equal(toHex(Uint8Array.of(0, 171, 255), 2), "00ab");
 * ```
 */
export function toHex(bytes: Uint8Array, count = bytes.length): string {
  let hex = "";
  for (let i = 0; i < count; i++) hex += bytes[i].toString(16).padStart(2, "0");
  return hex;
}
