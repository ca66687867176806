/**
 * A patch text in another dialect, parsed (docs/patch-format.md#other-dialects).
 * Which dialect it is comes from its first non-blank line alone
 * (`detectDialect`, in `sniff.ts`) — `*** Begin Patch` for `apply_patch`,
 * `diff --git` or `--- ` for a unified diff, anything else hashline's own
 * forms — never guessed line by line.
 *
 * @module
 */
import { parseApplyPatch } from "./apply_patch.ts";
import { detectDialect } from "./sniff.ts";
import type { DialectPatch } from "./types.ts";
import { parseUnifiedDiff } from "./unified_diff.ts";

export { detectDialect };

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
