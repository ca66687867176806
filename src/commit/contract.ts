/**
 * What every commit path takes and returns (docs/workspace.md "Writing"):
 * the files with the names of their side files, the history record to
 * commit with them, the step hook, and the work to run alongside. The
 * chooser (`commit.ts`) builds one {@link CommitJob} and hands it to the
 * one path that fits: `one_file.ts`, `logged.ts`, `journaled.ts` or
 * `many.ts`.
 *
 * @module
 */
import type { LeaseHooks } from "../lock/lock.ts";
import type { RootRef } from "../fs/pin.ts";
import type { Side } from "./stage.ts";
import type { CommitIntent, PendingEntry } from "./types.ts";

/**
 * Test seams of a commit: `afterStep` runs after each step with the
 * commit's target paths (tests change files mid-commit, or freeze commits
 * before a kill); the lease seams of the locks it holds. Passed in through
 * the workspace's options, never global.
 */
export interface CommitHooks extends LeaseHooks {
  /** Runs after each step named by `commitSteps` (`commit.ts`). */
  afterStep?: (
    name: string,
    targets: readonly string[],
  ) => void | Promise<void>;
}

/**
 * A history entry committed with the files. A one-file commit appends it
 * as its own journal before the rename ({@link CommitRecord.appendPending});
 * a journaled commit takes it first ({@link CommitRecord.take}), keeps it
 * in its journal and appends it after the last rename (a failure rolls the
 * files back); a recovery that finishes such a commit appends it unless the
 * log already holds it.
 */
export interface CommitRecord {
  /** The entry's id, once taken. */
  id?: string;
  /** The entry, as the journal keeps it (JSON), once taken. */
  record?: unknown;
  /** Takes an id and builds the entry (sets `id` and `record`). */
  take(): Promise<unknown>;
  /** Appends it to the log. */
  append(record: unknown): Promise<void>;
  /**
   * Appends it without waiting for its flush; `then` runs once a flush
   * covers it (the commit's journal, which holds the record flushed, is
   * removed only then).
   */
  appendDeferred?(record: unknown, then: () => void): Promise<void>;
  /**
   * Takes an id, builds the entry and appends it naming the commit (its
   * target, temporary and the temporary's inode), under one hold of the
   * history's lock: the record is the commit's journal. Sets `id` and
   * `record`.
   */
  appendPending?(commit: CommitIntent): Promise<PendingEntry>;
}

/** The record of a commit whose history record is its journal (`logged.ts`). */
export interface LoggedRecord {
  /** {@link CommitRecord.appendPending}. */
  appendPending(commit: CommitIntent): Promise<PendingEntry>;
}

/** Runs once the caller, its locks released, may tidy up after a landed commit. */
export type Landed = () => void;

/** One commit, as a commit path receives it; `H` is the history record the path needs. */
export interface CommitJob<H> {
  /** The state folder (a journal goes in its `journal/`). */
  stateDir: string;
  /** The root every target lies under. */
  root: RootRef;
  /** The commit's id, in its side files' and journal's names. */
  id: string;
  /** The files, in order, with their side files' names. */
  sides: Side[];
  /** Reports a step (see `commitSteps`, `commit.ts`) to the hooks. */
  step: (name: string) => Promise<void>;
  /** The history entry to commit with the files. */
  history: H;
  /**
   * Work to run before any target is replaced; when it throws, nothing is
   * written and the error is the commit's.
   */
  alongside: () => Promise<void>;
  /** Folders the commit makes (real paths, outermost first), named in its journal before they exist. */
  dirs: string[];
  /** Folders to remove when empty once the commit landed (see {@link Landed}). */
  tidy: string[];
}

/**
 * One way to commit: how it names its side files, and the commit itself.
 * It pins the folders it writes through and closes them before it returns.
 */
export interface CommitPath<H> {
  /** The kind of its temporaries' names (`sideName`, `stage.ts`). */
  temps: "one" | "new";
  /** Whether an existing target gets a backup link. */
  backups: boolean;
  /**
   * Writes every entry's new content to its target, all or none.
   *
   * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
   */
  run(job: CommitJob<H>): Promise<Landed>;
}
