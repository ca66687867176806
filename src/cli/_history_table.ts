/**
 * The history commands' rows of the command table (`log`, `show`, `undo`),
 * kept beside their family; importing this module loads nothing else (the
 * rows are checked against `CommandSpec` where `_table.ts` spreads them).
 *
 * @module
 */
/** One row, in the shape of the table's `CommandSpec` (checked where it is spread). */
export interface HistoryCommandRow {
  /** The command word. */
  name: string;
  /** Always the history family. */
  family: "history";
  /** One line for the command list. */
  summary: string;
  /** Positional arguments. */
  args: { name: string; optional?: boolean; help: string }[];
  /** Flags besides the common ones. */
  flags: Record<
    string,
    { type: "string" | "boolean"; value?: string; help: string }
  >;
  /** More about the command. */
  details?: string;
}

/** `log`, `show ID` and `undo ID`. */
export const HISTORY_COMMANDS: readonly HistoryCommandRow[] = [
  {
    name: "log",
    family: "history",
    summary: "list the workspace's edit history, newest first",
    args: [],
    flags: {
      path: {
        type: "string",
        value: "P",
        help: "only entries that changed this file",
      },
      limit: {
        type: "string",
        value: "N",
        help: "most entries to list (default 50)",
      },
    },
    details:
      "Every change committed through any door (library, cli, http, mcp, page) is one entry: its id (h_N), time, session, door and files with +added -removed. --session lists one session's entries only (a label such as mcp-3f2a9c1d included). Control characters and bidirectional overrides are printed as escapes. --json prints { ok: true, entries: [...] }.",
  },
  {
    name: "show",
    family: "history",
    summary: "show one history entry with its diff",
    args: [{ name: "ID", help: "the entry's id (h_N), as log lists it" }],
    flags: {},
    details:
      "Control characters and bidirectional overrides in names and lines are printed as escapes (\\x1b, <U+202E>).",
  },
  {
    name: "undo",
    family: "history",
    summary: "revert one history entry, all or nothing (itself an entry)",
    args: [{ name: "ID", help: "the entry's id (h_N), as log lists it" }],
    flags: {
      "dry-run": {
        type: "boolean",
        help: "show the diff undo would make without writing anything",
      },
    },
    details:
      "Refused (exit 1, MOVED_ON) when a line the entry wrote changed since, naming each file and line; nothing is written then. Lines elsewhere in the files may have changed and are kept.",
  },
];
