/**
 * The append-only history log in the state folder (`<state>/history/log`).
 *
 * Each record is one line, `LEN CRC32 JSON\n` (LEN the JSON's UTF-8 byte
 * length, CRC32 in hex): a line cut short by a crash, or one whose checksum
 * does not match, is skipped on read, and the next append starts on a fresh
 * line, so a torn last record never breaks the log. A record that passes
 * its checksum but not the entry's shape is skipped and reported. Ids
 * (`h_N`) are taken under the history lock (which names its holder as file
 * locks do) past the log's highest id and the counter file's `next` (ids
 * taken early for journaled commits), so they only grow, across restarts,
 * processes and PID namespaces; the counter file is a checkpoint of the
 * counts up to a size of the log, so a writer counts only what was appended
 * since.
 *
 * A one-file commit's record is its journal ({@link HistoryLog.appendPending}):
 * it names the commit's target and temporary, and is voided in place (same
 * length, same id, passed over by readers) when the commit does not land.
 *
 * Reads are bounded: a listing reads the log backwards from its end until
 * it has the entries asked for; one entry is found by a binary search over
 * byte offsets (records are appended in id order, give or take the writers
 * in flight). The log is opened without following a symlink and without
 * blocking, and refused at once (`HISTORY`) when it is not a regular file.
 *
 * Retention keeps the newest `limit` entries and at most `maxBytes` of
 * history state (the log and its blobs), oldest first out, the newest never;
 * text an undo needs beyond a small inline size lives in blobs
 * (`blobs.ts`), removed once no kept entry names them.
 *
 * @module
 */
import { join } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  fsync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  unlinkSync,
  utimes,
  writeAllSync,
  writeSync,
} from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
import {
  folderRefusal,
  StateFileSkipped,
  writeStateFile,
} from "../fs/state_file.ts";
import { bootId } from "../_runtime/host.ts";
import {
  LEASE_MS,
  localId,
  REFRESH_MS,
  tempId,
  tempOwnerGone,
} from "../lock/holder.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { HashlineError } from "../errors.ts";
import type { EntryRecord } from "./types.ts";
import { recordProblem } from "./check.ts";
import { lockHistory } from "./_lock.ts";
import { Blobs, blobsOf, externalize, internalize } from "./blobs.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE) of bytes. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** One record as a framed line. */
export function frameRecord(record: EntryRecord): string {
  const json = JSON.stringify(record);
  const bytes = encoder.encode(json);
  return `${bytes.length} ${
    crc32(bytes).toString(16).padStart(8, "0")
  } ${json}\n`;
}

/**
 * Whether a value read from the log is a voided record: the entry of a
 * commit that never landed, rewritten in place (same length) so readers
 * pass over it in silence while its id stays taken.
 */
export function isVoid(value: unknown): boolean {
  return (value as { void?: unknown } | null)?.void === true;
}

/**
 * A framed void line of exactly `length` bytes (newline included) for id,
 * to write over a record of that length.
 */
function voidLine(id: string, length: number): Uint8Array | null {
  const core = JSON.stringify({ id, void: true });
  for (let digits = 1; digits <= 10; digits++) {
    const jsonLen = length - digits - 1 - 8 - 1 - 1;
    if (jsonLen < core.length || String(jsonLen).length !== digits) continue;
    const json = encoder.encode(core + " ".repeat(jsonLen - core.length));
    const head = `${jsonLen} ${crc32(json).toString(16).padStart(8, "0")} `;
    const out = new Uint8Array(length);
    const h = encoder.encode(head);
    out.set(h, 0);
    out.set(json, h.length);
    out[length - 1] = 10;
    return out;
  }
  return null;
}

const lines = new WeakMap<EntryRecord, string>();
/** This process's writer file in each history folder (made on first need). */
const writers = new Map<string, string>();

/** A SHA-256 digest in hex. */
const HEX64 = /^[0-9a-f]{64}$/;

/** A record's framed line, made once per record object (a commit frames it to count it, then to append it). */
function framed(record: EntryRecord): string {
  let line = lines.get(record);
  if (line === undefined) lines.set(record, line = frameRecord(record));
  return line;
}

/** The records of a log's text, in file order; torn or damaged lines are skipped. */
export function parseLog(text: string): EntryRecord[] {
  const out: EntryRecord[] = [];
  let pos = 0;
  while (pos < text.length) {
    let nl = text.indexOf("\n", pos);
    const complete = nl >= 0;
    if (!complete) nl = text.length;
    const line = text.slice(pos, nl);
    pos = nl + 1;
    if (!complete) break;
    const m = /^(\d+) ([0-9a-f]{1,8}) /.exec(line);
    if (!m) continue;
    const json = line.slice(m[0].length);
    const bytes = encoder.encode(json);
    if (bytes.length !== Number(m[1]) || crc32(bytes) !== parseInt(m[2], 16)) {
      continue;
    }
    try {
      const r = JSON.parse(json);
      if (recordProblem(r) === null) out.push(r);
    } catch {
      // Checksum matched but not JSON: not one of ours; skipped.
    }
  }
  return out;
}

