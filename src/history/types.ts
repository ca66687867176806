/**
 * The shape of one history entry (docs/history.md): what the people
 * supervising agents see, and what it takes to show and revert a change.
 *
 * @module
 */

/** Which door a change came through (`page`: the review page's Undo). */
export type Door = "library" | "cli" | "http" | "mcp" | "page";

/** The doors, in one closed list. */
export const DOORS: readonly Door[] = ["library", "cli", "http", "mcp", "page"];

/** What one entry did to one file, as listed. */
export interface EntryFile {
  /** Root-relative path with `/` separators. */
  path: string;
  /** Lines written (new or replacing). */
  added: number;
  /** Lines removed (deleted or replaced). */
  removed: number;
  /** The change created the file. */
  created?: boolean;
  /** The change removed the file (a deletion, or an undo of a creation). */
  deleted?: boolean;
  /** The change renamed the file from this root-relative path to `path`. */
  renamedFrom?: string;
  /**
   * `path` is a symlink with this text, deleted, renamed or put back as
   * the link itself (never the file it points to); undo restores the same
   * link.
   */
  link?: string;
}

/** One committed change, as listed (newest first) by `history`. */
export interface HistoryEntry {
  /** `h_` and a number that only grows. */
  id: string;
  /** When it was committed (ISO 8601, UTC). */
  time: string;
  /** The session that made it. */
  session: string;
  /** The door it came through. */
  door: Door;
  /** The first line of the change's result. */
  summary: string;
  /** The files it changed. */
  files: EntryFile[];
  /** The entry this one undid. */
  undoOf?: string;
}

/**
 * One changed region of a file: the exact text (lines with their
 * terminators) it held before and after, where the edit put it.
 */
export interface Hunk {
  /** First line of the region in the file before the change (1-based). */
  at: number;
  /** First line of the region in the file after the change (1-based). */
  newAt: number;
  /** The region's exact text before (`""` for a pure insertion). */
  old: string;
  /** The region's exact text after (`""` for a pure deletion). */
  new: string;
  /** Full 32-bit hashes of the lines written (the lines of `new`). */
  hashes: number[];
  /** The exact line before the region after the change (with its terminator), or null at the start. */
  before: string | null;
  /** The exact line after the region after the change, or null at the end. */
  after: string | null;
}

/** What an entry keeps of one file, beside what it lists. */
export interface RecordFile extends EntryFile {
  /** The changed regions, in file order. */
  hunks: Hunk[];
  /** A whole-file write: undo only while the file is exactly what was written (sha-256 hex of it). */
  whole?: string;
  /** Why this change cannot be undone (too large to keep), when it cannot. */
  noUndo?: string;
  /** The file's mode (permission bits) before a deletion or rename, restored by undo. */
  mode?: number;
  /** Folders the change made for the file (root-relative, outermost first), removed by undo when empty. */
  dirs?: string[];
}

/** An entry as the log keeps it. */
export interface EntryRecord extends Omit<HistoryEntry, "files"> {
  /** The files, with what it takes to show and revert the change. */
  files: RecordFile[];
}

/** Filters of `history`. */
export interface HistoryQuery {
  /** Only entries of this session. */
  session?: string;
  /** Only entries that changed this root-relative path. */
  path?: string;
  /** At most this many entries (default 50). */
  limit?: number;
}

/**
 * Entries as listed, newest first; `warnings` names the malformed records
 * the listing met and skipped (set only when there were some).
 */
export type HistoryList = HistoryEntry[] & { warnings?: string[] };

/** An entry with each file's diff. */
export interface EntryDetail extends HistoryEntry {
  /** The files, each with a unified diff. */
  files: (EntryFile & { diff: string })[];
}

/** Options of `undo`. */
export interface UndoOptions {
  /** Show the diff undo would make, writing nothing. */
  dryRun?: boolean;
  /** Session the undo is recorded for (default the workspace's). */
  session?: string;
  /**
   * Judge the undo as an edit by an agent: the session must have read the
   * lines it changes (its own edit results count), else `NOT_READ`. The
   * agent doors (MCP `undo_edit`, the tool registry) set it; the
   * supervisor's doors (CLI, library, review page) do not.
   */
  requireRead?: boolean;
  /** Door the undo is recorded as coming through (default the workspace's). */
  door?: Door;
}

/** The result of an undo. */
export interface UndoResult {
  /** The new entry (`null` on a dry run). */
  id: string | null;
  /** The entry undone. */
  undoOf: string;
  /** Nothing was written. */
  dryRun: boolean;
  /** Each file, with the diff the undo made (or would make). */
  files: (EntryFile & { diff: string })[];
  /** `Undid h_N: …` (or `Dry run: …`), then each file's diff. */
  summary: string;
}
