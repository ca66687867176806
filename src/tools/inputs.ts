/**
 * Zod schemas of every tool's input, the JSON Schemas shown to models are
 * generated from them, and the normalisation of the few shapes a tool
 * accepts in more than one spelling.
 *
 * @module
 */
import * as z from "zod";
import {
  FilePatchSchema,
  PatchOpSchema,
  PatchSchema,
} from "../patch/schema.ts";
import type { FilePatch, Patch, PatchOp } from "../patch/types.ts";
import { CHECK_MODES, type CheckMode } from "../check/modes.ts";

/** Most lines one read window may show over the tools and HTTP. */
export const MAX_READ_LINES = 10_000;

const path = z.string().min(1).describe(
  "File path relative to the workspace root, e.g. src/app.ts.",
);
const ref = z.string().min(1).describe(
  'A revision ref ("sha256:…") or its short handle ("p_…"), as returned by source_put, source_edit or source_patch.',
);
const ops = z.array(PatchOpSchema).describe(
  'Operations on one file, every line named by its anchor "LINE:HH" from the latest read, e.g. {"op":"replace","start":"12:a3","end":"14:0e","lines":["const x = 1;"]}.',
);
const textPatch = z.string().describe(
  "The same patch in compact text form: `@@ PATH` starts a file; `= A` or `= A..B` replace, `- A` or `- A..B` delete, `+ A` insert after, `< A` insert before, bare `+` append, bare `<` prepend; every following `~` line is one new line, verbatim after the `~`.",
);
const patchField = z.union([
  textPatch,
  PatchSchema.describe('The JSON form: { "files": [{ "path", "ops" }] }.'),
  FilePatchSchema.describe('The JSON form of one file: { "path", "ops" }.'),
]).describe(
  "The whole patch, in text form (a string) or JSON form ({ files: [{ path, ops }] } or { path, ops }).",
);
// Syntax check after the edit (DESIGN §11); one short optional enum keeps the tool definitions small.
const check = z.enum(CHECK_MODES as [CheckMode, ...CheckMode[]]).optional()
  .describe("Syntax check (default warn).");
const lineLimit = z.number().int().min(1).max(MAX_READ_LINES).describe(
  `How many lines to show (default 2000, at most ${MAX_READ_LINES}).`,
);

/** `read_file` input. */
export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
}
/** `read_file` input schema. */
export const ReadFileInputSchema: z.ZodType<ReadFileInput> = z.object({
  path,
  offset: z.number().int().min(1).optional().describe(
    "First line to show, 1-based (default 1). Use the next offset a previous read reported to continue.",
  ),
  limit: lineLimit.optional(),
});

/** `edit_file` input in hashline mode. */
export interface HashlineEditInput {
  path?: string;
  ops?: PatchOp[];
  files?: FilePatch[];
  patch?: string | Patch | FilePatch;
  dryRun?: boolean;
  rebase?: boolean;
  check?: CheckMode;
}
/** `edit_file` input schema in hashline mode. */
export const HashlineEditInputSchema: z.ZodType<HashlineEditInput> = z.object({
  path: path.optional().describe(
    "The file to edit, with `ops` (or with a text `patch` that has no `@@` line).",
  ),
  ops: ops.optional(),
  files: z.array(FilePatchSchema).optional().describe(
    "Several files in one all-or-nothing patch: [{ path, ops }, …].",
  ),
  patch: patchField.optional(),
  dryRun: z.boolean().optional().describe(
    "Validate and show the diff without writing anything.",
  ),
  rebase: z.boolean().optional().describe(
    "Apply an op whose lines only moved (lines were inserted or removed above it) where they now stand, when its read region stands unchanged at exactly one place; the result names each op it moved.",
  ),
  check,
});

/** `edit_file` input in str_replace mode (snake_case; camelCase is accepted too). */
export interface StrReplaceEditInput {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
  check?: CheckMode;
}
/** The camelCase spellings of a string replacement's fields, for aliasKeys. */
const REPLACE_KEYS = {
  oldString: "old_string",
  newString: "new_string",
  replaceAll: "replace_all",
};

/** `edit_file` input schema in str_replace mode. */
export const StrReplaceEditInputSchema: z.ZodType<StrReplaceEditInput> = z
  .preprocess(
    (v) => aliasKeys(v, REPLACE_KEYS),
    z.object({
      path,
      old_string: z.string().min(1).describe(
        "Exact text to replace, copied from the file without line numbers; it must occur exactly once unless replace_all is true. Include enough surrounding lines to make it unique.",
      ),
      new_string: z.string().describe(
        "The text to put in its place (may be empty to delete).",
      ),
      replace_all: z.boolean().optional().describe(
        "Replace every occurrence of old_string instead of requiring exactly one.",
      ),
      check,
    }),
  ) as unknown as z.ZodType<StrReplaceEditInput>;

