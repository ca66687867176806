/**
 * The op table (docs/patch-format.md#operations): one row per op, declaring
 * its fields, which of them are anchors, the region of the file as read it
 * covers (or the gap it inserts into), the field a block anchor may stand
 * in, its text-form symbol and how messages name it. Parsing, the schemas,
 * validation, rebase, block expansion and the messages read these rows, so
 * an op is declared here once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anchorsOf, editOf, opWhere } from "./ops.ts";
 * const op = { op: "replace" as const, start: "2:23", end: "4:aa", lines: ["x"] };
 * assert.deepEqual(anchorsOf(op), ["2:23", "4:aa"]);
 * assert.equal(opWhere(op), " 2:23..4:aa");
 * assert.deepEqual(editOf(op, () => 9), { at: 2, deleteCount: 3, lines: ["x"] });
 * ```
 *
 * @module
 */
import { parseAnchor } from "../anchor/anchor.ts";
import type { EntryOp, MoveOp, PatchOp, PlannedEdit } from "./types.ts";

/**
 * How a field of an op is checked: an anchor (`L:HH`, a bare number after a
 * lean read, `*` for a block where the row allows it), optional or not; the
 * new lines; an optional flag; an optional root-relative path.
 */
export type FieldKind = "anchor" | "anchor?" | "lines" | "flag?" | "path?";

/**
 * What an op covers in the file as read: `range` replaces lines
 * `start..end` (its anchors are the range's ends, every line between them
 * an interior line); `after` and `before` insert into the gap beside one
 * anchored line; `end` and `start` insert at an end of the file and name no
 * line, so they also serve a file that is empty or created by the patch;
 * `source` takes lines out to put them elsewhere (moves and copies, planned
 * with the file operations).
 */
export type OpRegion =
  | "range"
  | "after"
  | "before"
  | "end"
  | "start"
  | "source";

/** One row of the op table: everything the rules need to know about one op. */
export interface OpRow {
  /** The op's name, its `op` field. */
  readonly kind: EntryOp["op"];
  /**
   * Every field beside `op`, in the order an op is written; the anchor
   * fields, in this order, are what {@link anchorsOf} gives.
   */
  readonly fields: Readonly<Record<string, FieldKind>>;
  /** The region it covers, or the gap its lines go into. */
  readonly region: OpRegion;
  /** The anchor field that may name a block (`L:HH*`); elsewhere `*` is refused. */
  readonly block?: string;
  /** The anchor fields that name the op in messages (`op 2 (replace 12:a3..14:0e)`). */
  readonly label: readonly string[];
  /**
   * Its symbol in the compact text form (`=`, `-`, `+`, `<`; `m`, `c` for
   * moves); two rows may share one when one has anchors and the other none
   * (`+ A`, bare `+`).
   */
  readonly text?: string;
  /** What it does to a line another op anchors on, in an overlap message. */
  readonly verb: string;
  /**
   * The lines it writes when it has no `lines` field of its own (`delete`:
   * none); an op with `lines` writes those.
   */
  readonly writes?: readonly string[];
}

type Field<O> = Exclude<keyof O, "op"> & string;

/** A row checked against its op's interface: every field declared, none invented. */
type RowOf<O extends EntryOp> = OpRow & {
  readonly kind: O["op"];
  readonly fields: { readonly [F in Field<O>]-?: FieldKind };
  readonly block?: Field<O>;
  readonly label: readonly Field<O>[];
};

type LineRows = {
  readonly [K in PatchOp["op"]]: RowOf<Extract<PatchOp, { op: K }>>;
};
type MoveRows = { readonly [K in MoveOp["op"]]: RowOf<MoveOp> };

/** The line edits, in the order `unknown op` messages list them. */
export const LINE_OPS: LineRows = {
  replace: {
    kind: "replace",
    fields: {
      start: "anchor",
      end: "anchor?",
      lines: "lines",
      literal: "flag?",
    },
    region: "range",
    block: "start",
    label: ["start", "end"],
    text: "=",
    verb: "replaces",
  },
  delete: {
    kind: "delete",
    fields: { start: "anchor", end: "anchor?" },
    region: "range",
    block: "start",
    label: ["start", "end"],
    text: "-",
    verb: "deletes",
    writes: [],
  },
  insert_after: {
    kind: "insert_after",
    fields: { anchor: "anchor", lines: "lines", literal: "flag?" },
    region: "after",
    block: "anchor",
    label: ["anchor"],
    text: "+",
    verb: "inserts after",
  },
  insert_before: {
    kind: "insert_before",
    fields: { anchor: "anchor", lines: "lines", literal: "flag?" },
    region: "before",
    label: ["anchor"],
    text: "<",
    verb: "inserts before",
  },
  append: {
    kind: "append",
    fields: { lines: "lines", literal: "flag?" },
    region: "end",
    label: [],
    text: "+",
    verb: "appends",
  },
  prepend: {
    kind: "prepend",
    fields: { lines: "lines", literal: "flag?" },
    region: "start",
    label: [],
    text: "<",
    verb: "prepends",
  },
};

