/**
 * Scoring one edit against the file it landed on: CORRECT when the result
 * is exactly the correct file (the drifted file with the intended fix where
 * it still belongs, every other change kept), REFUSED when nothing was
 * written, WRONG for anything else — including any write where the only
 * right answer was to refuse.
 *
 * @module
 */

/** The three outcomes. */
export const OUTCOMES = ["CORRECT", "REFUSED", "WRONG"] as const;

/** One outcome. */
export type Outcome = typeof OUTCOMES[number];

/** What an edit tool did. */
export type Applied =
  | { written: true; content: string }
  | { written: false; reason: string };

/**
 * Scores one edit.
 *
 * @param applied What the tool did (a refusal that still changed the file
 *   must be reported as a write of what it left).
 * @param expected The correct result, or `null` when only a refusal is right.
 * @returns The outcome.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { score } from "./checker.ts";
 * assert.equal(score({ written: true, content: "a\nB\n" }, "a\nB\n"), "CORRECT");
 * assert.equal(score({ written: false, reason: "stale" }, "a\nB\n"), "REFUSED");
 * assert.equal(score({ written: true, content: "a\nb\n" }, null), "WRONG");
 * ```
 */
export function score(applied: Applied, expected: string | null): Outcome {
  if (!applied.written) return "REFUSED";
  return expected !== null && applied.content === expected
    ? "CORRECT"
    : "WRONG";
}

/** A drift trial's score, and whether it needed the restyle allowance. */
export interface DriftScore {
  /** The outcome. */
  outcome: Outcome;
  /**
   * `true` when the result counts as CORRECT only because the fix's own new
   * lines kept the style they were written in (the `reformat` drift).
   */
  restyled: boolean;
}

/**
 * Scores one edit after a drift: as {@link score}, except that after a
 * drift that restyled the file, a result whose only difference from the
 * expected file is the style of the fix's own new lines is CORRECT too
 * (reported apart, as `restyled`).
 *
 * @param applied What the tool did.
 * @param drifted The drift's expected result and its restyle test.
 * @returns The outcome, and whether the allowance was needed.
 */
export async function scoreDrift(
  applied: Applied,
  drifted: {
    expected: string | null;
    restyled?: (content: string) => Promise<boolean>;
  },
): Promise<DriftScore> {
  const outcome = score(applied, drifted.expected);
  if (
    outcome === "WRONG" && applied.written && drifted.expected !== null &&
    drifted.restyled && await drifted.restyled(applied.content)
  ) {
    return { outcome: "CORRECT", restyled: true };
  }
  return { outcome, restyled: false };
}
