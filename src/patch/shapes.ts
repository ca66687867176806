/**
 * The shapes of the JSON patch form (docs/patch-format.md#json-form) as the
 * public API offers them: each gives a value typed, or says what does not
 * fit. They are the schemas the parser itself uses; their type is the
 * project's own, so no public signature names a validation library's types.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PatchOpSchema } from "./shapes.ts";
 * const op = PatchOpSchema.parse({ op: "delete", start: "2:4a" });
 * assert.equal(op.op, "delete");
 * assert.equal(PatchOpSchema.safeParse({ op: "move" }).success, false);
 * ```
 *
 * @module
 */
import * as schema from "./schema.ts";
import type {
  AppendOp,
  DeleteOp,
  EntryOp,
  FilePatch,
  InsertAfterOp,
  InsertBeforeOp,
  MoveOp,
  Patch,
  PatchOp,
  PrependOp,
  ReplaceOp,
} from "./types.ts";

/** What {@link PatchShape.safeParse} gives: the typed value, or the error. */
export type ShapeResult<T> =
  | { success: true; data: T }
  | { success: false; error: Error };

/** A check of one shape of the JSON patch form. */
export interface PatchShape<T> {
  /** Gives `input` typed; throws when it does not have the shape. */
  parse(input: unknown): T;
  /** Gives `input` typed, or the error naming what does not fit, without throwing. */
  safeParse(input: unknown): ShapeResult<T>;
}

/** `{ op: "replace", start, end?, lines, literal? }`. */
export const ReplaceOpSchema: PatchShape<ReplaceOp> = schema.schemaOf(
  "replace",
);
/** `{ op: "delete", start, end? }`. */
export const DeleteOpSchema: PatchShape<DeleteOp> = schema.schemaOf("delete");
/** `{ op: "insert_after", anchor, lines, literal? }`. */
export const InsertAfterOpSchema: PatchShape<InsertAfterOp> = schema.schemaOf(
  "insert_after",
);
/** `{ op: "insert_before", anchor, lines, literal? }`. */
export const InsertBeforeOpSchema: PatchShape<InsertBeforeOp> = schema.schemaOf(
  "insert_before",
);
/** `{ op: "append", lines, literal? }`. */
export const AppendOpSchema: PatchShape<AppendOp> = schema.schemaOf("append");
/** `{ op: "prepend", lines, literal? }`. */
export const PrependOpSchema: PatchShape<PrependOp> = schema.schemaOf(
  "prepend",
);
/** Any one operation, told apart by its `op` field; unknown fields are refused. */
export const PatchOpSchema: PatchShape<PatchOp> = schema.PatchOpSchema;
/** `{ path, ops }`. */
export const FilePatchSchema: PatchShape<FilePatch> = schema.FilePatchSchema;
/** `{ files: [{ path, ops }] }`. */
export const PatchSchema: PatchShape<Patch> = schema.PatchSchema;
/** `{ op: "move" | "copy", start, end?, after? | before?, to? }`. */
export const MoveOpSchema: PatchShape<MoveOp> = schema.MoveOpSchema;
/** Any one operation of a file entry: a line operation, a move or a copy. */
export const EntryOpSchema: PatchShape<EntryOp> = schema.EntryOpSchema;
/** `{ path, ops?, create?, delete?, rename? }`: one file entry of a patch. */
export const FileEntrySchema: PatchShape<schema.FileEntry> =
  schema.FileEntrySchema;
/** `{ files: [...] }` whose entries may move lines and create, delete or rename files. */
export const PatchEntriesSchema: PatchShape<{ files: schema.FileEntry[] }> =
  schema.PatchEntriesSchema;
