/**
 * The append-only history log in the state folder (`<state>/history/log`,
 * docs/history.md "Storage and bounds"): one framed line per record, ids
 * that only grow, taken under the history lock; a one-file commit's record
 * is its journal ({@link HistoryLog.appendPending}), voided in place when
 * the commit does not land; bounded reads from the log's end; retention by
 * count and bytes, with the text an undo needs beyond a small inline size
 * in blobs (`blobs.ts`).
 *
 * This class holds the lock, the open log and what this process knows of
 * it; each question it asks has a file of its own in `log/`: how a record
 * is framed (`_frames.ts`), where records are found by offset
 * (`_offsets.ts`), the counts and the counter file (`_counts.ts`), writer
 * files (`_writers.ts`), the shared flush (`_group_flush.ts`), retention
 * (`_retention.ts`), listing (`_listing.ts`), voiding a record in place
 * (`_void.ts`) and opening history state (`_state_files.ts`).
 *
 * @module
 */
import { join } from "node:path";
import { closeSync, fstatSync, fsyncSync, statSync } from "../_runtime/fs.ts";
import { HashlineError } from "../errors.ts";
import { folderRefusal, makeFolderHere } from "../fs/state_file.ts";
import type {
  CommitIntent,
  GoneWriter,
  LoggedCommit,
  PendingEntry,
} from "../commit/types.ts";
import type { EntryRecord } from "./types.ts";
import { recordProblem } from "./check.ts";
import { Blobs, externalize, internalize } from "./blobs.ts";
import { idNumber } from "./ids.ts";
import { framed, frameRecord, parseLog, readFull } from "./log/_frames.ts";
import { type LineAt, locateIn, type ReadStats } from "./log/_offsets.ts";
import { voidInLog } from "./log/_void.ts";
import { KnownCounts, type LogState } from "./log/_counts.ts";
import {
  commitMark,
  deadWriters,
  pendingIn,
  writerFile,
} from "./log/_writers.ts";
import { GroupFlush } from "./log/_group_flush.ts";
import {
  type HistoryLogOptions,
  type Limits,
  overLimits,
  pastRetention,
  prune,
} from "./log/_retention.ts";
import {
  KEEP,
  lockFolder,
  openLogFile,
  refuse,
  writeLine,
} from "./log/_state_files.ts";
import {
  listIn,
  type LogFilter,
  type LogListing,
  malformed,
} from "./log/_listing.ts";

export { crc32, frameRecord, isVoid, parseLog } from "./log/_frames.ts";
export { idNumber } from "./ids.ts";
export type { LogFilter, LogListing } from "./log/_listing.ts";
export type { HistoryLogOptions } from "./log/_retention.ts";
export type {
  CommitIntent,
  GoneWriter,
  LoggedCommit,
  PendingEntry,
} from "../commit/types.ts";

const decoder = new TextDecoder();

/** A record appended as its commit's journal (see {@link HistoryLog.appendPending}). */
export interface PendingAppend extends PendingEntry {
  /** The record as the log keeps it, without the commit it names. */
  record: EntryRecord;
}

/** The history of one state folder. */
export class HistoryLog {
  readonly dir: string;
  readonly limit: number;
  readonly maxBytes: number;
  /** The log file. */
  readonly file: string;
  /** What reads have cost so far (bytes read from the log, lines parsed). */
  readonly stats: ReadStats = {
    bytesRead: 0,
    parsed: 0,
  };
  private readonly counts: KnownCounts;
  private readonly blobs: Blobs;
  /** What retention keeps. */
  private readonly limits: Limits;
  /** Whether this instance made (or found) the history folder. */
  private dirMade = false;
  /** Whether this instance made (or found) the blobs folder. */
  private blobsMade = false;
  /** The log as {@link openLog} last opened it. */
  private openedAs: { fd: number; ino: number; size: number } | null = null;
  /** Where this process's last append ended (the log then ends with a newline). */
  private cleanEnd: { ino: number; size: number } | null = null;
  /** The flushes shared by the appends that do not wait for their own. */
  private readonly flushes: GroupFlush;

