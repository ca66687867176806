/**
 * The shapes a syntax check takes and gives (docs/syntax-checks.md): one
 * edit to check, its answer, the checker's options and the checker itself.
 * Apart from the engine, so the gate and the workspace name them without
 * loading it.
 *
 * @module
 */
import type { BlockSource } from "../block/expand.ts";

/** One syntax error an edit introduced. */
export interface SyntaxIssue {
  /** 1-based line in the new content. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** The line's anchor in the new content, `LINE:HH`. */
  anchor: string;
  /** `missing "}"` or `unexpected "foo"`. */
  message: string;
  /** The new lines around it (±2) as `LINE:HH|content`, joined with `\n`. */
  context: string;
}

/** The answer of one check. */
export interface SyntaxCheck {
  /** The file checked (as the caller named it). */
  path: string;
  /** The grammar's language (`typescript`, `python`, …). */
  language: string;
  /** `ok`: no error introduced; `broken`: see `errors`; `skipped`: not checked, see `note`. */
  status: "ok" | "broken" | "skipped";
  /** The errors the edit introduced (errors the old content had are left out). */
  errors: SyntaxIssue[];
  /** Why the content was not checked (too large, too slow, grammar not installed). */
  note?: string;
  /** The new content's parse came from a receipt, without parsing. */
  reused: boolean;
}

/** Options of {@link createChecker}. */
export interface CheckerOptions {
  /** State folder; receipts are kept in `<stateDir>/checks/` (default: memory only). */
  stateDir?: string | null;
  /** Largest content checked, in UTF-8 bytes (default 2 MiB). */
  maxBytes?: number;
  /** Longest parse, in milliseconds, before it is abandoned (default 1000). */
  timeoutMs?: number;
  /** Most receipts kept in memory (default 512). */
  memoryEntries?: number;
  /**
   * Writes every answer to the state folder, those of incremental parses
   * too (default false: those stay in memory with their trees). For a
   * process that ends after one edit, such as the CLI: the next process
   * then judges its edit of the same file by the region the edit changed.
   */
  saveAll?: boolean;
  /** Told why a receipt was not saved (what stood at its name). */
  notice?: (message: string) => void;
}

/** One edit to check. */
export interface CheckInput {
  /** The file's path; its extension picks the grammar. */
  path: string;
  /** The content before the edit, or null for a new file (or when unknown). */
  before: string | null;
  /** The content as the edit leaves it, or null when it is not at hand (see `bytes`). */
  after: string | null;
  /** Size of the new content in bytes, when `after` is null (a streamed file). */
  bytes?: number;
  /**
   * When no grammar covers `path` (a stored revision has no file name), use
   * the first installed grammar under which the old content (else the new
   * one) parses without error.
   */
  sniff?: boolean;
  /**
   * When the checks this one belongs to must stop (`performance.now()`
   * time): a parse gets at most the time left, and none is started after it.
   */
  deadline?: number;
}

/** Parses edited content and reports the syntax errors each edit introduced. */
export interface Checker {
  /**
   * Checks one edit.
   *
   * @returns The answer, or null when no grammar covers the file's extension.
   */
  check(input: CheckInput): Promise<SyntaxCheck | null>;
  /**
   * The syntax tree of a file's content, for block anchors and outlines; the
   * parse is kept, so a check of an edit of this content parses only what
   * changed. Optional: a checker without it resolves no blocks.
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content (a leading BOM is ignored).
   * @returns The tree's root, or why there is none.
   */
  structure?(path: string, text: string): Promise<BlockSource>;
  /**
   * Starts parsing a file's current content a slice at a time, between
   * other work, so the check of an edit of it parses only what the edit
   * changed. Optional; it never fails (a file it cannot parse is left be).
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content as it stands (a leading BOM is ignored).
   */
  prime?(path: string, text: string): void;
  /**
   * Whether the tree of the text last checked or parsed under `path` is
   * still kept (then a prime of it would parse nothing new). Optional.
   *
   * @param path The file's path, as checks name it.
   */
  holds?(path: string): boolean;
  /** Parses run so far (a receipt hit runs none). */
  readonly parses: number;
}