const moveFields = {
  start: "anchor",
  end: "anchor?",
  after: "anchor?",
  before: "anchor?",
  to: "path?",
} as const;

/** Moves and copies (docs/patch-format.md, "Moves and file operations"). */
export const MOVE_OPS: MoveRows = {
  move: {
    kind: "move",
    fields: moveFields,
    region: "source",
    label: ["start", "end"],
    text: "m",
    verb: "moves",
  },
  copy: {
    kind: "copy",
    fields: moveFields,
    region: "source",
    label: ["start", "end"],
    text: "c",
    verb: "copies",
  },
};

/** Every row, line edits first. */
export const OP_ROWS: readonly OpRow[] = [
  ...Object.values(LINE_OPS),
  ...Object.values(MOVE_OPS),
];

const byKind = new Map<string, OpRow>(OP_ROWS.map((r) => [r.kind, r]));

/**
 * The row of an op.
 *
 * @param op An op, or its name.
 * @returns Its row.
 * @throws {TypeError} When no row has that name.
 */
export function rowOf(op: EntryOp | string): OpRow {
  const kind = typeof op === "string" ? op : op.op;
  const row = byKind.get(kind);
  if (!row) throw new TypeError(`Unknown op ${JSON.stringify(kind)}.`);
  return row;
}

function fieldsOf(row: OpRow): Record<string, FieldKind> {
  return row.fields as Record<string, FieldKind>;
}

function value(op: EntryOp, field: string): unknown {
  return (op as unknown as Record<string, unknown>)[field];
}

/**
 * The anchor fields a row declares, in order.
 *
 * @param row A row of the table.
 * @returns The field names, optional ones included.
 */
export function anchorFieldsOfRow(row: OpRow): string[] {
  const fields = fieldsOf(row);
  return Object.keys(fields).filter((f) =>
    fields[f] === "anchor" || fields[f] === "anchor?"
  );
}

/**
 * The anchor fields an op holds, in the row's order (absent optional ones
 * left out).
 *
 * @param op An op.
 * @returns The field names.
 */
export function anchorFieldsOf(op: EntryOp): string[] {
  return anchorFieldsOfRow(rowOf(op)).filter((f) => value(op, f) !== undefined);
}

/**
 * The anchors an op names, in order (`start`, `end`; or the insert's
 * `anchor`; none for `append` and `prepend`).
 *
 * @param op An op.
 * @returns The anchor texts as written.
 */
export function anchorsOf(op: EntryOp): string[] {
  return anchorFieldsOf(op).map((f) => value(op, f) as string);
}

/**
 * The op with each anchor (in {@link anchorsOf}'s order) rewritten.
 *
 * @param op An op.
 * @param rewrite Gives the new text of an anchor.
 * @returns A copy, or `op` itself when it names no anchor.
 */
export function mapAnchors<O extends EntryOp>(
  op: O,
  rewrite: (text: string, field: string, index: number) => string,
): O {
  const fields = anchorFieldsOf(op);
  if (fields.length === 0) return op;
  const out = { ...op } as Record<string, unknown>;
  fields.forEach((f, i) => out[f] = rewrite(out[f] as string, f, i));
  return out as O;
}

/**
 * Where messages say an op stands: ` 12:a3..14:0e`, ` 30:fb`, or `""`.
 *
 * @param op An op.
 * @returns The text, with its leading space.
 */
export function opWhere(op: EntryOp): string {
  const shown = rowOf(op).label.map((f) => value(op, f))
    .filter((v) => v !== undefined);
  return shown.length ? ` ${shown.join("..")}` : "";
}

/**
 * Whether the op writes new lines of its own (`lines`).
 *
 * @param op An op.
 * @returns True when its row has a `lines` field.
 */
export function takesLines(
  op: EntryOp,
): op is Extract<PatchOp, { lines: string[] }> {
  return "lines" in fieldsOf(rowOf(op));
}

