/**
 * Recognising a unified diff sent where a hashline patch was expected, so
 * the refusal says what it saw (docs/patch-format.md "Text form"). While
 * unified diffs are not accepted, {@link unifiedDiffHint} is the one place
 * that decides; accepting them replaces it.
 *
 * @module
 */

/**
 * Whether text reads as a unified diff: a `--- ` line followed by a `+++ `
 * line, or a `diff --git` line, before any hashline `@@ PATH` header.
 *
 * @param text The patch as sent.
 * @returns The sentence to add to the refusal, or null when it does not look like one.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { unifiedDiffHint } from "./_unified.ts";
 * assert.match(unifiedDiffHint("--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n")!, /unified diff/);
 * assert.equal(unifiedDiffHint("@@ x.ts\n= 1:ab\n~b\n"), null);
 * ```
 */
export function unifiedDiffHint(text: string): string | null {
  const rows = text.split("\n").map((r) => r.replace(/\r$/, ""));
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (/^@@ [^-@]/.test(row) && !/^@@ -\d/.test(row)) return null;
    const unified = row.startsWith("diff --git ") ||
      (row.startsWith("--- ") && rows[i + 1]?.startsWith("+++ ") === true) ||
      /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/.test(row);
    if (unified) {
      return `This looks like a unified diff (--- / +++ / @@ -N,M +N,M @@), which is not accepted: a hashline patch names the file with "@@ PATH" and its lines by anchors from a read, such as "= 12:a3" followed by "~new text" lines.`;
    }
  }
  return null;
}