/** The number of an `h_N` id, or NaN. */
export function idNumber(id: string): number {
  const m = /^h_([1-9]\d{0,15})$/.exec(id);
  return m ? Number(m[1]) : NaN;
}

/** What a listing found, newest first, with the records it skipped. */
export interface LogListing {
  /** Entry records, newest first. */
  records: EntryRecord[];
  /** One sentence per malformed record met, naming it. */
  warnings: string[];
}

/** Filters of a listing (`path` root-relative). */
export interface LogFilter {
  session?: string;
  path?: string;
  limit: number;
}

/** Options of a {@link HistoryLog}. */
export interface HistoryLogOptions {
  /** Entries kept (the newest; default 10,000). */
  limit?: number;
  /** Bytes of history state kept (the log and its blobs; default 256 MiB). */
  maxBytes?: number;
  /** Unreferenced blobs younger than this are spared by a prune (a commit in flight may name them; default 60 s). */
  blobGraceMs?: number;
}

interface Counter {
  next: number;
  count: number;
  bytes: number;
  /** The log the counts describe: its inode and size (absent in older counters). */
  ino?: number;
  size?: number;
}

/** The counts of a log, with the inode and size they describe. */
type LogState = Required<Counter>;

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

/** A commit as its record names it in the log. */
interface CommitMark {
  /** The writer file of the process that made it. */
  w: string;
  t: string;
  n: string;
  i: number | null;
  /** {@link CommitIntent.after}. */
  a?: string;
  /** {@link CommitIntent.before}. */
  b?: string | null;
}

/** A record appended as its commit's journal (see {@link HistoryLog.appendPending}). */
export interface PendingAppend {
  /** The record as the log keeps it, without the commit it names. */
  record: EntryRecord;
  /** Resolves once a flush of the log covers the record; rejects when that flush failed. */
  flushed: Promise<void>;
  /** Voids the record (its commit did not land). */
  cancel(): Promise<void>;
}

/** A commit of a dead writer whose record the log holds. */
export interface PendingCommit {
  id: string;
  /** Where its line starts in the log. */
  offset: number;
  target: string;
  temp: string;
  newIno: number | null;
  /** {@link CommitIntent.after}, when the record names it. */
  after?: string;
  /** {@link CommitIntent.before}, when the record names it. */
  before?: string | null;
}

/** A writer whose process is gone, with the commits its records name. */
export interface DeadWriter {
  name: string;
  /** Provably dead (this host boot and PID namespace, pid gone), not only past its lease. */
  dead: boolean;
  /**
   * Its file names a boot of this host other than the current one: its
   * process ran before a restart, which may have lost renames it made but
   * whose folder it had not flushed.
   */
  rebooted: boolean;
  /** Its records that name a commit, oldest first. */
  pending(): PendingCommit[];
  /** Removes its writer file once its commits are settled. */
  forget(): void;
}

interface LineAt {
  id: string;
  offset: number;
  length: number;
  ino: number;
}

/** Appends between two writes of the counter file. */
const SAVE_EVERY = 64;

function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open or flush a folder; the file itself is flushed.
  }
}

const CHUNK = 64 * 1024;
/** Ids may be out of order in the log by the writers in flight at once. */
const DISORDER = 64;
/** Malformed records named in one answer at most. */
const MAX_WARNINGS = 10;

