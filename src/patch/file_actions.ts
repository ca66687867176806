/**
 * What the rules between the parts of one patch work on and give back
 * (docs/patch-format.md "Moves and file operations"): the state of each path
 * before the patch, and the action planned for each file.
 *
 * @module
 */
import type { Problem } from "./problems.ts";
import type { LineLookup, PatchOp, ReadMemory } from "./types.ts";

/** What the rules need to know of one path named by a patch, before the patch. */
export interface PathState {
  /** A file stands at the path now. */
  exists: boolean;
  /** Its lines now (for an existing file whose lines the patch needs). */
  lines?: LineLookup;
  /** The session's read record of it, if any. */
  memory?: ReadMemory;
  /**
   * The file has the size and content hash the record holds: nothing
   * changed it since the session's last read of any part of it.
   */
  unchanged?: boolean;
  /** Its first line terminator, or null when no line is terminated. */
  eol?: string | null;
  /** For a rename target that exists: it is the source file itself (a case- or normalization-only rename). */
  sameAs?: string;
}

/** What a patch does to one file, once the rules passed. */
export interface FileAction {
  /** The file (as the patch names it). */
  path: string;
  /** Edit in place, create, delete, or rename to `to` (with its edits). */
  action: "edit" | "create" | "delete" | "rename";
  /** The rename target. */
  to?: string;
  /** Plain line edits against the file as read: its own, then those moves and copies put there. */
  ops: PatchOp[];
  /** The terminator new lines take when the file has none yet (a move's source's). */
  eol?: string;
}

/** One move or copy, for the result line `Moved lines A–B → Q:L`. */
export interface MoveNote {
  /** `move` or `copy`. */
  op: "move" | "copy";
  /** Source file. */
  from: string;
  /** First source line. */
  start: number;
  /** Last source line. */
  end: number;
  /**
   * The source lines as read, when rebase found them elsewhere (`start` and
   * `end` then say where they stand now).
   */
  read?: [number, number];
  /** Target file. */
  to: string;
  /** Index of the insert in the target's `ops`. */
  index: number;
}

/** The outcome of {@link planFileOps}. */
export interface FileOpsPlan {
  /** One action per file the patch touches, in the order the paths first appear. */
  files: FileAction[];
  /** The moves and copies, in patch order. */
  moves: MoveNote[];
  /** Every problem found; any refuses the patch. */
  problems: Problem[];
}
