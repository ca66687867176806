/**
 * Zod schemas of every tool's input, the JSON Schemas shown to models are
 * generated from them, and the normalisation of the few shapes a tool
 * accepts in more than one spelling. What a model is shown is kept lean
 * (tool definitions go with every request): one op object defined once,
 * short field descriptions, the patch field as the text form; the handler
 * checks each op's own shape and takes the JSON form of a patch too.
 *
 * @module
 */
import * as z from "zod";
import {
  ENTRY_OP_NAMES,
  EntryOpSchema,
  type FileEntry,
  FileEntrySchema,
  FilePatchSchema,
  PatchEntriesSchema,
  PatchOpSchema,
  PatchSchema,
  requireOps,
} from "../patch/schema.ts";
import type { EntryOp, FilePatch, Patch, PatchOp } from "../patch/types.ts";
import { CHECK_MODES, type CheckMode } from "../check/modes.ts";
import { showAs } from "./validate.ts";

/** Most lines one read window may show over the tools and HTTP. */
export const MAX_READ_LINES = 10_000;

const path = z.string().min(1).describe("File path");
const ref = z.string().min(1).describe("Ref or handle");
// Syntax check after the edit (docs/syntax-checks.md): one short optional enum.
const check = z.enum(CHECK_MODES as [CheckMode, ...CheckMode[]]).optional()
  .describe("Syntax check");
const anchor = (what: string) => z.string().optional().describe(what);

/**
 * One op as a model is shown it: a single object whose `op` names the kind,
 * defined once (`$defs/op`) and referenced wherever ops go. Each op is then
 * checked against its own shape (`PatchOpSchema`), so a field that does not
 * belong to the op, or one it lacks, is named in the refusal.
 */
const ShownOp = z.strictObject({
  op: z.enum(ENTRY_OP_NAMES as [EntryOp["op"], ...EntryOp["op"][]])
    .describe("Kind"),
  start: anchor("First line"),
  end: anchor("Last line"),
  anchor: anchor("Insert next to"),
  lines: z.array(z.string()).optional().describe("New lines"),
  literal: z.boolean().optional().describe("Keep N:HH| prefixes"),
  after: anchor("Move after"),
  before: anchor("Move before"),
  to: z.string().optional().describe("Move to file"),
}).meta({ id: "op" });
const op: z.ZodType<EntryOp> = ShownOp.pipe(
  EntryOpSchema as z.ZodType<EntryOp, z.output<typeof ShownOp>>,
);
/** Ops of a revision: line edits only (a revision is one source). */
const lineOp: z.ZodType<PatchOp> = ShownOp.pipe(
  PatchOpSchema as unknown as z.ZodType<PatchOp, z.output<typeof ShownOp>>,
);

/** The text form, or (accepted, not advertised) the JSON form of a patch. */
const patchField = (what: string) =>
  showAs(
    z.union([z.string(), PatchSchema, FilePatchSchema], {
      error:
        'expected the text form (a string) or the JSON form ({ "files": [{ "path", "ops" }] })',
    }),
    { type: "string", description: what },
  );
/** {@link patchField} for the workspace: file entries may move lines and create, delete or rename files. */
const entriesField = (what: string) =>
  showAs(
    z.union([
      z.string(),
      PatchEntriesSchema,
      FileEntrySchema,
    ], {
      error:
        'expected the text form (a string) or the JSON form ({ "files": [{ "path", "ops" }] })',
    }),
    { type: "string", description: what },
  );
const lineLimit = z.number().int().min(1).max(MAX_READ_LINES);

