/**
 * Patch shapes (docs/patch-format.md#operations) and the narrow interfaces through which
 * validation sees a file, so the same rules serve content held in memory and
 * files of several GiB streamed from disk.
 *
 * @module
 */

import type { DialectPatch } from "./dialects/types.ts";

export type { DialectPatch };

/** An anchor as written by a model: `12:a3` (a trailing `|` from a read is accepted). */
export type AnchorText = string;

/** Replace lines start..end (end defaults to start); `lines: []` deletes. */
export interface ReplaceOp {
  /** Discriminator. */
  op: "replace";
  /** Anchor of the first line. */
  start: AnchorText;
  /** Anchor of the last line (defaults to `start`). */
  end?: AnchorText;
  /** The exact new lines, without terminators. */
  lines: string[];
  /** Write lines that begin with an anchor prefix (`12:a3|`) as they are, instead of refusing them. */
  literal?: boolean;
}
/** Delete lines start..end (end defaults to start). */
export interface DeleteOp {
  /** Discriminator. */
  op: "delete";
  /** Anchor of the first line. */
  start: AnchorText;
  /** Anchor of the last line (defaults to `start`). */
  end?: AnchorText;
}
/** Insert after the anchored line. */
export interface InsertAfterOp {
  /** Discriminator. */
  op: "insert_after";
  /** Anchor of the line the new lines go next to. */
  anchor: AnchorText;
  /** The exact new lines, without terminators. */
  lines: string[];
  /** Write lines that begin with an anchor prefix (`12:a3|`) as they are, instead of refusing them. */
  literal?: boolean;
}
/** Insert before the anchored line. */
export interface InsertBeforeOp {
  /** Discriminator. */
  op: "insert_before";
  /** Anchor of the line the new lines go next to. */
  anchor: AnchorText;
  /** The exact new lines, without terminators. */
  lines: string[];
  /** Write lines that begin with an anchor prefix (`12:a3|`) as they are, instead of refusing them. */
  literal?: boolean;
}
/** Insert at the end of the file (works on an empty file). */
export interface AppendOp {
  /** Discriminator. */
  op: "append";
  /** The exact new lines, without terminators. */
  lines: string[];
  /** Write lines that begin with an anchor prefix (`12:a3|`) as they are, instead of refusing them. */
  literal?: boolean;
}
/** Insert at the start of the file (works on an empty file). */
export interface PrependOp {
  /** Discriminator. */
  op: "prepend";
  /** The exact new lines, without terminators. */
  lines: string[];
  /** Write lines that begin with an anchor prefix (`12:a3|`) as they are, instead of refusing them. */
  literal?: boolean;
}

/** One operation of a patch. */
export type PatchOp =
  | ReplaceOp
  | DeleteOp
  | InsertAfterOp
  | InsertBeforeOp
  | AppendOp
  | PrependOp;

/**
 * Move or copy lines `start..end` (or the block `start*`) of this entry's
 * file to a gap of the target file (`to`, default the same file): after
 * `after`, before `before`, or appended when the target has no lines yet.
 */
export interface MoveOp {
  /** Discriminator: `move` removes the lines at the source, `copy` keeps them. */
  op: "move" | "copy";
  /** Anchor of the first source line (`L:HH*` for the block opening there). */
  start: AnchorText;
  /** Anchor of the last source line (defaults to `start`). */
  end?: AnchorText;
  /** Target anchor: the lines go after this line (`C*`: after that block). */
  after?: AnchorText;
  /** Target anchor: the lines go before this line. */
  before?: AnchorText;
  /** Target file (root-relative), when not this entry's own. */
  to?: string;
}

/** Any operation a file entry may hold, line edits and moves. */
export type EntryOp = PatchOp | MoveOp;

