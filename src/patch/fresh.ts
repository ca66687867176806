/**
 * The one fresh-anchor renderer (docs/patch-format.md#validation): the
 * lines around a line as they stand now, as `LINE:HH|text` rows, for
 * refusals (±2 around a stale anchor) and results (±2 around a change).
 *
 * @module
 */
import { formatLine } from "../anchor/format.ts";
import { foldHash } from "../hash/fnv.ts";
import type { Shown } from "./problems.ts";
import type { ChangedRegion, LineLookup } from "./types.ts";

/** Lines shown on each side of the line a refusal or a result is about. */
export const CONTEXT = 2;

/** Whether line n exists now (through `has` when the lookup offers it). */
export function existsIn(now: LineLookup): (n: number) => boolean {
  return now.has
    ? (n) => n >= 1 && now.has!(n)
    : (n) => n >= 1 && n <= now.lineCount;
}

/** Lines `from..to` clipped to the file, as `[line, hash]` pairs. */
export function window(
  exists: (n: number) => boolean,
  now: LineLookup,
  from: number,
  to: number,
): [number, number][] {
  const out: [number, number][] = [];
  for (let n = Math.max(1, from); n <= to && exists(n); n++) {
    out.push([n, now.hash32(n)]);
  }
  return out;
}

/**
 * Renders `[line, hash]` pairs of `now` as `LINE:HH|text` rows.
 *
 * @param now The file as it is now.
 * @param listing The lines, with their full hashes.
 * @param maxLineChars Display limit of one line (default: the read view's).
 * @returns The rows joined by `\n`.
 */
export function renderListing(
  now: LineLookup,
  listing: [number, number][],
  maxLineChars?: number,
): string {
  return listing.map(([n, h]) =>
    formatLine(n, now.text(n), maxLineChars, foldHash(h))
  ).join("\n");
}

/** The runs of full hashes a listing shows. */
export function runsOf(listing: [number, number][]): Shown[] {
  const out: Shown[] = [];
  for (const [n, h] of listing) {
    const top = out[out.length - 1];
    if (top && top.start + top.hashes.length === n) top.hashes.push(h);
    else out.push({ start: n, hashes: [h] });
  }
  return out;
}

/**
 * Lines `at - 2` to `at + 2` of `now` (clipped to the file) as a refusal
 * shows them: the `LINE:HH|text` rows, and the runs of full hashes shown.
 *
 * @param now The file as it is now.
 * @param at The line the refusal is about.
 * @returns The rows joined by `\n`, and what they show.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshAround } from "./fresh.ts";
 * import { lookupFromLines } from "./lookup.ts";
 * const { text, shown } = freshAround(lookupFromLines(["a", "b"]), 1);
 * assert.equal(text, "1:ed|a\n2:23|b");
 * assert.equal(shown[0].start, 1);
 * ```
 */
export function freshAround(
  now: LineLookup,
  at: number,
): { text: string; shown: Shown[] } {
  const listing = window(existsIn(now), now, at - CONTEXT, at + CONTEXT);
  return { text: renderListing(now, listing), shown: runsOf(listing) };
}

/**
 * Renders the lines around a changed region in read format
 * (`LINE:HH|content`), so the next edit needs no new read.
 *
 * @param now The new content, as a lookup.
 * @param region Changed lines (`end = start - 1` for a deletion before `start`).
 * @param radius Lines of context on each side (default 2).
 * @returns The lines joined with `\n`; `""` when the content has no lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshRegion } from "./fresh.ts";
 * import { lookupFromLines } from "./lookup.ts";
 * const now = lookupFromLines(["a", "b", "c", "d"]);
 * assert.equal(freshRegion(now, { start: 4, end: 4 }, 1), "3:94|c\n4:ba|d");
 * ```
 */
export function freshRegion(
  now: LineLookup,
  region: ChangedRegion,
  radius = CONTEXT,
): string {
  const listing = window(
    existsIn(now),
    now,
    region.start - radius,
    region.end + radius,
  );
  return renderListing(now, listing);
}
