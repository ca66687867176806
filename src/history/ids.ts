/**
 * Entry ids (docs/history.md): `h_` and a number that only grows, at most
 * 16 digits, never with a leading zero. The one pattern every reader of an
 * id checks it against.
 *
 * @module
 */

/** An entry id, its number captured. */
export const ENTRY_ID: RegExp = /^h_([1-9]\d{0,15})$/;

/**
 * The number of an `h_N` id, or NaN when it is not one.
 *
 * @param id The id to read.
 * @returns Its number, or NaN.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { idNumber } from "./ids.ts";
 *
 * assert.equal(idNumber("h_12"), 12);
 * assert.ok(Number.isNaN(idNumber("h_012")));
 * ```
 */
export function idNumber(id: string): number {
  const m = ENTRY_ID.exec(id);
  return m ? Number(m[1]) : NaN;
}
