/**
 * Anchored patches (docs/patch-format.md): parsing the JSON and text forms,
 * validating ops against a file as it is now, rebasing ops whose lines only
 * moved, planning and applying them to content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyPatch, parsePatch } from "./mod.ts";
 * assert.equal(applyPatch("x\ny\n", "= 2:4a\n~Y"), "x\nY\n");
 * const patch = parsePatch("@@ notes.txt\n= 2:4a\n~Y");
 * assert.equal(applyPatch("x\ny\n", patch), "x\nY\n");
 * ```
 *
 * @module
 */

export type {
  AnchorText,
  AppendOp,
  ChangedRegion,
  DeleteOp,
  EntryOp,
  FilePatch,
  InsertAfterOp,
  InsertBeforeOp,
  LineLookup,
  MoveOp,
  Patch,
  PatchOp,
  PlannedEdit,
  PrependOp,
  ReadMemory,
  ReplaceOp,
} from "./types.ts";
export type { FileEntry } from "./schema.ts";
export {
  AppendOpSchema,
  DeleteOpSchema,
  EntryOpSchema,
  FileEntrySchema,
  FilePatchSchema,
  InsertAfterOpSchema,
  InsertBeforeOpSchema,
  MoveOpSchema,
  PatchEntriesSchema,
  PatchOpSchema,
  PatchSchema,
  type PatchShape,
  PrependOpSchema,
  ReplaceOpSchema,
  type ShapeResult,
} from "./shapes.ts";
export { formatPatchText, type ParseOptions, parsePatch } from "./parse.ts";
export type {
  DialectFile,
  DialectHunk,
  DialectName,
  DialectPatch,
  HunkRow,
} from "./dialects/types.ts";
export { detectDialect } from "./dialects/detect.ts";
export { type Problem, validateOps, type ValidateOptions } from "./validate.ts";
export { LineMemory } from "./memory.ts";
export {
  type CommitEdit,
  FileViews,
  MAX_VIEWS,
  type OwnCommit,
  type Translated,
  type View,
  type ViewRun,
} from "./views.ts";
export {
  applyPatch,
  editContent,
  type EditOptions,
  type EditOutcome,
  freshAnchors,
} from "./apply.ts";
export {
  type GapConflict,
  gapProblems,
  type RebasedOp,
  rebaseOps,
  type RebaseOptions,
  type RebaseResult,
} from "./rebase.ts";
export type { Placement } from "./align.ts";
export {
  applyHashlineEdit,
  type HashlineEdit,
  type HashlineEditResult,
} from "./hashline_edit.ts";