/** The operations for one file. */
export interface FilePatch {
  /** Path relative to the workspace root. */
  path: string;
  /** Operations, all addressed against the file as read. */
  ops: PatchOp[];
  /** Moves and copies out of this file, in the order given (after `ops` in the same gap). */
  moves?: MoveOp[];
  /** The entry creates the file (refused when it exists); `ops` are appends. */
  create?: boolean;
  /** The entry deletes the file (it takes no ops). */
  delete?: boolean;
  /** The entry renames the file to this path (ops apply to the file as read). */
  rename?: string;
}

/** A patch over one or more files. */
export interface Patch {
  /** Files in the order given. */
  files: FilePatch[];
  /**
   * A patch written in another dialect (`apply_patch`, a unified diff), as
   * parsed: `files` is then empty, and a workspace or `applyPatch` compiles
   * it against what the session was shown (docs/patch-format.md#other-dialects).
   */
  dialect?: DialectPatch;
}

export type { Anchor } from "../anchor/anchor.ts";

/**
 * What validation needs to know about a file as it is now. An in-memory
 * implementation answers from the lines; a streaming one collects the answers
 * for the lines named by {@link linesNeeded} in one pass over the file.
 */
export interface LineLookup {
  /** Number of lines now. */
  readonly lineCount: number;
  /** Full 32-bit hash of line n (1-based, in range). */
  hash32(n: number): number;
  /** Text of line n (1-based, in range), for fresh anchors around a stale one. */
  text(n: number): string;
  /** Every line whose full hash is h (for "moved to line N" and rebase). */
  linesWithHash(h: number): number[];
  /**
   * Whether line n exists. Optional: without it `n <= lineCount` is asked,
   * which a lazy lookup over content can only answer by counting every line.
   */
  has?(n: number): boolean;
  /**
   * The full hash of every line, in order (index 0 is line 1), for the
   * drift alignment (docs/patch-format.md#drift). Optional: without it the
   * alignment is skipped and each line is judged where it was addressed.
   */
  allHashes?(): ArrayLike<number>;
}

/** The full 32-bit hashes a session saw on its last reads of a file, by line. */
export interface ReadMemory {
  /**
   * The remembered full hash of line n as last shown to the session (by a
   * read, a result, or a refusal's fresh anchors), or undefined when the
   * session did not see it.
   */
  hash32(n: number): number | undefined;
  /**
   * The full hash of line n as the session read it, before any refusal
   * showed it again (rebase looks for the region as first read). Optional:
   * without it `hash32` is asked.
   */
  read32?(n: number): number | undefined;
  /**
   * Lines the file had at the read, when known. Rebase needs it to treat the
   * end of the file as the neighbour below a region that ends at the last line.
   */
  readonly lineCount?: number;
  /**
   * Every remembered line as `[line, hash]` (as last shown), in line order:
   * the record the drift alignment matches with the file now. Optional:
   * without it lines 1..`lineCount` are asked of `hash32`.
   */
  entries?(): Iterable<[number, number]>;
  /**
   * Every remembered line as `[line, hash]` as first read, before any
   * refusal showed it again (rebase of a patch built from that read).
   * Optional: without it lines are asked of `read32`.
   */
  readEntries?(): Iterable<[number, number]>;
  /** How the session last read the file (`"lean"`: `LINE|content`). */
  readonly form?: "hash" | "lean";
}

/**
 * One edit of a validated plan: remove `deleteCount` lines starting at line
 * `at` (1-based; `lineCount + 1` for the end of the file) and put `lines`
 * there. Plans are sorted by `at` ascending; edits at the same `at` keep the
 * order of their ops in the patch; inserts come before a replacement at the
 * same `at`.
 */
export interface PlannedEdit {
  /** 1-based line where the edit applies (`lineCount + 1` for the end). */
  at: number;
  /** Lines removed from `at` on. */
  deleteCount: number;
  /** The exact new lines, without terminators. */
  lines: string[];
}

/**
 * Lines `start..end` (1-based, inclusive) of the new content that an edit
 * wrote; `end === start - 1` marks a deletion just before line `start`.
 */
export interface ChangedRegion {
  /** First changed line, 1-based. */
  start: number;
  /** Last changed line (`start - 1` for a deletion). */
  end: number;
}