/**
 * Whether the op names no line, so it also serves a file with none (an
 * empty file, or one the patch creates).
 *
 * @param op An op.
 * @returns True for the rows that insert at an end of the file.
 */
export function namesNoLine(op: EntryOp): boolean {
  const region = rowOf(op).region;
  return region === "end" || region === "start";
}

/**
 * The line across an insert's gap from its anchor, given the region it
 * names as read (`insert_after`: the next line; `insert_before`: the one
 * before), or 0 for an op without such a gap.
 *
 * @param op An op.
 * @param start First line of its region.
 * @param end Last line of its region.
 * @returns The line number, or 0.
 */
export function acrossGap(op: EntryOp, start: number, end: number): number {
  const region = rowOf(op).region;
  return region === "after" ? end + 1 : region === "before" ? start - 1 : 0;
}

/**
 * Where an op's lines go (1-based; `lineCount + 1` for the end of the file)
 * and how many lines it removes there, its anchors read as `L:HH`.
 *
 * @param op A line edit whose anchors parse.
 * @param lineCount Lines of the file, asked only by an op at its end.
 * @returns The planned edit.
 * @throws {SyntaxError} An anchor that does not parse.
 */
export function editOf(op: PatchOp, lineCount: () => number): PlannedEdit {
  const lines = takesLines(op)
    ? op.lines.slice()
    : (rowOf(op).writes ?? []).slice();
  const at = (f: string) => parseAnchor(value(op, f) as string).line;
  switch (rowOf(op).region) {
    case "range": {
      const s = at("start");
      const e = value(op, "end") !== undefined ? at("end") : s;
      return { at: s, deleteCount: e - s + 1, lines };
    }
    case "after":
      return { at: at("anchor") + 1, deleteCount: 0, lines };
    case "before":
      return { at: at("anchor"), deleteCount: 0, lines };
    case "end":
      return { at: lineCount() + 1, deleteCount: 0, lines };
    default:
      return { at: 1, deleteCount: 0, lines };
  }
}

/**
 * The anchor field that names a block in this op (`L:HH*`), or undefined
 * when the op takes none.
 *
 * @param op An op.
 * @returns The field name from its row.
 */
export function blockFieldOf(op: EntryOp): string | undefined {
  return rowOf(op).block;
}

/**
 * The anchor fields of an op that hold a block anchor where its row allows
 * none: any field but the row's block field, or the block field of a range
 * that also names an end. Checked in that order, so the first is the one to
 * name.
 *
 * @param op An op.
 * @param isBlock Whether an anchor text names a block.
 * @returns The misplaced fields.
 */
export function misplacedBlocks(
  op: EntryOp,
  isBlock: (text: string) => boolean,
): string[] {
  const row = rowOf(op);
  const fields = anchorFieldsOf(op);
  const marked = fields.filter((f) => isBlock(value(op, f) as string));
  const out = marked.filter((f) => f !== row.block);
  if (
    row.block !== undefined && marked.includes(row.block) &&
    row.region === "range" && fields.length > 1
  ) out.push(row.block);
  return out;
}

/**
 * The op addressing a block once resolved to lines `first..last` (as
 * anchors): a range op covers the block (its start alone for a one-line
 * span), an insert goes after the block's last line.
 *
 * @param op An op whose block field named the block.
 * @param first Anchor of the block's first line.
 * @param last Anchor of the block's last line.
 * @param oneLine Whether the block is one line.
 * @returns The op with plain anchors.
 */
export function withBlock<O extends EntryOp>(
  op: O,
  first: string,
  last: string,
  oneLine: boolean,
): O {
  const row = rowOf(op);
  if (row.block === undefined) return op;
  if (row.region !== "range") return { ...op, [row.block]: last };
  if (oneLine) return { ...op, [row.block]: first };
  const end = anchorFieldsOfRow(row).find((f) => f !== row.block)!;
  return { ...op, [row.block]: first, [end]: last };
}

const or = (items: string[]) =>
  items.length < 2
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;

/**
 * Where a block anchor may stand, one phrase per field, as messages say it:
 * `start of replace or delete`, `anchor of insert_after`.
 *
 * @returns The phrases, from the rows' block fields.
 */
export function blockPlaces(): string[] {
  const byField = new Map<string, string[]>();
  for (const row of Object.values(LINE_OPS) as OpRow[]) {
    if (row.block === undefined) continue;
    byField.set(row.block, [...byField.get(row.block) ?? [], row.kind]);
  }
  return [...byField].map(([f, kinds]) => `${f} of ${or(kinds)}`);
}
