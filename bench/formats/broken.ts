/**
 * The drift-free "broken fix" column: each task's correct fix, and the same
 * fix with a closing line (`}`, `});`, `]`, …) at or after its region dropped
 * or duplicated — the commonest way an agent's edit breaks a file. The syntax
 * check (`src/check/`) must flag every broken one and none of the correct
 * ones. Nothing here is timed.
 *
 * @module
 */
import type { createChecker } from "../../src/check/mod.ts";
import type { Hunk } from "./fixes.ts";
import type { Task } from "./tasks.ts";

/** A line made only of closing brackets and the punctuation after them. */
const CLOSING = /^\s*[}\])]+[;,)]*\s*$/;

/** Counts of the broken-fix column. */
export interface BrokenTally {
  /** Correct fixes checked. */
  correct: number;
  /** Correct fixes the check flagged (false alarms). */
  correctFlagged: number;
  /** Fixes with a closing line dropped, and how many the check flagged. */
  dropped: { total: number; caught: number };
  /** Fixes with a closing line duplicated, and how many the check flagged. */
  duplicated: { total: number; caught: number };
  /** Tasks whose fixed file has no closing line at or after the fix. */
  noClosingLine: number;
  /** Tasks whose correct file the grammar cannot parse (left out: nothing to compare with). */
  unparsable: number;
}

/** An empty tally. */
export function emptyBrokenTally(): BrokenTally {
  return {
    correct: 0,
    correctFlagged: 0,
    dropped: { total: 0, caught: 0 },
    duplicated: { total: 0, caught: 0 },
    noClosingLine: 0,
    unparsable: 0,
  };
}

/**
 * The fixed file with its first closing line at or after the fix's region
 * dropped, and duplicated; null when it has none.
 */
export function brokenVariants(
  original: string,
  hunk: Hunk,
): { dropped: string; duplicated: string } | null {
  const lines = original.split("\n");
  for (let i = hunk.start; i < lines.length; i++) {
    if (!CLOSING.test(lines[i])) continue;
    const dropped = [...lines.slice(0, i), ...lines.slice(i + 1)];
    const duplicated = [...lines.slice(0, i + 1), ...lines.slice(i)];
    return { dropped: dropped.join("\n"), duplicated: duplicated.join("\n") };
  }
  return null;
}

/** Checks one task's correct and broken fixes into `tally`. */
export async function checkBrokenFixes(
  checker: ReturnType<typeof createChecker>,
  task: Task,
  hunk: Hunk,
  tally: BrokenTally,
): Promise<void> {
  const flagged = async (after: string) =>
    (await checker.check({ path: task.path, before: task.buggy, after }))
      ?.status === "broken";
  const alone = await checker.check({
    path: task.path,
    before: null,
    after: task.original,
  });
  if (alone?.status !== "ok") {
    tally.unparsable++;
    return;
  }
  tally.correct++;
  if (await flagged(task.original)) tally.correctFlagged++;
  const v = brokenVariants(task.original, hunk);
  if (!v) {
    tally.noClosingLine++;
    return;
  }
  tally.dropped.total++;
  if (await flagged(v.dropped)) tally.dropped.caught++;
  tally.duplicated.total++;
  if (await flagged(v.duplicated)) tally.duplicated.caught++;
}
