/**
 * What reads and searches need of a workspace: its root and rules, the
 * sessions' read records, the display limit, the streaming engine and
 * index, the parser of outlines, and the settling of its first use.
 *
 * @module
 */
import type { BlockScope } from "../block/op_blocks.ts";
import type { Confinement, Target } from "../fs/confine.ts";
import type { SettleScope } from "../history/settle.ts";
import type { SessionRecords } from "../records/records.ts";
import type { LineIndexes } from "../stream/line_index.ts";

/** The workspace as a read sees it. */
export interface ReadScope extends SettleScope, BlockScope {
  /** The root folder. */
  readonly root: string;
  /** The root and its rules. */
  readonly conf: Confinement;
  /** The read records, per session and real path. */
  readonly records: SessionRecords;
  /** The session a call without one reads for. */
  readonly session: string;
  /** Longest line shown in full (longer ones are cut with a marker). */
  readonly maxLineChars?: number;
  /** The hash engine of streamed reads. */
  readonly engine?: "wasm" | "ts";
  /** The sparse line indexes of huge files. */
  readonly indexes: LineIndexes;
  /** Whether a read of `target` streams it rather than loading it whole. */
  streamsRead(target: Target): boolean;
}
