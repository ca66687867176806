/**
 * The commit vocabulary (docs/workspace.md, "Writing"): what a one-file
 * commit whose history record is its journal names of itself, how that
 * record stands once appended, and what recovery finds of the commits of a
 * writer that died. `history/` keeps these records; it imports these types
 * from here.
 *
 * @module
 */

/** What a record that is its commit's journal names of the commit. */
export interface CommitIntent {
  /** The target's real path. */
  target: string;
  /** The base name of the staged temporary beside it. */
  temp: string;
  /** The staged temporary's inode. */
  newIno: number | null;
  /**
   * SHA-256 (hex) of the content staged, with {@link before}: set when the
   * commit answers once its rename is made, before the folder holding it
   * is flushed, and a later boot finishes it from its flushed temporary.
   */
  after?: string;
  /** SHA-256 (hex) of the target's content the commit replaces; null when it makes the file. */
  before?: string | null;
}

/** A record appended as its commit's journal. */
export interface PendingEntry {
  /** Resolves once a flush of the log covers the record; rejects when that flush failed. */
  flushed: Promise<void>;
  /** Voids the record in place: its commit did not land. */
  cancel(): Promise<void>;
}

/** A commit whose record the log holds, as its writer named it. */
export interface LoggedCommit {
  /** The record's entry id. */
  id: string;
  /** Where its line starts in the log. */
  offset: number;
  /** The target's real path. */
  target: string;
  /** The base name of its temporary beside the target. */
  temp: string;
  /** The temporary's inode. */
  newIno: number | null;
  /** {@link CommitIntent.after}, when the record names it. */
  after?: string;
  /** {@link CommitIntent.before} (null: it made the file), when the record names it. */
  before?: string | null;
}

/** A writer whose process is gone, with the commits its records name. */
export interface GoneWriter {
  /** Its writer file's name. */
  name: string;
  /** Provably dead (this host boot and PID namespace, pid gone), not only past its lease. */
  dead: boolean;
  /**
   * Its file names a boot of this host other than the current one: its
   * process ran before a restart, which may have lost renames it made but
   * whose folder it had not flushed.
   */
  rebooted: boolean;
  /** Its records that name a commit, oldest first (one finished here may be the version the next replaced). */
  pending(): LoggedCommit[];
  /** Removes its writer file once its commits are settled. */
  forget(): void;
}
