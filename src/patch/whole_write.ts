/**
 * Whole-file-write staleness (docs/patch-format.md "Whole-file writes"): a
 * write over an existing file lands only when the session has seen every
 * line of it and none changed since.
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import { changed, notRead, type Problem, problem } from "./problems.ts";
import type { LineMemory } from "./memory.ts";

/**
 * The first remembered line that no longer stands as the session saw it
 * (or no longer exists), judged against the file's lines in memory.
 *
 * @param memory The session's read record.
 * @param lines The file's lines now.
 * @returns That line number, or 0 when every remembered line still matches.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../hash/fnv.ts";
 * import { memoryFromHashes } from "./memory.ts";
 * import { firstStaleLine } from "./whole_write.ts";
 * const memory = memoryFromHashes(["a", "b"].map(lineHash32));
 * assert.equal(firstStaleLine(memory, ["a", "B"]), 2);
 * assert.equal(firstStaleLine(memory, ["a", "b", "c"]), 0);
 * ```
 */
export function firstStaleLine(
  memory: LineMemory,
  lines: readonly string[],
): number {
  for (const [n, h] of memory.entries()) {
    if (n > lines.length || lineHash32(lines[n - 1]) !== h) return n;
  }
  return 0;
}

/**
 * Judges a whole-file write over an existing file.
 *
 * @param path The file, as shown to the model.
 * @param memory The session's read record of the file, if any.
 * @param now `stale` (the first remembered line that changed, 0 for none; see {@link firstStaleLine}) and `total` (lines in the file now).
 * @returns `NOT_READ` or `CHANGED`, or nothing when the write may land.
 */
export function judgeWholeWrite(
  path: string,
  memory: LineMemory | undefined,
  now: { stale: number; total: number },
): Problem[] {
  if (!memory) return [notRead(path, "write it again (or patch it)")];
  if (now.stale > 0) return [changed(path, now.stale)];
  if (memory.size < now.total) {
    return [problem(
      "NOT_READ",
      `this session has seen only ${memory.size} of its ${now.total} lines, so it was not overwritten (that would discard lines never seen). Read it whole first (offset 1, limit ${now.total}), or patch the lines to change.`,
      { path },
    )];
  }
  return [];
}