/** `write_file` input. */
export interface WriteFileInput {
  path: string;
  content: string;
  check?: CheckMode;
}
/** `write_file` input schema. */
export const WriteFileInputSchema: z.ZodType<WriteFileInput> = z.object({
  path,
  content: z.string().describe("The whole new content of the file."),
  check,
});

/** `source_put` input. */
export interface SourcePutInput {
  source: string;
  check?: CheckMode;
}
/** `source_put` input schema. */
export const SourcePutInputSchema: z.ZodType<SourcePutInput> = z.object({
  source: z.string().describe("The full source text to store (at most 1 MiB)."),
  check,
});

/** `source_read` input. */
export interface SourceReadInput {
  ref: string;
  anchors?: boolean;
  query?: string;
  offset?: number;
  limit?: number;
}
/** `source_read` input schema. */
export const SourceReadInputSchema: z.ZodType<SourceReadInput> = z.object({
  ref,
  anchors: z.boolean().optional().describe(
    "Show lines as LINE:HH|content (for source_patch); then offset and limit count lines (offset from 1, limit default 2000, at most 10000). Default false: a window of characters.",
  ),
  query: z.string().optional().describe(
    "Text to look for; the window of characters around its first match is returned (not with anchors).",
  ),
  offset: z.number().int().min(0).optional().describe(
    "Where to start: a character offset (default 0), or with anchors a 1-based line. Use the nextOffset of a previous read to continue.",
  ),
  limit: z.number().int().min(1).max(16000).optional().describe(
    "How many characters to return (default 8000, at most 16000), or with anchors how many lines (default 2000, at most 10000).",
  ),
});

/** One replacement of `source_edit` (snake_case; camelCase is accepted too). */
export interface SourceEditItem {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}
/** `source_edit` input. */
export interface SourceEditInput {
  ref: string;
  edits: SourceEditItem[];
  check?: CheckMode;
}
/** One `source_edit` replacement, snake_case or camelCase. */
export const EditItemSchema: z.ZodType<SourceEditItem> = z.preprocess(
  (v) => aliasKeys(v, REPLACE_KEYS),
  z.object({
    old_string: z.string().min(1).describe(
      "Exact text to replace; it must occur exactly once unless replace_all is true.",
    ),
    new_string: z.string().describe(
      "Replacement text (may be empty to delete).",
    ),
    replace_all: z.boolean().optional().describe("Replace every occurrence."),
  }),
);
/** `source_edit` input schema. */
export const SourceEditInputSchema: z.ZodType<SourceEditInput> = z.object({
  ref,
  edits: z.array(EditItemSchema).min(1).describe(
    "Replacements applied in order to the revision, all or nothing; the result is a new revision and the base never changes.",
  ),
  check,
}) as unknown as z.ZodType<SourceEditInput>;

/** `source_patch` input. */
export interface SourcePatchInput {
  ref: string;
  ops?: PatchOp[];
  patch?: string | Patch | FilePatch;
  check?: CheckMode;
}
/** `source_patch` input schema. */
export const SourcePatchInputSchema: z.ZodType<SourcePatchInput> = z.object({
  ref,
  ops: ops.optional().describe(
    'Operations naming lines by anchor "LINE:HH" of the revision (its anchors never go stale).',
  ),
  patch: patchField.optional(),
  check,
});

/** `source_export` input. */
export interface SourceExportInput {
  ref: string;
  path: string;
}
/** `source_export` input schema. */
export const SourceExportInputSchema: z.ZodType<SourceExportInput> = z.object({
  ref,
  path: path.describe(
    "New file to create, relative to the workspace root; an existing file is never overwritten.",
  ),
});

/**
 * Renames alternative spellings of keys to the canonical ones, so a model
 * writing `oldString` where `old_string` is documented still gets through.
 */
function aliasKeys(value: unknown, aliases: Record<string, string>): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return value;
  }
  const out: Record<string, unknown> = {
    ...(value as Record<string, unknown>),
  };
  for (const [from, to] of Object.entries(aliases)) {
    if (from in out && !(to in out)) out[to] = out[from];
    delete out[from];
  }
  return out;
}
