/**
 * Zod schemas of the JSON patch form (docs/patch-format.md#json-form). Anchors are checked as
 * strings here; their syntax is reported by validation as `BAD_ANCHOR`, next
 * to every other problem of the patch.
 *
 * @module
 */

import * as z from "zod";
import type { EntryOp, FilePatch, MoveOp, Patch, PatchOp } from "./types.ts";
import {
  type FieldKind,
  LINE_OPS,
  MOVE_OPS,
  OP_ROWS,
  type OpRow,
  rowOf,
} from "./ops.ts";

const fieldSchema: Record<FieldKind, z.ZodType> = {
  "anchor": z.string(),
  "anchor?": z.string().optional(),
  "lines": z.array(z.string()),
  "flag?": z.boolean().optional(),
  "path?": z.string().optional(),
};

// Each op's schema is its row of the table: the fields it declares, no others.
function shapeOf(row: OpRow) {
  const shape: Record<string, z.ZodType> = {};
  for (const [field, kind] of Object.entries(row.fields)) {
    shape[field] = fieldSchema[kind as FieldKind];
  }
  return z.strictObject({ op: z.literal(row.kind), ...shape });
}

const line = Object.values(LINE_OPS).map(shapeOf);
const moves = Object.values(MOVE_OPS).map(shapeOf);
const byKind = new Map(
  [...line, ...moves].map((s) => [s.shape.op.value as string, s]),
);

/**
 * The schema of one op, built from its row of the op table and typed as the
 * op's interface.
 *
 * @param kind The op's name.
 * @returns Its schema: the row's fields, no others.
 */
export function schemaOf<O extends EntryOp>(kind: O["op"]): z.ZodType<O> {
  return byKind.get(kind) as unknown as z.ZodType<O>;
}

function unionOf(
  members: ReturnType<typeof shapeOf>[],
  names: readonly string[],
) {
  return z.discriminatedUnion(
    "op",
    members as [ReturnType<typeof shapeOf>, ...ReturnType<typeof shapeOf>[]],
    {
      error: (issue) =>
        issue.code === "invalid_union"
          ? `unknown op: expected one of ${names.join(", ")}`
          : undefined,
    },
  );
}

/** The op names a patch may use. */
export const OP_NAMES: readonly PatchOp["op"][] = Object.keys(
  LINE_OPS,
) as PatchOp["op"][];

/** Any one operation, told apart by its `op` field; unknown fields are refused. */
export const PatchOpSchema: z.ZodType<PatchOp> = unionOf(
  line,
  OP_NAMES,
) as unknown as z.ZodType<PatchOp>;

/** `{ path, ops }`. */
export const FilePatchSchema: z.ZodType<FilePatch> = z.object({
  path: z.string(),
  ops: z.array(PatchOpSchema),
});

/** `{ files: [{ path, ops }] }`. */
export const PatchSchema: z.ZodType<Patch> = z.object({
  files: z.array(FilePatchSchema),
});

/** The op names a file entry may use: the line edits, `move` and `copy`. */
export const ENTRY_OP_NAMES: readonly EntryOp["op"][] = OP_ROWS.map((r) =>
  r.kind
);

/** `{ op: "move" | "copy", start, end?, after?, before?, to? }`. */
export const MoveOpSchema: z.ZodType<MoveOp> = z.discriminatedUnion(
  "op",
  moves as [ReturnType<typeof shapeOf>, ...ReturnType<typeof shapeOf>[]],
) as unknown as z.ZodType<MoveOp>;

/** Any op of a file entry (a line edit, a move or a copy); unknown fields are refused. */
export const EntryOpSchema: z.ZodType<EntryOp> = unionOf(
  [...line, ...moves],
  ENTRY_OP_NAMES,
) as unknown as z.ZodType<EntryOp>;

/** A file entry as sent: its ops, or a file operation (docs/patch-format.md, "Moves and file operations"). */
export interface FileEntry {
  /** Path relative to the workspace root. */
  path: string;
  /** Line edits, moves and copies, addressed against the file as read. */
  ops?: EntryOp[];
  /** Create the file (refused when it exists); ops are appends. */
  create?: boolean;
  /** Delete the file (after a read of every line); takes no ops. */
  delete?: boolean;
  /** Rename the file to this path (never over an existing file). */
  rename?: string;
  /** Moves and copies kept apart from `ops` (as {@link toFilePatch} gives them back). */
  moves?: MoveOp[];
}

/**
 * Refuses a file entry that neither has ops nor names a file operation
 * (`ops` is optional only beside `create`, `delete` or `rename`).
 *
 * @param entry The entry's fields.
 * @param ctx The refinement context the issue goes to.
 */
export function requireOps(
  entry: {
    ops?: unknown;
    moves?: unknown;
    create?: unknown;
    delete?: unknown;
    rename?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  if (
    entry.ops === undefined && entry.moves === undefined &&
    entry.create === undefined && entry.delete === undefined &&
    entry.rename === undefined
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["ops"],
      message: "missing: give ops, or create, delete or rename",
    });
  }
}

/** `{ path, ops?, create?, delete?, rename? }`. */
const entryFields = {
  path: z.string(),
  ops: z.array(EntryOpSchema).optional(),
  create: z.boolean().optional(),
  delete: z.boolean().optional(),
  rename: z.string().optional(),
  moves: z.array(MoveOpSchema).optional(),
};
export const FileEntrySchema: z.ZodType<FileEntry> = z.object(entryFields)
  .superRefine(requireOps);

/** A file entry sent alone (`{ path?, ops }`): its path may be left out. */
export const LooseFileEntrySchema: z.ZodType<
  Omit<FileEntry, "path"> & { path?: string }
> = z.object({ ...entryFields, path: z.string().optional() });

/** `{ files: [{ path, ops?, create?, delete?, rename? }] }`. */
export const PatchEntriesSchema: z.ZodType<{ files: FileEntry[] }> = z.object({
  files: z.array(FileEntrySchema),
});

/**
 * One file entry as sent, split into its line edits (`ops`), its moves and
 * copies (`moves`) and its file operation.
 *
 * @param entry A checked entry.
 * @returns The entry as a {@link FilePatch}.
 */
export function toFilePatch(entry: FileEntry): FilePatch {
  const ops: PatchOp[] = [];
  const moves: MoveOp[] = [];
  for (const op of [...(entry.ops ?? []), ...(entry.moves ?? [])]) {
    if (rowOf(op).region === "source") moves.push(op as MoveOp);
    else ops.push(op as PatchOp);
  }
  const out: FilePatch = { path: entry.path, ops };
  if (moves.length > 0) out.moves = moves;
  if (entry.create === true) out.create = true;
  if (entry.delete === true) out.delete = true;
  if (entry.rename !== undefined) out.rename = entry.rename;
  return out;
}
