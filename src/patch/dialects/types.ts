/**
 * Other edit dialects as parsed (docs/patch-format.md#other-dialects):
 * Codex's `apply_patch` and unified diffs, read into one shape of files and
 * hunks. Nothing here is anchored yet: a hunk names lines by their text, and
 * the compiler (`compile.ts`) locates it in what the session was shown.
 *
 * @module
 */

/** The dialects other than hashline's own forms. */
export type DialectName = "apply_patch" | "unified_diff";

/** One row of a hunk: kept (` `), removed (`-`) or added (`+`). */
export interface HunkRow {
  /** ` ` context, `-` removed, `+` added. */
  kind: " " | "-" | "+";
  /** The line, without its terminator. */
  text: string;
}

/** One hunk (`@@` chunk) of an edited file. */
export interface DialectHunk {
  /** The rows in order. */
  rows: HunkRow[];
  /** apply_patch's `@@ context` line: the hunk stands after a line that reads exactly this. */
  header?: string;
  /** The hunk ends at the end of the file (`*** End of File`). */
  atEnd?: boolean;
  /** The hunk's first old line as the diff numbers it (`@@ -l,n`), when given. */
  oldStart?: number;
  /** The 1-based line of the patch text where the hunk starts (for messages). */
  line: number;
}

/** One file of a dialect patch. */
export interface DialectFile {
  /** `update` edits by hunks; `add` creates the file; `delete` removes it. */
  kind: "update" | "add" | "delete";
  /** Path relative to the workspace root. */
  path: string;
  /** The new path (`*** Move to:`, `rename to`). */
  moveTo?: string;
  /** The hunks of an update (also the removed lines of a unified diff's delete). */
  hunks: DialectHunk[];
  /** The lines of an added file. */
  lines?: string[];
  /** The 1-based line of the patch text where the file starts (for messages). */
  line: number;
}

/** A patch in another dialect, parsed. */
export interface DialectPatch {
  /** Which dialect it was written in. */
  name: DialectName;
  /** The files in the order given. */
  files: DialectFile[];
}

/** How a result names each dialect: `(apply_patch)`, `(unified diff)`. */
export const DIALECT_LABELS: Readonly<Record<DialectName, string>> = {
  apply_patch: "apply_patch",
  unified_diff: "unified diff",
};
