/**
 * Which dialect a patch text is written in (docs/patch-format.md#other-dialects),
 * told by its first non-blank line alone — `*** Begin Patch` for
 * `apply_patch`, `diff --git` or `--- ` for a unified diff, anything else
 * hashline's own forms — never guessed line by line.
 *
 * @module
 */
import { parseApplyPatch } from "./apply_patch.ts";
import type { DialectName, DialectPatch } from "./types.ts";
import { parseUnifiedDiff } from "./unified_diff.ts";

/**
 * The dialect of a patch text, from its first non-blank line.
 *
 * @param text Patch text (after any Markdown fence is taken off).
 * @returns `"apply_patch"`, `"unified_diff"`, or null for hashline's forms.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectDialect } from "./detect.ts";
 * assert.equal(detectDialect("\n*** Begin Patch\n"), "apply_patch");
 * assert.equal(detectDialect("diff --git a/x b/x\n"), "unified_diff");
 * assert.equal(detectDialect("--- a/x\n+++ b/x\n"), "unified_diff");
 * assert.equal(detectDialect("@@ x\n- 1:aa\n"), null);
 * ```
 */
export function detectDialect(text: string): DialectName | null {
  const first = /^(?:[ \t]*\r?\n)*([^\n]*)/.exec(text)![1].replace(/\r$/, "");
  if (first.trim() === "*** Begin Patch") return "apply_patch";
  if (first.startsWith("diff --git ") || first.startsWith("--- ")) {
    return "unified_diff";
  }
  return null;
}

/**
 * Parses a text written in another dialect, or answers null for hashline's
 * own forms.
 *
 * @param text Patch text (after any Markdown fence is taken off).
 * @param firstLine The number of the text's first line in what was sent.
 * @returns The parsed dialect patch, or null.
 * @throws {SyntaxError} A dialect text that cannot be parsed (naming the line).
 */
export function parseDialect(
  text: string,
  firstLine = 1,
): DialectPatch | null {
  switch (detectDialect(text)) {
    case "apply_patch":
      return parseApplyPatch(text, firstLine);
    case "unified_diff":
      return parseUnifiedDiff(text, firstLine);
    default:
      return null;
  }
}