/** `read_file` input. */
export interface ReadFileInput {
  path: string;
  offset?: number;
  limit?: number;
  outline?: boolean;
  /** `"lean"`: lines as `LINE|content`, edited by number (default: the registry's). */
  anchors?: "hash" | "lean";
}
/** `read_file` input schema. */
export const ReadFileInputSchema: z.ZodType<ReadFileInput> = z.object({
  path,
  offset: z.number().int().min(1).optional().describe("First line (1-based)"),
  limit: lineLimit.optional().describe(
    `Lines (default 2000, max ${MAX_READ_LINES})`,
  ),
  outline: z.boolean().optional().describe("Declarations only"),
  anchors: z.enum(["hash", "lean"]).optional().describe(
    "lean: LINE|content, edit by line number",
  ),
});

/** `edit_file` input in hashline mode. */
export interface HashlineEditInput {
  path?: string;
  ops?: EntryOp[];
  files?: FileEntry[];
  patch?: string | Patch | FilePatch | { files: FileEntry[] } | FileEntry;
  dryRun?: boolean;
  rebase?: boolean;
  check?: CheckMode;
}
/** `edit_file` input schema in hashline mode. */
export const HashlineEditInputSchema: z.ZodType<HashlineEditInput> = z.object({
  path: path.optional(),
  ops: z.array(op).optional().describe("Ops on path"),
  files: z.array(
    z.object({
      path,
      ops: z.array(op).optional().describe("Ops"),
      create: z.boolean().optional().describe("New file"),
      delete: z.boolean().optional().describe("Delete file"),
      rename: z.string().optional().describe("New path"),
    }).superRefine(requireOps),
  ).optional().describe("Several files"),
  patch: entriesField("Text form").optional(),
  dryRun: z.boolean().optional().describe("Preview only"),
  rebase: z.boolean().optional().describe("Follow moved lines"),
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
const replaceFields = {
  old_string: z.string().min(1).describe("Exact text to replace"),
  new_string: z.string().describe("Replacement (may be empty)"),
  replace_all: z.boolean().optional().describe("Replace every occurrence"),
};

/** `edit_file` input schema in str_replace mode. */
export const StrReplaceEditInputSchema: z.ZodType<StrReplaceEditInput> = z
  .preprocess(
    (v) => aliasKeys(v, REPLACE_KEYS),
    z.object({ path, ...replaceFields, check }),
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
  content: z.string().describe("The whole new content"),
  check,
});

/** `source_put` input. */
export interface SourcePutInput {
  source: string;
  check?: CheckMode;
}
/** `source_put` input schema. */
export const SourcePutInputSchema: z.ZodType<SourcePutInput> = z.object({
  source: z.string().describe("Source text"),
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
    "LINE:HH|content lines (offset, limit count lines)",
  ),
  query: z.string().optional().describe("Text to find"),
  offset: z.number().int().min(0).optional().describe("Start (nextOffset)"),
  limit: z.number().int().min(1).max(16000).optional().describe(
    "Chars (default 8000) or lines",
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
  z.object(replaceFields),
);
/** `source_edit` input schema. */
export const SourceEditInputSchema: z.ZodType<SourceEditInput> = z.object({
  ref,
  edits: z.array(EditItemSchema).min(1).describe("Applied in order"),
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
  ops: z.array(lineOp).optional().describe("Ops"),
  patch: patchField("Text form, no @@ line").optional(),
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
  path: path.describe("New file (never overwritten)"),
});

const glob = z.string().min(1).optional().describe("Glob (default all)");

/** `list_files` input. */
export interface ListFilesInput {
  /** Which paths (default every file). */
  glob?: string;
}
/** `list_files` input schema (also the body of `POST /v1/files/list`). */
export const ListFilesInputSchema: z.ZodType<ListFilesInput> = z.object({
  glob,
});

/** `search_files` input. */
export interface SearchFilesInput {
  /** A regular expression tested on each line. */
  pattern: string;
  /** Which files (default every file). */
  glob?: string;
}
/** `search_files` input schema (also the body of `POST /v1/files/search`). */
export const SearchFilesInputSchema: z.ZodType<SearchFilesInput> = z.object({
  pattern: z.string().min(1).describe("Regex"),
  glob,
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
