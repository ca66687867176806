/**
 * Markdown structure without a grammar: ATX headings outside fenced code
 * open sections, each running to the line before the next heading of the
 * same or higher level, or to the end of the file.
 *
 * @module
 */

/** A heading: its 1-based line and level (1–6). */
export interface Heading {
  /** 1-based line. */
  line: number;
  /** 1 for `#`, 6 for `######`. */
  level: number;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Every ATX heading outside fenced code, in order.
 *
 * @param lines The file's lines.
 * @returns The headings.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownHeadings } from "./markdown.ts";
 * assert.deepEqual(markdownHeadings(["# A", "~~~", "# no", "~~~", "## B"]), [
 *   { line: 1, level: 1 },
 *   { line: 5, level: 2 },
 * ]);
 * ```
 */
export function markdownHeadings(lines: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (
        f && f[1][0] === fence[0] && f[1].length >= fence.length &&
        line.trim() === f[1]
      ) fence = null;
      continue;
    }
    if (f && !(f[1][0] === "`" && line.slice(f[0].length).includes("`"))) {
      fence = f[1];
      continue;
    }
    const h = ATX.exec(line);
    if (h) out.push({ line: i + 1, level: h[1].length });
  }
  return out;
}

/**
 * The section a heading opens: from its line to the line before the next
 * heading of the same or higher level (or the last line).
 *
 * @param lines The file's lines.
 * @param line 1-based line of the heading.
 * @returns The section's last line, or null when `line` is no heading.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdownSectionEnd } from "./markdown.ts";
 * const doc = ["# A", "text", "## B", "more", "# C"];
 * assert.equal(markdownSectionEnd(doc, 1), 4);
 * assert.equal(markdownSectionEnd(doc, 3), 4);
 * assert.equal(markdownSectionEnd(doc, 2), null);
 * ```
 */
export function markdownSectionEnd(
  lines: readonly string[],
  line: number,
): number | null {
  const headings = markdownHeadings(lines);
  const at = headings.findIndex((h) => h.line === line);
  if (at < 0) return null;
  const level = headings[at].level;
  const next = headings.slice(at + 1).find((h) => h.level <= level);
  return next ? next.line - 1 : lines.length;
}

/**
 * Whether a path names a Markdown file (`.md`, `.markdown`).
 *
 * @param path A file path.
 * @returns True for Markdown.
 */
export function isMarkdown(path: string): boolean {
  return /\.(?:md|markdown)$/i.test(path);
}