  /**
   * @param stateDir The workspace's state folder.
   * @param options Retention (or the entry limit alone, default 10,000).
   */
  constructor(stateDir: string, options: number | HistoryLogOptions = {}) {
    const o = typeof options === "number" ? { limit: options } : options;
    this.dir = join(stateDir, "history");
    this.limit = o.limit ?? 10_000;
    this.maxBytes = o.maxBytes ?? 256 * 1024 * 1024;
    this.limits = {
      limit: this.limit,
      maxBytes: this.maxBytes,
      blobGraceMs: o.blobGraceMs ?? 60_000,
    };
    this.file = join(this.dir, "log");
    this.counts = new KnownCounts(join(this.dir, "next"));
    this.blobs = new Blobs(this.dir);
    this.flushes = new GroupFlush(this.file);
  }

  /**
   * Runs `work` holding the history lock; a failure is refused as one to
   * keep the history, naming `path`.
   */
  private async underLock<T>(
    path: string,
    work: () => T | Promise<T>,
  ): Promise<T> {
    const release = await this.lock();
    try {
      return await work();
    } catch (error) {
      throw refuse(error, path, KEEP);
    } finally {
      release();
    }
  }

  private async lock(): Promise<() => void> {
    const release = await lockFolder(
      this.dir,
      this.dirMade,
      () => this.refuseLinkedFolders(),
    );
    this.dirMade = true;
    return release;
  }

  /**
   * Refuses to write history through a folder planted as a symlink (the
   * history folder, its blobs or its writers): a state folder may come
   * with the repository (docs/workspace.md "State folder").
   */
  private refuseLinkedFolders(): void {
    for (const dir of [this.dir, this.blobs.dir, join(this.dir, "writers")]) {
      // The blobs folder is made here once the history folder is judged
      // real: then every later look finds a folder there, and a look that
      // finds nothing builds an error (costly on some runtimes) each time.
      if (dir === this.blobs.dir && !this.blobsMade) {
        makeFolderHere(dir);
        this.blobsMade = true;
      }
      const refused = folderRefusal(dir);
      if (refused !== null) {
        throw new HashlineError(
          "HISTORY",
          `Cannot keep the edit history: ${refused}`,
        );
      }
    }
  }

  /** Opens the log (see `openLogFile`), noting its inode and size for {@link stateOf}. */
  private openLog(write: boolean): number | null {
    const opened = openLogFile(this.file, write);
    if (opened === null) return null;
    this.openedAs = opened;
    return opened.fd;
  }

  /** The log's counts as they stand (see `KnownCounts.of`; the caller holds the lock). */
  private stateOf(fd: number | null): LogState {
    const st = fd === null
      ? { ino: -1, size: 0 }
      : this.openedAs?.fd === fd
      ? this.openedAs
      : fstatSync(fd);
    this.openedAs = null;
    return this.counts.of(
      fd,
      st,
      () => this.blobs.list().reduce((sum, b) => sum + b.size, 0),
    );
  }

  /** Takes note of an append of `written` bytes, pruning past a limit. */
  private keep(s: LogState, written: number): void {
    this.counts.appended(s, written, (s) => overLimits(s, this.limits), (s) => {
      const kept = prune(this.file, this.records(), this.blobs, this.limits);
      const st = statSync(this.file);
      return { next: s.next, ...kept, ino: st.ino, size: st.size };
    });
  }

  /** Writes a framed line at the log's end (see `writeLine`). */
  private writeLine(
    fd: number,
    s: LogState,
    line: string,
  ): { offset: number; length: number; written: number } {
    const clean = this.cleanEnd;
    const out = writeLine(
      fd,
      s.size,
      line,
      clean?.ino === s.ino && clean.size === s.size,
    );
    this.cleanEnd = { ino: s.ino, size: s.size + out.written };
    return out;
  }

