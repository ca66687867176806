/**
 * Which dialect a patch text is written in, by its first non-blank line
 * alone (docs/patch-format.md#other-dialects). Apart from the parsers, so
 * that what only needs to tell (a syntax check priming a patch's files)
 * loads none of them.
 *
 * @module
 */
import type { DialectName } from "./types.ts";

/**
 * The dialect of a patch text, from its first non-blank line.
 *
 * @param text Patch text (after any Markdown fence is taken off).
 * @returns `"apply_patch"`, `"unified_diff"`, or null for hashline's forms.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectDialect } from "./sniff.ts";
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
