/**
 * How much work a line diff may take (docs/patch-format.md "Results"). A
 * diff is searched line by line (Myers) only within these bounds; past them
 * the caller shows the changed span as one hunk instead. The search's work
 * grows with the lines searched times the edit length it looks for, so the
 * edit length is capped by both: the answer never holds a thread for long,
 * whatever the input.
 *
 * @module
 */

/** Most lines (old and new together, between the first and last line that differ) searched. */
export const DIFF_SEARCH_MAX_LINES = 20_000;

/** Most UTF-16 units of those lines searched. */
export const DIFF_SEARCH_MAX_CHARS = 4 * 1024 ** 2;

/** Most lines added and removed together that a search looks for. */
export const DIFF_SEARCH_MAX_EDITS = 2_000;

/** Lines searched times edit length looked for: the search's work bound. */
export const DIFF_SEARCH_MAX_WORK = 4_000_000;

/**
 * The edit length a search of `lines` lines may look for (the `diff`
 * package's `maxEditLength`): a search that needs more gives up, and the
 * caller falls back to one hunk over the changed span.
 *
 * @param lines Lines searched, old and new together.
 * @returns The cap, at least 1.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diffEditCap } from "./diff_bounds.ts";
 * assert.equal(diffEditCap(10), 2_000);
 * assert.equal(diffEditCap(400_000), 10);
 * ```
 */
export function diffEditCap(lines: number): number {
  return Math.max(
    1,
    Math.min(
      DIFF_SEARCH_MAX_EDITS,
      Math.floor(DIFF_SEARCH_MAX_WORK / Math.max(1, lines)),
    ),
  );
}
