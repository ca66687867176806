/**
 * What reads and searches take and answer (docs/reads.md,
 * docs/workspace.md "Finding files"): a window of a file, a whole file as
 * text, whether a path names a file, a listing and a search.
 *
 * @module
 */

/** A read window. */
export interface ReadOptions {
  /** First line, 1-based (default 1). */
  offset?: number;
  /** Most lines (default 2000). */
  limit?: number;
  /** Session the read counts for (default the workspace's). */
  session?: string;
  /**
   * Show only the first line of each top-level declaration and of each
   * member of a top-level class, interface, enum, module or object (every
   * heading in Markdown); each hidden run becomes one `…13–40` line.
   * Only the lines shown count as read.
   */
  outline?: boolean;
  /**
   * How lines are shown: `"hash"` (`LINE:HH|content`, the default) or
   * `"lean"` (`LINE|content`; ops may then name lines by number alone,
   * checked against the session's record; docs/reads.md#lean-reads).
   */
  anchors?: "hash" | "lean";
}

/** One window of an anchored read of a file. */
export interface FileRead {
  /** Root-relative path with `/` separators. */
  path: string;
  /** `LINE:HH|content` lines (`LINE|content` in the lean form) joined with `\n`. */
  text: string;
  /** Lines in the whole file. */
  totalLines: number;
  /** First line shown. */
  startLine: number;
  /** Last line shown (`startLine - 1` when none). */
  endLine: number;
  /** Where the next window starts, or null at the end. */
  nextOffset: number | null;
  /** Present when something went wrong beside the read (its record could not be saved). */
  warnings?: string[];
  /** Present on an outline read: `true` when the view is an outline. */
  outline?: boolean;
  /** Why an outline read fell back to the plain read (no grammar, too large, parse failed). */
  note?: string;
}

/** Whether a path names a file, and how big it is (see `ws.stat`). */
export interface PathInfo {
  /** Root-relative path with `/` separators. */
  path: string;
  /** A regular file is there. */
  exists: boolean;
  /** Its size in bytes, or null when it does not exist. */
  size: number | null;
}

/** The whole text of a file (see `ws.readText`). */
export interface TextRead {
  /** Root-relative path with `/` separators. */
  path: string;
  /** The decoded text, BOM included when the file has one. */
  text: string;
  /** Lines in the file. */
  totalLines: number;
  /** Present when its read record could not be saved. */
  warnings?: string[];
}

/** Options of `ws.list`. */
export interface ListOptions {
  /**
   * Which paths (default: every file): a glob with no `/`
   * matches a name at any depth (`*.ts`), and one that matches a folder
   * lists everything under it (`src`).
   */
  glob?: string;
}

/** Files under the root (see `ws.list`). */
export interface FileList {
  /** Root-relative paths with `/` separators, in name order, at most 1,000. */
  paths: string[];
  /** Files that matched, shown or not. */
  total: number;
  /** What a model reads: one path a line, and a note naming how many more there are. */
  text: string;
}

/** Options of `ws.search`. */
export interface SearchOptions {
  /** A regular expression (JavaScript syntax) tested on each line. */
  pattern: string;
  /** Which files, as {@link ListOptions.glob} (default every file). */
  glob?: string;
  /** Session the lines shown count as read for (default the workspace's). */
  session?: string;
}

/** The lines of one file a search showed. */
export interface SearchFile {
  /** Root-relative path with `/` separators. */
  path: string;
  /** Line numbers shown, ascending. */
  lines: number[];
}

/** The result of `ws.search`. */
export interface SearchResult {
  /** Files with lines shown, in name order. */
  files: SearchFile[];
  /** Matching lines shown (at most 200). */
  shown: number;
  /** Matching lines past the limit, not shown. */
  more: number;
  /** Files left out because they are not UTF-8 text. */
  binary: number;
  /** Files left out because they are over the search's size limit (1 MiB). */
  tooLarge: number;
  /**
   * What a model reads: each file's path, then its matching lines as
   * `LINE:HH|content` (`LINE|content` when the session last read that file
   * lean), and notes naming what was left out.
   */
  text: string;
  /** Present when a read record could not be saved. */
  warnings?: string[];
}