function readFull(
  fd: number,
  buf: Uint8Array,
  at: number,
  len: number,
  pos: number,
): number {
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, at + got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** The JSON value of one framed line (without its `\n`), or null when torn or damaged. */
function parseLine(line: Uint8Array): { value: unknown } | null {
  const head = decoder.decode(line.subarray(0, Math.min(line.length, 32)));
  const m = /^(\d+) ([0-9a-f]{1,8}) /.exec(head);
  if (!m) return null;
  const json = line.subarray(m[0].length);
  if (json.length !== Number(m[1]) || crc32(json) !== parseInt(m[2], 16)) {
    return null;
  }
  try {
    return { value: JSON.parse(decoder.decode(json)) };
  } catch {
    return null;
  }
}

function idOf(value: unknown): number {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" ? idNumber(id) : NaN;
}

/** The history of one state folder. */
export class HistoryLog {
  readonly dir: string;
  readonly limit: number;
  readonly maxBytes: number;
  /** The log file. */
  readonly file: string;
  /** What reads have cost so far (bytes read from the log, lines parsed). */
  readonly stats: { bytesRead: number; parsed: number } = {
    bytesRead: 0,
    parsed: 0,
  };
  private readonly counter: string;
  private readonly blobs: Blobs;
  private readonly blobGraceMs: number;
  /** The counts as this process last left them (the log's inode and size say whether they still hold). */
  private known: LogState | null = null;
  /** Appends since the counter file was written. */
  private unsaved = 0;
  /** Whether this instance made (or found) the history folder. */
  private dirMade = false;
  /** The log as {@link openLog} last opened it. */
  private openedAs: { fd: number; ino: number; size: number } | null = null;
  /** The counter file as last read, by its identity. */
  private counterSeen: { key: string; value: Counter | null } | null = null;
  /** Where this process's last append ended (the log then ends with a newline). */
  private cleanEnd: { ino: number; size: number } | null = null;
  private flushWaiters: {
    seq: number;
    resolve: () => void;
    reject: (error: unknown) => void;
  }[] = [];
  /** Records appended without a flush, and how many a flush covers. */
  private appended = 0;
  private flushedSeq = 0;
  private draining = false;
  private afterFlush: { seq: number; then: () => void }[] = [];
  private waiting: { seq: number; resolve: () => void }[] = [];

  /**
   * @param stateDir The workspace's state folder.
   * @param options Retention (or the entry limit alone, default 10,000).
   */
  constructor(stateDir: string, options: number | HistoryLogOptions = {}) {
    const o = typeof options === "number" ? { limit: options } : options;
    this.dir = join(stateDir, "history");
    this.limit = o.limit ?? 10_000;
    this.maxBytes = o.maxBytes ?? 256 * 1024 * 1024;
    this.blobGraceMs = o.blobGraceMs ?? 60_000;
    this.file = join(this.dir, "log");
    this.counter = join(this.dir, "next");
    this.blobs = new Blobs(this.dir);
  }

  private ensureDir(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (error) {
      throw this.refuse(error, this.dir, "Cannot keep the edit history");
    }
  }

  /**
   * Refuses to write history through a folder planted as a symlink (the
   * history folder, its blobs or its writers): a state folder may come
   * with the repository (docs/workspace.md "State folder").
   */
  private refuseLinkedFolders(): void {
    for (const dir of [this.dir, this.blobs.dir, join(this.dir, "writers")]) {
      const refused = folderRefusal(dir);
      if (refused !== null) {
        throw new HashlineError(
          "HISTORY",
          `Cannot keep the edit history: ${refused}`,
        );
      }
    }
  }

  /** A failure on history state as a typed server-side error naming the file. */
  private refuse(error: unknown, file: string, what: string): unknown {
    if (error instanceof HashlineError) return error;
    const code = errnoOf(error);
    if (
      code === "ENOSPC" || code === "EDQUOT" || code === "EMFILE" ||
      code === "ENFILE"
    ) return mapFsError(error, what);
    const why = code === "ELOOP"
      ? "is a symlink, not a regular file"
      : code === "EISDIR"
      ? "is a folder, not a regular file"
      : code === "ENOTDIR"
      ? "lies under something that is not a folder"
      : `could not be used (${
        code ?? (error instanceof Error ? error.message : String(error))
      })`;
    return new HashlineError(
      "HISTORY",
      `${what}: ${file} ${why}. Move it aside or fix it, then retry.`,
    );
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
      throw this.refuse(error, path, "Cannot keep the edit history");
    } finally {
      release();
    }
  }

  private async lock(): Promise<() => void> {
    if (!this.dirMade) this.ensureDir();
    this.dirMade = true;
    this.refuseLinkedFolders();
    try {
      try {
        return await lockHistory(this.dir);
      } catch (error) {
        // The folder was removed since this process made it: made again.
        if (errnoOf(error) !== "ENOENT") throw error;
        this.ensureDir();
        return await lockHistory(this.dir);
      }
    } catch (error) {
      throw this.refuse(
        error,
        join(this.dir, "lock"),
        "Cannot keep the edit history",
      );
    }
  }

  /** Opens the log to read: null when there is none; `HISTORY` when it is not a regular file. */
  private openLog(write: boolean): number | null {
    const flags =
      (write
        ? constants.O_RDWR | constants.O_CREAT | constants.O_APPEND
        : constants.O_RDONLY) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
    const what = write
      ? "Cannot keep the edit history"
      : "Cannot read the edit history";
    let fd: number;
    try {
      fd = openSync(this.file, flags, 0o644);
    } catch (error) {
      if (!write && errnoOf(error) === "ENOENT") return null;
      throw this.refuse(error, this.file, what);
    }
    let regular = false;
    try {
      const st = fstatSync(fd);
      // A hard link planted at the log's name would have appends land in
      // a file outside the state folder (docs/workspace.md "State folder").
      regular = st.isFile() && st.nlink === 1;
      this.openedAs = { fd, ino: st.ino, size: st.size };
    } catch {
      // Judged below as not regular.
    }
    if (!regular) {
      closeSync(fd);
      throw new HashlineError(
        "HISTORY",
        `${what}: ${this.file} is not a regular file with one name (a FIFO, device, socket, folder or hard link). Move it aside, then retry.`,
      );
    }
    return fd;
  }

  /**
   * The counter file's content, read again only when its identity (inode,
   * size, times) changed since this process last read it.
   */
  private readCounter(): Counter | null {
    let key: string;
    try {
      const st = lstatSync(this.counter);
      key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return null;
    }
    if (this.counterSeen?.key === key) return this.counterSeen.value;
    const value = this.loadCounter();
    this.counterSeen = { key, value };
    return value;
  }

  private loadCounter(): Counter | null {
    try {
      const fd = openSync(
        this.counter,
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
      let bytes: Uint8Array;
      try {
        // Anything but a small regular file is rebuilt from the log.
        const st = fstatSync(fd);
        if (!st.isFile() || st.size > 4096) return null;
        bytes = new Uint8Array(st.size);
        readFull(fd, bytes, 0, bytes.length, 0);
      } finally {
        closeSync(fd);
      }
      const v = JSON.parse(decoder.decode(bytes));
      if (
        Number.isSafeInteger(v.next) && Number.isSafeInteger(v.count) &&
        Number.isSafeInteger(v.bytes)
      ) {
        const log = Number.isSafeInteger(v.ino) && Number.isSafeInteger(v.size)
          ? { ino: v.ino, size: v.size }
          : {};
        return { next: v.next, count: v.count, bytes: v.bytes, ...log };
      }
    } catch {
      // Missing or damaged: rebuilt from the log.
    }
    return null;
  }

  /**
   * Not flushed: the rename makes it whole across a crash, and after a power
   * cut that loses it, the counts are taken again from the log (which is
   * flushed) past the size the counter names.
   */
  private writeCounter(v: Counter): void {
    // Never into a link or FIFO planted at the name (docs/workspace.md
    // "State folder"); one that stands there is rebuilt from the log.
    try {
      writeStateFile(this.counter, JSON.stringify(v));
    } catch (error) {
      if (!(error instanceof StateFileSkipped)) throw error;
    }
    this.unsaved = 0;
  }

  /**
   * The log's counts as they stand (the caller holds the lock; `fd` is the
   * log, or null when there is none): from what this process last knew, or
   * the counter file, when either describes this log up to a size it has
   * reached (the records past it are read and counted), else counted from
   * the whole log. Ids taken for journaled commits not appended yet live in
   * the counter file only, so its `next` always counts.
   */
  private stateOf(fd: number | null): LogState {
    const st = fd === null
      ? { ino: -1, size: 0 }
      : this.openedAs?.fd === fd
      ? this.openedAs
      : fstatSync(fd);
    this.openedAs = null;
    const c = this.readCounter();
    let s: LogState | null = null;
    for (const base of [this.known, c]) {
      if (
        !base || base.ino !== st.ino || base.size === undefined ||
        base.size > st.size
      ) continue;
      s = this.advance(fd!, base as LogState, st.size);
      break;
    }
    if (s === null) {
      s = this.recount(fd, st.ino, st.size);
      this.unsaved = Infinity;
    }
    if (c && c.next > s.next) s.next = c.next;
    return s;
  }

  /** Counts the records between what `base` describes and `size`. */
  private advance(fd: number, base: LogState, size: number): LogState {
    const s = { ...base };
    if (size === base.size) return s;
    const buf = new Uint8Array(size - base.size);
    readFull(fd, buf, 0, buf.length, base.size);
    this.tally(buf, s);
    s.bytes += buf.length;
    s.size = size;
    return s;
  }

  /** Adds the complete records of `buf` to the counts (ids of voided ones too). */
  private tally(buf: Uint8Array, s: LogState): void {
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(10, start);
      if (nl < 0) return;
      const parsed = parseLine(buf.subarray(start, nl));
      start = nl + 1;
      if (!parsed) continue;
      const n = idOf(parsed.value);
      if (!Number.isNaN(n) && n >= s.next) s.next = n + 1;
      if (!isVoid(parsed.value) && recordProblem(parsed.value) === null) {
        s.count++;
      }
    }
  }

  /** The counts taken from the whole log and the blobs. */
  private recount(fd: number | null, ino: number, size: number): LogState {
    const s: LogState = { next: 1, count: 0, bytes: size, ino, size };
    if (fd !== null && size > 0) {
      const buf = new Uint8Array(size);
      readFull(fd, buf, 0, size, 0);
      this.tally(buf, s);
    }
    for (const b of this.blobs.list()) s.bytes += b.size;
    return s;
  }

  /**
   * Takes note of the counts after an append of one record of `written`
   * bytes: prunes when past a limit, and writes the counter file now and
   * then (it only spares another process, or the next, from counting the
   * records past it).
   */
  private keep(s: LogState, written: number): void {
    s.count++;
    s.bytes += written;
    s.size += written;
    if (
      s.count > this.limit + Math.floor(this.limit / 10) ||
      s.bytes > this.maxBytes
    ) {
      const kept = this.prune();
      const st = statSync(this.file);
      s = { next: s.next, ...kept, ino: st.ino, size: st.size };
      this.unsaved = Infinity;
    }
    this.known = s;
    if (++this.unsaved >= SAVE_EVERY) this.writeCounter(s);
  }

  /**
   * Writes a framed line at the log's end (on a fresh line after a torn
   * record); returns where the line starts, its length and the bytes
   * written.
   */
  private writeLine(
    fd: number,
    s: LogState,
    line: string,
  ): { offset: number; length: number; written: number } {
    let prefix = "";
    const clean = this.cleanEnd;
    if (s.size > 0 && !(clean?.ino === s.ino && clean.size === s.size)) {
      const last = new Uint8Array(1);
      readSync(fd, last, 0, 1, s.size - 1);
      // A torn last record: the new one starts on its own line.
      if (last[0] !== 10) prefix = "\n";
    }
    const bytes = encoder.encode(prefix + line);
    writeAllSync(fd, bytes);
    this.cleanEnd = { ino: s.ino, size: s.size + bytes.length };
    return {
      offset: s.size + prefix.length,
      length: bytes.length - prefix.length,
      written: bytes.length,
    };
  }

  /**
   * Takes the next id: it is never handed out again, even when the change
   * it was taken for is then refused or cut short.
   */
  async allocate(): Promise<string> {
    return await this.underLock(this.counter, () => {
      const s = this.readState();
      const n = s.next++;
      this.known = s;
      this.writeCounter(s);
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
        this.known = s;
        this.writeCounter(s);
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
        const writer = this.writerFile(s.next);
        const id = `h_${s.next++}`;
        const stored = await externalize(this.blobs, build(id));
        s.bytes += stored.added;
        const commitOf: CommitMark = {
          w: writer,
          t: commit.target,
          n: commit.temp,
          i: commit.newIno,
          ...(commit.after === undefined
            ? {}
            : { a: commit.after, b: commit.before ?? null }),
        };
        const line = frameRecord(
          { ...stored.record, commit: commitOf } as EntryRecord,
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
    const seq = ++this.appended;
    const flushed = new Promise<void>((resolve, reject) =>
      this.flushWaiters.push({ seq, resolve, reject })
    );
    // Awaited by the commit; handled now, so a failure is never unhandled.
    flushed.catch(() => {});
    this.kick();
    const at = done.at;
    return {
      record: done.record,
      flushed,
      cancel: () => this.voidAt(at),
    };
  }

  /**
   * This process's writer file (`writers/ID.PID`, made and flushed before
   * its first record that names a commit is appended): recovery looks for
   * the records of writers whose process is gone, back from the log's end
   * to the first id the file names. Its second line names the host's boot
   * (`-` when unknown).
   */
  private writerFile(floor: number): string {
    let name = writers.get(this.dir);
    if (name !== undefined) return name;
    name = `${tempId()}.${processId()}`;
    const dir = join(this.dir, "writers");
    try {
      mkdirSync(dir);
    } catch (error) {
      if (errnoOf(error) !== "EEXIST") throw error;
    }
    const fd = openSync(
      join(dir, name),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      0o644,
    );
    try {
      writeAllSync(fd, encoder.encode(`${floor}\n${bootId() ?? "-"}\n`));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    syncFolder(dir);
    writers.set(this.dir, name);
    // Its time is its lease, for writers that cannot judge this process by
    // its pid (another PID namespace or host, or a later boot).
    const file = join(dir, name);
    const lease = setInterval(() => {
      const now = new Date();
      utimes(file, now, now).catch(() => {});
    }, REFRESH_MS);
    (lease as { unref?: () => void }).unref?.();
    return name;
  }

  /**
   * Writers whose process is gone and whose file is still there: provably
   * (this host boot and PID namespace, pid dead), or, for a writer of
   * another boot, namespace or host, once its file's lease has run out.
   */
  deadWriters(): DeadWriter[] {
    const dir = join(this.dir, "writers");
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    const mine = writers.get(this.dir);
    const out: DeadWriter[] = [];
    for (const name of names) {
      if (name === mine) continue;
      const m = /^([0-9a-f]{16})\.(\d+)$/.exec(name);
      if (!m) continue;
      // A writer of this boot and namespace is judged by its pid; any other
      // by its lease (a live writer refreshes its file's time).
      const dead = localId(m[1]);
      if (dead) {
        if (!tempOwnerGone(Number(m[2]), m[1])) continue;
      } else {
        try {
          if (Date.now() - lstatSync(join(dir, name)).mtimeMs <= LEASE_MS) {
            continue;
          }
        } catch {
          continue;
        }
      }
      let floor = 1;
      let rebooted = false;
      try {
        const [first, boot] = readFileSync(join(dir, name), "utf8").split("\n");
        floor = Number(first.trim()) || 1;
        const now = bootId();
        rebooted = now !== null && boot !== undefined && boot !== "-" &&
          /^\S+$/.test(boot) && boot !== now;
      } catch {
        // Unreadable: the whole log is looked through.
      }
      out.push({
        name,
        dead,
        rebooted,
        pending: () => this.pendingOf(name, floor),
        forget: () => {
          try {
            unlinkSync(join(dir, name));
          } catch {
            // Gone already.
          }
        },
      });
    }
    return out;
  }

  /** The records naming a commit of `writer`, found from the log's end back to its first id. */
  private pendingOf(writer: string, floor: number): PendingCommit[] {
    const fd = this.openLog(false);
    if (fd === null) return [];
    const out: PendingCommit[] = [];
    let below = 0;
    try {
      this.scanBack(fd, (value, offset) => {
        const n = idOf(value);
        if (!Number.isNaN(n) && n < floor) return ++below < DISORDER;
        below = 0;
        const c = (value as { commit?: CommitMark } | null)?.commit;
        if (
          c && typeof c === "object" && c.w === writer &&
          typeof c.t === "string" && typeof c.n === "string" && !isVoid(value)
        ) {
          out.push({
            id: (value as { id: string }).id,
            offset,
            target: c.t,
            temp: c.n,
            newIno: Number.isSafeInteger(c.i) ? c.i : null,
            ...(typeof c.a === "string" && HEX64.test(c.a) &&
                (c.b === null || (typeof c.b === "string" && HEX64.test(c.b)))
              ? { after: c.a, before: c.b }
              : {}),
          });
        }
        return true;
      });
    } finally {
      closeSync(fd);
    }
    // Read from the end back; settled oldest first (a commit finished by
    // recovery may be the version the next one replaced).
    return out.reverse();
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
      const fd = openSync(
        this.file,
        constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
      try {
        const st = fstatSync(fd);
        // Written in place only while it is the log alone (see openLog).
        if (!st.isFile() || st.nlink !== 1) return;
        const size = st.size;
        let start = at.offset;
        if (st.ino !== at.ino || start < 0) {
          const found = this.locate(at.id);
          if (found === undefined) return;
          start = found.offset;
        }
        const line = this.lineAt(fd, start, size);
        if (line === null) return;
        const parsed = parseLine(line.bytes);
        if (!parsed || idOf(parsed.value) !== idNumber(at.id)) return;
        if (isVoid(parsed.value)) return;
        const bytes = voidLine(at.id, line.bytes.length + 1);
        if (bytes === null) return;
        let done = 0;
        while (done < bytes.length) {
          done += writeSync(
            fd,
            bytes,
            done,
            bytes.length - done,
            start + done,
          );
        }
        fsyncSync(fd);
        if (this.known && this.known.count > 0) this.known.count--;
      } finally {
        closeSync(fd);
      }
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
    this.afterFlush.push({ seq: ++this.appended, then });
    this.kick();
  }

  /** Resolves once a flush covers every record appended so far (never rejects). */
  settled(): Promise<void> {
    const seq = this.appended;
    if (this.flushedSeq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ seq, resolve }));
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = true;
    void this.drain();
  }

  /**
   * Flushes the log until every record appended so far is covered: one
   * flush serves every record appended while the one before it ran.
   */
  private async drain(): Promise<void> {
    while (this.flushedSeq < this.appended) {
      const upTo = this.appended;
      let failure: unknown = null;
      try {
        const fd = openSync(
          this.file,
          constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        );
        try {
          await new Promise<void>((resolve, reject) =>
            fsync(fd, (error) => error ? reject(error) : resolve())
          );
        } finally {
          closeSync(fd);
        }
      } catch (error) {
        failure = error;
      }
      this.flushedSeq = upTo;
      const due = this.afterFlush.filter((a) => a.seq <= upTo);
      this.afterFlush = this.afterFlush.filter((a) => a.seq > upTo);
      if (failure === null) {
        for (const a of due) {
          try {
            a.then();
          } catch {
            // A journal that cannot go is settled by recovery.
          }
        }
      }
      const flushed = this.flushWaiters.filter((w) => w.seq <= upTo);
      this.flushWaiters = this.flushWaiters.filter((w) => w.seq > upTo);
      for (const w of flushed) {
        if (failure === null) w.resolve();
        else w.reject(failure);
      }
      const woken = this.waiting.filter((w) => w.seq <= upTo);
      this.waiting = this.waiting.filter((w) => w.seq > upTo);
      for (const w of woken) w.resolve();
    }
    this.draining = false;
  }

  /**
   * Rewrites the log with the newest records that fit the limits (the
   * newest always), then removes the blobs no kept record names.
   */
  private prune(): { count: number; bytes: number } {
    const sizes = new Map(this.blobs.list().map((b) => [b.sha, b]));
    const all = this.records();
    const budget = Math.floor(this.maxBytes * 0.9);
    const kept: string[] = [];
    const named = new Set<string>();
    let bytes = 0;
    for (let i = all.length - 1; i >= 0 && kept.length < this.limit; i--) {
      const line = frameRecord(all[i]);
      let cost = encoder.encode(line).length;
      const fresh = blobsOf(all[i]).filter((sha) => !named.has(sha));
      for (const sha of new Set(fresh)) cost += sizes.get(sha)?.size ?? 0;
      if (kept.length > 0 && bytes + cost > budget) break;
      kept.push(line);
      for (const sha of fresh) named.add(sha);
      bytes += cost;
    }
    writeStateFile(this.file, kept.reverse().join(""), { flush: true });
    const now = Date.now();
    for (const b of sizes.values()) {
      if (named.has(b.sha)) continue;
      if (now - b.mtimeMs < this.blobGraceMs) {
        bytes += b.size;
        continue;
      }
      this.blobs.remove(b.sha);
    }
    return { count: kept.length, bytes };
  }

  /**
   * Calls `visit` with each complete line's value from the end of the log
   * backwards (a torn last line is skipped) until it returns false.
   */
  private scanBack(
    fd: number,
    visit: (value: unknown, offset: number) => boolean,
  ): void {
    let pos = fstatSync(fd).size;
    let carry = new Uint8Array(0);
    let sawEnd = false;
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const data = new Uint8Array(len + carry.length);
      readFull(fd, data, 0, len, pos);
      data.set(carry, len);
      this.stats.bytesRead += len;
      let end = data.length;
      if (!sawEnd) {
        const nl = data.lastIndexOf(10);
        if (nl < 0) {
          carry = new Uint8Array(0);
          continue;
        }
        sawEnd = true;
        end = nl + 1;
      }
      for (;;) {
        const j = end - 1;
        const i = j > 0 ? data.lastIndexOf(10, j - 1) : -1;
        if (i < 0 && pos > 0) {
          carry = data.slice(0, end);
          break;
        }
        const parsed = parseLine(data.subarray(i + 1, j));
        this.stats.parsed++;
        if (parsed && !visit(parsed.value, pos + i + 1)) return;
        if (i < 0) return;
        end = i + 1;
      }
    }
  }

  /**
   * The newest records that pass the filter, newest first, reading the log
   * from its end: the work is in the entries asked for, not the log's size.
   */
  list(filter: LogFilter): LogListing {
    const fd = this.openLog(false);
    if (fd === null) return { records: [], warnings: [] };
    const found: EntryRecord[] = [];
    const warnings: string[] = [];
    let bad = 0;
    let past = 0;
    // Retention keeps the newest `limit` entries; the log may hold up to a
    // tenth more between prunes, which a listing does not show.
    let kept = 0;
    try {
      this.scanBack(fd, (value, offset) => {
        if (isVoid(value)) return true;
        const problem = recordProblem(value);
        if (problem !== null) {
          if (++bad <= MAX_WARNINGS) {
            warnings.push(this.malformed(value, offset, problem));
          }
          return true;
        }
        const r = value as EntryRecord;
        if (++kept > this.limit) return false;
        if (found.length >= filter.limit) return ++past < DISORDER;
        if (filter.session !== undefined && r.session !== filter.session) {
          return true;
        }
        // A renamed file is found under its old name too.
        if (
          filter.path !== undefined &&
          !r.files.some((f) =>
            f.path === filter.path || f.renamedFrom === filter.path
          )
        ) return true;
        found.push(r);
        return true;
      });
    } finally {
      closeSync(fd);
    }
    if (bad > MAX_WARNINGS) {
      warnings.push(
        `${
          bad - MAX_WARNINGS
        } more malformed records in ${this.file} were skipped.`,
      );
    }
    found.sort((a, b) => idNumber(b.id) - idNumber(a.id));
    return { records: found.slice(0, filter.limit), warnings };
  }

  /**
   * Whether `limit` entries or more stand after the record of `id` at
   * `offset`. Ids only grow (within a short disorder of appends), so an id
   * that few ids follow needs no count; else the entries after it are
   * counted, stopping at `limit`.
   */
  private pastRetention(id: string, offset: number): boolean {
    const fd = this.openLog(false);
    if (fd === null) return false;
    try {
      let newest = NaN;
      this.scanBack(fd, (value) => {
        newest = idOf(value);
        return Number.isNaN(newest);
      });
      if (newest + DISORDER - idNumber(id) < this.limit) return false;
      const size = fstatSync(fd).size;
      let p: number | null = this.lineAt(fd, offset, size)?.next ?? null;
      let after = 0;
      while (p !== null) {
        const line = this.lineAt(fd, p, size);
        if (line === null) break;
        const parsed = parseLine(line.bytes);
        if (
          parsed && !isVoid(parsed.value) &&
          recordProblem(parsed.value) === null && ++after >= this.limit
        ) return true;
        p = line.next;
      }
      return false;
    } finally {
      closeSync(fd);
    }
  }

  private malformed(value: unknown, offset: number, problem: string): string {
    const id = (value as { id?: unknown } | null)?.id;
    const name = typeof id === "string" && id.length <= 40
      ? `record ${JSON.stringify(id)}`
      : "a record";
    return `Skipped ${name} at byte ${offset} of ${this.file}: ${problem}.`;
  }

  /** The line starting at `start`, or null at the end or a torn last line. */
  private lineAt(
    fd: number,
    start: number,
    size: number,
  ): { bytes: Uint8Array; next: number } | null {
    let len = Math.min(4096, size - start);
    for (;;) {
      if (len <= 0) return null;
      const buf = new Uint8Array(len);
      readFull(fd, buf, 0, len, start);
      this.stats.bytesRead += len;
      const nl = buf.indexOf(10);
      if (nl >= 0) return { bytes: buf.subarray(0, nl), next: start + nl + 1 };
      if (start + len >= size) return null;
      len = Math.min(len * 4, size - start);
    }
  }

  /** The first line that starts at or after `offset`. */
  private lineStart(fd: number, offset: number, size: number): number | null {
    if (offset === 0) return 0;
    const line = this.lineAt(fd, offset - 1, size);
    return line === null ? null : line.next;
  }

  /** The first parsed record at or after a line start, with its id number. */
  private idFrom(
    fd: number,
    start: number,
    size: number,
  ): number | null {
    let p: number | null = start;
    for (let k = 0; k < 64 && p !== null; k++) {
      const line = this.lineAt(fd, p, size);
      if (line === null) return null;
      const parsed = parseLine(line.bytes);
      this.stats.parsed++;
      const n = parsed ? idOf(parsed.value) : NaN;
      if (!Number.isNaN(n)) return n;
      p = line.next;
    }
    return null;
  }

  /**
   * The value of the record with this id and its offset, found by a binary
   * search over byte offsets, then a short scan.
   */
  private locate(id: string): { value: unknown; offset: number } | undefined {
    const target = idNumber(id);
    if (Number.isNaN(target)) return undefined;
    const fd = this.openLog(false);
    if (fd === null) return undefined;
    try {
      const size = fstatSync(fd).size;
      let lo = 0;
      let hi = size;
      while (hi - lo > CHUNK) {
        const mid = Math.floor((lo + hi) / 2);
        const start = this.lineStart(fd, mid, size);
        const n = start === null ? null : this.idFrom(fd, start, size);
        if (n === null || n >= target) hi = mid;
        else lo = mid;
      }
      let p = this.lineStart(fd, Math.max(0, lo - CHUNK), size);
      let past = 0;
      while (p !== null) {
        const line = this.lineAt(fd, p, size);
        if (line === null) break;
        const parsed = parseLine(line.bytes);
        this.stats.parsed++;
        const n = parsed ? idOf(parsed.value) : NaN;
        if (n === target) {
          return isVoid(parsed!.value)
            ? undefined
            : { value: parsed!.value, offset: p };
        }
        if (n > target + DISORDER || (n > target && ++past > DISORDER * 4)) {
          break;
        }
        p = line.next;
      }
      return undefined;
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
          this.malformed(found.value, found.offset, problem)
        } It cannot be shown or undone.`,
      );
    }
    return await internalize(this.blobs, found.value as EntryRecord);
  }
}