  /**
   * Takes the next id: it is never handed out again, even when the change
   * it was taken for is then refused or cut short.
   */
  async allocate(): Promise<string> {
    return await this.underLock(this.counts.file.path, () => {
      const s = this.readState();
      const n = s.next++;
      this.counts.taken(s);
      return `h_${n}`;
    });
  }

  /** The counts as they stand, from a read of the log (the caller holds the lock). */
  private readState(): LogState {
    const fd = this.openLog(false);
    try {
      return this.stateOf(fd);
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /**
   * Takes the next id and builds its record as the log will keep it: long
   * text moved to blobs (flushed, before the commit's journal names them).
   * The id is written to the counter file at once (the record reaches the
   * log only after the commit's renames), so no other writer takes it.
   *
   * @param build Makes the record for an id.
   * @returns The record to commit (journal it, then {@link append} it).
   */
  async begin(build: (id: string) => EntryRecord): Promise<EntryRecord> {
    return await this.underLock(this.blobs.dir, async () => {
      const s = this.readState();
      const n = s.next++;
      try {
        const stored = await externalize(this.blobs, build(`h_${n}`));
        s.bytes += stored.added;
        return stored.record;
      } finally {
        // The id is taken even when the record could not be built.
        this.counts.taken(s);
      }
    });
  }

  /**
   * Appends a record (part of a commit: the caller's journal names it). With
   * `once`, a record whose id the log already holds is not appended again
   * (a recovery finishing a commit that a crash cut short after the append).
   */
  async append(
    record: EntryRecord,
    once = false,
    flush = true,
  ): Promise<void> {
    await this.underLock(this.file, () => {
      if (once && this.locate(record.id) !== undefined) return;
      const fd = this.openLog(true)!;
      try {
        const s = this.stateOf(fd);
        const { written } = this.writeLine(fd, s, framed(record));
        if (flush) fsyncSync(fd);
        const n = idNumber(record.id);
        if (!Number.isNaN(n) && n >= s.next) s.next = n + 1;
        this.keep(s, written);
      } finally {
        closeSync(fd);
      }
    });
  }

  /**
   * Takes the next id, builds its record and appends it naming the commit
   * it belongs to, under one hold of the lock: the record is the commit's
   * journal. The commit renames only once `flushed` resolves; if it cannot,
   * it calls `cancel`, which voids the record in place. A writer that dies
   * between the two leaves its record and its temporary: recovery
   * ({@link deadWriters}) voids the record of every commit whose temporary
   * is still there.
   *
   * @param build Makes the record for an id.
   * @param commit The commit: target (real path), temporary (base name) and the staged file's inode.
   */
  async appendPending(
    build: (id: string) => EntryRecord,
    commit: CommitIntent,
  ): Promise<PendingAppend> {
    const done = await this.underLock(this.file, async () => {
      const fd = this.openLog(true)!;
      try {
        const s = this.stateOf(fd);
        const writer = writerFile(this.dir, s.next);
        const id = `h_${s.next++}`;
        const stored = await externalize(this.blobs, build(id));
        s.bytes += stored.added;
        const line = frameRecord(
          {
            ...stored.record,
            commit: commitMark(writer, commit),
          } as EntryRecord,
        );
        const { offset, length, written } = this.writeLine(fd, s, line);
        this.keep(s, written);
        return {
          record: stored.record,
          at: { id, offset, length, ino: s.ino },
        };
      } finally {
        closeSync(fd);
      }
    });
    const flushed = this.flushes.covered();
    const at = done.at;
    return {
      record: done.record,
      flushed,
      cancel: () => this.voidAt(at),
    };
  }

  /**
   * Writers whose process is gone and whose file is still there: provably
   * (this host boot and PID namespace, pid dead), or, for a writer of
   * another boot, namespace or host, once its file's lease has run out.
   */
  deadWriters(): GoneWriter[] {
    return deadWriters(
      this.dir,
      (writer, floor) => this.pendingOf(writer, floor),
    );
  }

  /** The records naming a commit of `writer`, found from the log's end back to its first id. */
  private pendingOf(writer: string, floor: number): LoggedCommit[] {
    const fd = this.openLog(false);
    if (fd === null) return [];
    try {
      return pendingIn(fd, writer, floor, this.stats);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Voids the record of a commit that did not land, in place: the line
   * keeps its length and its id (never handed out again) and readers pass
   * over it. Flushed.
   */
  async voidEntry(id: string): Promise<void> {
    await this.voidAt({ id, offset: -1, length: 0, ino: -1 });
  }

  private async voidAt(at: LineAt): Promise<void> {
    await this.underLock(this.file, () => {
      if (voidInLog(this.file, at, this.stats)) this.counts.voided();
    });
  }

  /**
   * Appends a record as part of a commit whose journal already holds it,
   * without waiting for a flush: the flush comes after, shared by every
   * commit appended meanwhile (outside the files' locks), and `then` runs
   * once it covers this record (the commit removes its journal there). If
   * a flush fails, `then` never runs: the journal stays, and recovery
   * finishes the append from it.
   */
  async appendDeferred(record: EntryRecord, then: () => void): Promise<void> {
    await this.append(record, false, false);
    this.flushes.then(then);
  }

  /** Resolves once a flush covers every record appended so far (never rejects). */
  settled(): Promise<void> {
    return this.flushes.settled();
  }

  /**
   * The newest records that pass the filter, newest first, reading the log
   * from its end: the work is in the entries asked for, not the log's size.
   */
  list(filter: LogFilter): LogListing {
    const fd = this.openLog(false);
    if (fd === null) return { records: [], warnings: [] };
    try {
      return listIn(fd, this.file, filter, this.limit, this.stats);
    } finally {
      closeSync(fd);
    }
  }

  /** The value of the record with this id and its offset (see `locateIn`). */
  private locate(id: string): { value: unknown; offset: number } | undefined {
    if (Number.isNaN(idNumber(id))) return undefined;
    const fd = this.openLog(false);
    if (fd === null) return undefined;
    try {
      return locateIn(fd, id, this.stats);
    } finally {
      closeSync(fd);
    }
  }

  /** Whether `limit` entries or more stand after the record of `id` at `offset`. */
  private pastRetention(id: string, offset: number): boolean {
    const fd = this.openLog(false);
    if (fd === null) return false;
    try {
      return pastRetention(fd, id, offset, this.limit, this.stats);
    } finally {
      closeSync(fd);
    }
  }

  /** Every well-formed record the log holds, oldest first by id. */
  records(): EntryRecord[] {
    const fd = this.openLog(false);
    if (fd === null) return [];
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(fstatSync(fd).size);
      readFull(fd, bytes, 0, bytes.length, 0);
      this.stats.bytesRead += bytes.length;
    } finally {
      closeSync(fd);
    }
    return parseLog(decoder.decode(bytes))
      .sort((a, b) => idNumber(a.id) - idNumber(b.id));
  }

  /**
   * The record with this id, its blobs' text in place, or undefined.
   *
   * @throws {HashlineError} `HISTORY` when the record is malformed or a blob it needs is missing or damaged.
   */
  async get(id: string): Promise<EntryRecord | undefined> {
    const found = this.locate(id);
    if (found === undefined) return undefined;
    // Retention keeps the newest `limit` entries: one the log still holds
    // between prunes is past it, as a listing shows, and cannot be shown or
    // undone either.
    if (this.pastRetention(id, found.offset)) return undefined;
    const problem = recordProblem(found.value);
    if (problem !== null) {
      throw new HashlineError(
        "HISTORY",
        `Cannot read entry ${id} of the edit history: ${
          malformed(this.file, found.value, found.offset, problem)
        } It cannot be shown or undone.`,
      );
    }
    return await internalize(this.blobs, found.value as EntryRecord);
  }
}
