/**
 * The store commands' rows of the command table (`store put`, `store read`,
 * …), kept beside the table so that it stays one screenful per family;
 * importing this module loads nothing else (the rows are checked against
 * `CommandSpec` where `_table.ts` spreads them).
 *
 * @module
 */
/** One flag, in the shape of the table's `FlagSpec`. */
export interface StoreFlagRow {
  /** `string` flags take a value; `boolean` flags take none. */
  type: "string" | "boolean";
  /** Placeholder of the value in usage lines. */
  value?: string;
  /** What the flag does, in one line. */
  help: string;
  /** Must be given. */
  required?: boolean;
}

/** One row, in the shape of the table's `CommandSpec` (checked where it is spread). */
export interface StoreCommandRow {
  /** The command words (`store put`). */
  name: string;
  /** Always the store family. */
  family: "store";
  /** One line for the command list. */
  summary: string;
  /** Positional arguments. */
  args: { name: string; optional?: boolean; help: string }[];
  /** Flags besides the common ones. */
  flags: Record<string, StoreFlagRow>;
  /** More about the command. */
  details?: string;
}

/** `--offset N` and `--limit N` of a window of lines (`read`, `store read`). */
export const LINE_WINDOW: Record<"offset" | "limit", StoreFlagRow> = {
  offset: {
    type: "string",
    value: "N",
    help: "first line to show, 1-based (default 1)",
  },
  limit: {
    type: "string",
    value: "N",
    help: "most lines to show (default 2000)",
  },
};

/** The `store …` commands, in the order the help lists them. */
export const STORE_COMMANDS: readonly StoreCommandRow[] = [
  {
    name: "store put",
    family: "store",
    summary: "store a source; prints its REF and HANDLE",
    args: [{
      name: "FILE|-",
      help: "the file to store; - reads standard input",
    }],
    flags: {},
  },
  {
    name: "store import",
    family: "store",
    summary: "same as store put, from a file",
    args: [{ name: "FILE", help: "the file to store" }],
    flags: {},
  },
  {
    name: "store read",
    family: "store",
    summary:
      "show a revision's lines as LINE:HH|content (anchors for store patch)",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: { ...LINE_WINDOW },
  },
  {
    name: "store get",
    family: "store",
    summary: "print a revision's exact bytes, or write them to a new file",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {
      out: {
        type: "string",
        value: "FILE",
        help: "write to this file instead (refused if it exists)",
      },
    },
  },
  {
    name: "store source",
    family: "store",
    summary: "read a window of a revision, or the text around a query",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {
      query: {
        type: "string",
        value: "Q",
        help: "show the text around the first match of Q",
      },
      offset: {
        type: "string",
        value: "N",
        help: "first character, 0-based (default 0)",
      },
      limit: {
        type: "string",
        value: "N",
        help: "most characters (default 8000, at most 16000)",
      },
    },
  },
  {
    name: "store edit",
    family: "store",
    summary: "replace one exact string, making a new revision",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {
      old: {
        type: "string",
        value: "TEXT",
        required: true,
        help:
          "the text to replace; must match exactly once (unless --replace-all)",
      },
      new: {
        type: "string",
        value: "TEXT",
        required: true,
        help: "the replacement",
      },
      "replace-all": {
        type: "boolean",
        help: "replace every match instead of refusing several",
      },
    },
  },
  {
    name: "store patch",
    family: "store",
    summary: "apply an anchored patch to a revision, making a new revision",
    args: [
      { name: "REF", help: "a ref (sha256:…) or handle (p_…)" },
      {
        name: "FILE|-",
        optional: true,
        help:
          "the patch (ops without @@ PATH); - or nothing reads standard input",
      },
    ],
    flags: {},
  },
  {
    name: "store export",
    family: "store",
    summary: "write a revision to a new file",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {
      out: {
        type: "string",
        value: "FILE",
        required: true,
        help: "the file to create (refused if it exists)",
      },
    },
  },
  {
    name: "store history",
    family: "store",
    summary: "list a revision and its ancestors, newest first",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {},
  },
  {
    name: "store resolve",
    family: "store",
    summary: "print the full ref and the handle of a revision",
    args: [{ name: "REF", help: "a ref (sha256:…) or handle (p_…)" }],
    flags: {},
  },
];
