/**
 * The machine-readable summary a bench prints when run with `--json`: one
 * last line `RESULT {json}`, which `bench/all.ts` reads. Without the flag
 * nothing is added, so a bench's own output stays as it was.
 *
 * @module
 */
import process from "node:process";

/** What the summary line starts with. */
export const RESULT_PREFIX = "RESULT ";

/**
 * Whether this process was asked for a summary (`--json` among its arguments).
 *
 * @returns True with `--json`.
 */
export function wantsSummary(): boolean {
  return process.argv.includes("--json");
}

/**
 * Prints `RESULT {"bench": name, ...data}` when `--json` was given.
 *
 * @param bench The bench's name, checked by the reader.
 * @param data Its figures, JSON-serialisable.
 */
export function printSummary(
  bench: string,
  data: Record<string, unknown>,
): void {
  if (wantsSummary()) {
    console.log(RESULT_PREFIX + JSON.stringify({ bench, ...data }));
  }
}
