/**
 * Zod schemas of what each tool returns as structured data. MCP declares
 * their JSON Schemas as `outputSchema`, and every result is passed through
 * its schema before it leaves, so the `structuredContent` a client gets
 * always matches what was declared.
 *
 * @module
 */
import { z } from "zod";

const path = z.string().describe("Root-relative path with / separators.");
const ref = z.string().describe('Full ref, "sha256:" + 64 hex.');
const handle = z.string().describe('Short handle, "p_" + hex.');
const nextOffset = z.number().int().nullable().describe(
  "Where the next window starts, or null at the end.",
);
const diff = z.string().describe('Unified diff ("" when nothing changed).');
const entry = z.string().optional().describe(
  "History entry of the change (h_N), for undo_edit.",
);
/** One syntax check (src/check), as the checker answered it. */
const syntaxCheck = z.object({
  path: z.string(),
  language: z.string(),
  status: z.string().describe('"ok", "broken" or "skipped".'),
  errors: z.array(z.object({
    line: z.number().int(),
    column: z.number().int(),
    anchor: z.string(),
    message: z.string(),
    context: z.string(),
  })),
  note: z.string().optional(),
  reused: z.boolean(),
});
const checks = z.array(syntaxCheck).describe(
  "Syntax checks of edited files.",
);
const check = syntaxCheck.optional().describe(
  "Syntax check, when it found errors or did not run.",
);

/** An anchored window (`read_file`, and `source_read` with anchors). */
const windowFields = {
  text: z.string().describe("LINE:HH|content lines joined with \\n."),
  totalLines: z.number().int().describe("Lines in the whole file or source."),
  startLine: z.number().int().describe("First line shown."),
  endLine: z.number().int().describe(
    "Last line shown (startLine - 1 when none).",
  ),
  nextOffset,
};

/** `read_file` result. */
export const ReadFileOutput = z.object({
  path,
  ...windowFields,
  outline: z.boolean().optional().describe("The view is an outline."),
  note: z.string().optional().describe("Why an outline was read plainly."),
});

/** `edit_file` result in hashline mode. */
export const PatchOutput = z.object({
  dryRun: z.boolean().describe("True when nothing was written."),
  files: z.array(z.object({
    path,
    added: z.number().int().describe("Lines written (new or replacing)."),
    removed: z.number().int().describe("Lines removed (deleted or replaced)."),
    created: z.boolean().describe("The patch created the file."),
    anchors: z.string().describe(
      "Fresh anchors of each changed region, ±2 lines.",
    ),
    diff,
  })).describe("One entry per file, in patch order."),
  rebased: z.array(z.string()).describe(
    "Ops applied where their lines moved to (op 2: lines 40–42 → 43–45).",
  ),
  warnings: z.array(z.string()).describe(
    "Things that did not stop the commit but that the caller should know.",
  ),
  checks,
  entry,
});

/** `edit_file` result in str_replace mode. */
export const StrReplaceOutput = z.object({
  path,
  replaced: z.number().int().describe("Occurrences replaced."),
  added: z.number().int().describe("Lines added, as the diff counts them."),
  removed: z.number().int().describe("Lines removed, as the diff counts them."),
  diff,
  checks,
  entry,
});

/** `write_file` result. */
export const WriteOutput = z.object({
  path,
  created: z.boolean().describe("The file did not exist before."),
  added: z.number().int().describe("Lines added, as the diff counts them."),
  removed: z.number().int().describe("Lines removed, as the diff counts them."),
  totalLines: z.number().int().describe("Lines in the new content."),
  diff,
  checks,
  entry,
});

/** `source_put` result. */
export const PutOutput = z.object({ ref, handle, check });

/** `source_read` result: a window of characters, or with anchors a window of lines. */
export const SourceReadOutput = z.object({
  ref,
  handle: handle.optional(),
  anchors: z.boolean().describe("True for a LINE:HH|content window."),
  found: z.boolean().optional().describe(
    "Character window: false when a query had no match.",
  ),
  code: z.string().optional().describe("Character window: the text."),
  offset: z.number().int().optional().describe(
    "Character window: UTF-16 offset of its first unit.",
  ),
  totalChars: z.number().int().optional().describe(
    "Character window: length of the whole source.",
  ),
  text: windowFields.text.optional(),
  totalLines: windowFields.totalLines.optional(),
  startLine: windowFields.startLine.optional(),
  endLine: windowFields.endLine.optional(),
  nextOffset,
});

/** `source_edit` and `source_patch` result. */
export const RevisionOutput = z.object({
  ref,
  handle,
  parentRef: z.string().describe("The revision the edit was applied to."),
  diff: z.string().describe(
    "Unified diff from the parent (at most 8000 chars).",
  ),
  diffTruncated: z.boolean().describe("True when diff was cut to fit."),
  check,
});

/** `source_export` result. */
export const ExportOutput = z.object({
  ref,
  path,
  bytes: z.number().int().describe("Bytes written."),
});
