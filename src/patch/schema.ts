/**
 * Zod schemas of the JSON patch form (docs/patch-format.md#json-form). Anchors are checked as
 * strings here; their syntax is reported by validation as `BAD_ANCHOR`, next
 * to every other problem of the patch.
 *
 * @module
 */

import * as z from "zod";
import type {
  AppendOp,
  DeleteOp,
  FilePatch,
  InsertAfterOp,
  InsertBeforeOp,
  Patch,
  PatchOp,
  PrependOp,
  ReplaceOp,
} from "./types.ts";

const anchor = z.string();
const lines = z.array(z.string());
const literal = z.boolean().optional();

const replace = z.strictObject({
  op: z.literal("replace"),
  start: anchor,
  end: anchor.optional(),
  lines,
  literal,
});
const del = z.strictObject({
  op: z.literal("delete"),
  start: anchor,
  end: anchor.optional(),
});
const insertAfter = z.strictObject({
  op: z.literal("insert_after"),
  anchor,
  lines,
  literal,
});
const insertBefore = z.strictObject({
  op: z.literal("insert_before"),
  anchor,
  lines,
  literal,
});
const append = z.strictObject({ op: z.literal("append"), lines, literal });
const prepend = z.strictObject({ op: z.literal("prepend"), lines, literal });

/** The op names a patch may use. */
export const OP_NAMES: readonly PatchOp["op"][] = [
  "replace",
  "delete",
  "insert_after",
  "insert_before",
  "append",
  "prepend",
];

/** `{ op: "replace", start, end?, lines, literal? }`. */
export const ReplaceOpSchema: z.ZodType<ReplaceOp> = replace;
/** `{ op: "delete", start, end? }`. */
export const DeleteOpSchema: z.ZodType<DeleteOp> = del;
/** `{ op: "insert_after", anchor, lines, literal? }`. */
export const InsertAfterOpSchema: z.ZodType<InsertAfterOp> = insertAfter;
/** `{ op: "insert_before", anchor, lines, literal? }`. */
export const InsertBeforeOpSchema: z.ZodType<InsertBeforeOp> = insertBefore;
/** `{ op: "append", lines, literal? }`. */
export const AppendOpSchema: z.ZodType<AppendOp> = append;
/** `{ op: "prepend", lines, literal? }`. */
export const PrependOpSchema: z.ZodType<PrependOp> = prepend;

/** Any one operation, told apart by its `op` field; unknown fields are refused. */
export const PatchOpSchema: z.ZodType<PatchOp> = z.discriminatedUnion("op", [
  replace,
  del,
  insertAfter,
  insertBefore,
  append,
  prepend,
], {
  error: (issue) =>
    issue.code === "invalid_union"
      ? `unknown op: expected one of ${OP_NAMES.join(", ")}`
      : undefined,
});

/** `{ path, ops }`. */
export const FilePatchSchema: z.ZodType<FilePatch> = z.object({
  path: z.string(),
  ops: z.array(PatchOpSchema),
});

/** `{ files: [{ path, ops }] }`. */
export const PatchSchema: z.ZodType<Patch> = z.object({
  files: z.array(FilePatchSchema),
});
