/**
 * The check modes (docs/syntax-checks.md, "Modes"), apart from the checker itself, so that input
 * schemas and routes can name them without loading the engine's modules.
 *
 * @module
 */

/** What a check does with an edit that introduces a syntax error. */
export type CheckMode = "warn" | "refuse" | "off";

/** Every {@link CheckMode}, in one closed list. */
export const CHECK_MODES: readonly CheckMode[] = ["warn", "refuse", "off"];

/**
 * Reads a check mode from an option or parameter.
 *
 * @param value `"warn"`, `"refuse"`, `"off"` or undefined.
 * @param fallback The mode when `value` is undefined (default `"warn"`).
 * @returns The mode.
 * @throws {TypeError} When `value` is something else.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkMode } from "./modes.ts";
 * assert.equal(checkMode(undefined), "warn");
 * assert.equal(checkMode("refuse"), "refuse");
 * assert.throws(() => checkMode("strict"), TypeError);
 * ```
 */
export function checkMode(
  value: unknown,
  fallback: CheckMode = "warn",
): CheckMode {
  if (value === undefined || value === null) return fallback;
  if (CHECK_MODES.includes(value as CheckMode)) return value as CheckMode;
  throw new TypeError(
    `Cannot check syntax: check must be "warn", "refuse" or "off", got ${
      JSON.stringify(value)
    }.`,
  );
}
