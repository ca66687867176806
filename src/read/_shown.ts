/**
 * One line as a read shows it, shared by plain, outline and search reads:
 * formatted in the session's form, its hash added to the runs the read
 * records.
 *
 * @module
 */
import { formatLine } from "../anchor/format.ts";
import { leanLines } from "../anchor/lean.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";

/** Consecutive lines shown, from `start`, by their full hashes. */
export interface ShownRun {
  /** The first line's number. */
  start: number;
  /** The full hash of each line, in order. */
  hashes: number[];
}

/**
 * Line `n` of `lines` as shown, with its hash appended to `runs` (to the
 * last run when the line follows on from it).
 */
export function showLine(
  lines: readonly string[],
  n: number,
  maxLineChars: number | undefined,
  form: "hash" | "lean",
  runs: ShownRun[],
): string {
  const h = lineHash32(lines[n - 1]);
  const shown = formatLine(n, lines[n - 1], maxLineChars, foldHash(h));
  const last = runs[runs.length - 1];
  if (last && last.start + last.hashes.length === n) last.hashes.push(h);
  else runs.push({ start: n, hashes: [h] });
  return form === "lean" ? leanLines(shown) : shown;
}
