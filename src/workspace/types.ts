/**
 * The public types of a workspace (docs/workspace.md): its options, the
 * results of reads, patches and writes, and the {@link Workspace} itself.
 *
 * @module
 */
import type { CheckMode } from "../check/mod.ts";
import type { Patch } from "../patch/types.ts";
import type { CommitHooks } from "../commit/commit.ts";
import type { RecoveryReport } from "../commit/recover.ts";
import type { PatchResult, WriteResult } from "../result/types.ts";
import type {
  FileList,
  FileRead,
  ListOptions,
  PathInfo,
  ReadOptions,
  SearchOptions,
  SearchResult,
  TextRead,
} from "../read/types.ts";
import type {
  Door,
  EntryDetail,
  HistoryList,
  HistoryQuery,
  UndoOptions,
  UndoResult,
} from "../history/mod.ts";

export type { CommitHooks } from "../commit/commit.ts";
export type { RecoveryReport } from "../commit/recover.ts";
export type { FileEdit, PatchResult, WriteResult } from "../result/types.ts";
export type {
  FileList,
  FileRead,
  ListOptions,
  PathInfo,
  ReadOptions,
  SearchFile,
  SearchOptions,
  SearchResult,
  TextRead,
} from "../read/types.ts";

/** Options of {@link openWorkspace}. */
export interface WorkspaceOptions {
  /** Whose reads count when none is named per call (default `"default"`). */
  session?: string;
  /**
   * State folder holding `sessions/` and `journal/` (default: `HASHLINE_STORE`,
   * else `.hashline` under the root, created with a `.gitignore` of `*`).
   */
  stateDir?: string;
  /** Keep read records in `<state>/sessions/` so separate processes form one session (default true). */
  persistSessions?: boolean;
  /** Largest file read or patched, in bytes (default 4 GiB). */
  maxFileBytes?: number;
  /** Display limit of one line in reads and fresh anchors, in code points (default 2000). */
  maxLineChars?: number;
  /** Files larger than this many bytes are streamed instead of loaded (default 64 MiB). */
  streamThreshold?: number;
  /** Byte-scanning engine for streamed files (default: the hash module's choice). */
  engine?: "wasm" | "ts";
  /**
   * Globs (root-relative, `/` separators; `*` within a name, `**` across
   * folders) of paths never read or written: refused with `DENIED`.
   */
  deny?: string[];
  /** Allow writes under `.git/` and `.hashline` folders (default false: refused with `DENIED`). */
  allowGit?: boolean;
  /** Default of {@link PatchOptions.rebase} (default false). */
  rebase?: boolean;
  /** Most files whose read records one session keeps (default 2000; the least recently used go first). */
  maxSessionFiles?: number;
  /** How long a patch waits for another writer's lock on a file before giving up with `BUSY` (default 30 s). */
  lockTimeoutMs?: number;
  /**
   * Syntax check after every patch and write (docs/syntax-checks.md): `warn` (default)
   * adds the errors an edit introduced to the result, `refuse` refuses such an
   * edit whole with `SYNTAX`, `off` parses nothing.
   */
  check?: CheckMode;
  /**
   * Test seams of the commit protocol (a hook after each write step, where
   * a test changes a file mid-commit or freezes one before a kill) and of
   * the lease of held locks.
   *
   * @internal
   */
  hooks?: CommitHooks;
  /** Keep the edit history in `<state>/history/` (default true). */
  history?: boolean;
  /** Entries the history keeps, the newest (default 10,000). */
  historyLimit?: number;
  /** Bytes of history state kept, the log and its blobs (default 256 MiB); the oldest entries go first, the newest never. */
  historyMaxBytes?: number;
  /** The door changes are recorded as coming through (default `"library"`). */
  door?: Door;
}

/** Options of {@link Workspace.patch}. */
export interface PatchOptions {
  /** Validate and show the diff without writing anything. */
  dryRun?: boolean;
  /** Session whose reads count (default the workspace's). */
  session?: string;
  /**
   * Apply an op whose lines only moved (lines inserted or removed above it)
   * where they now stand, when its read region stands unchanged at exactly
   * one place (default: the workspace's `rebase` option, else false).
   */
  rebase?: boolean;
  /** Syntax check of this patch (default: the workspace's `check` option). */
  check?: CheckMode;
}

/** Options of {@link Workspace.write}. */
export interface WriteOptions {
  /** Session whose reads count (default the workspace's). */
  session?: string;
  /** Syntax check of this write (default: the workspace's `check` option). */
  check?: CheckMode;
}

/** Files under one root, with sessions, confinement and all-or-nothing commits. */
export interface Workspace {
  /** Real path of the root. */
  readonly root: string;
  /** The state folder (sessions and journal). */
  readonly stateDir: string;
  /** The default session. */
  readonly session: string;
  /**
   * Reads a window of a file as `LINE:HH|content` lines and records the
   * lines' full hashes for the session.
   */
  read(path: string, window?: ReadOptions): Promise<FileRead>;
  /**
   * Lists files under the root: `.gitignore`d and denied paths, `.git/` and
   * `.hashline/` left out; at most 1,000 paths.
   */
  list(options?: ListOptions): Promise<FileList>;
  /**
   * Finds lines matching a regular expression, at most 200, shown anchored
   * and recorded as read for the session, so a patch can name them without
   * another read.
   */
  search(options: SearchOptions): Promise<SearchResult>;
  /** Validates a patch against the live files and commits it to every file, or to none. */
  patch(
    patch: Patch | string,
    options?: PatchOptions,
  ): Promise<PatchResult>;
  /** Creates a file, or replaces one the session has read, with exactly this content. */
  write(
    path: string,
    content: string,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /**
   * Creates a file that must not exist yet (never overwrites, even under a
   * race): refused with `EXISTS` when something is there.
   */
  create(
    path: string,
    content: string,
    options?: WriteOptions,
  ): Promise<WriteResult>;
  /** Checks a path against the root and says whether a regular file is there. */
  stat(path: string): Promise<PathInfo>;
  /**
   * Reads a whole file as text and records every line as seen by the
   * session (for callers that edit by string matching and then patch).
   */
  readText(path: string, options?: WriteOptions): Promise<TextRead>;
  /** Frees a session's read records, in memory and in the state folder. */
  forgetSession(session: string): Promise<void>;
  /** Finishes or undoes commits that a crashed process left half done (also run before each write). */
  recover(): Promise<RecoveryReport>;
  /** The history's entries, newest first (filters: session, root-relative path, limit, default 50). */
  history(query?: HistoryQuery): Promise<HistoryList>;
  /** One entry with each file's diff; `NOT_FOUND` when the log does not hold it. */
  entry(id: string): Promise<EntryDetail>;
  /**
   * Reverts one entry as one all-or-nothing commit (itself an entry), where
   * every line it wrote still stands as written; else refused with
   * `MOVED_ON`, naming each file and line, and nothing is written.
   */
  undo(id: string, options?: UndoOptions): Promise<UndoResult>;
}
