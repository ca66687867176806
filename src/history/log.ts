/**
 * The append-only history log in the state folder (`<state>/history/log`).
 *
 * Each record is one line, `LEN CRC32 JSON\n` (LEN the JSON's UTF-8 byte
 * length, CRC32 in hex): a line cut short by a crash, or one whose checksum
 * does not match, is skipped on read, and the next append starts on a fresh
 * line, so a torn last record never breaks the log. A record that passes
 * its checksum but not the entry's shape is skipped and reported. Ids
 * (`h_N`) come from a counter file updated under the history lock (which
 * names its holder as file locks do), so they only grow, across restarts,
 * processes and PID namespaces.
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
  fsyncSync,
  mkdirSync,
  open,
  openSync,
  readSync,
  renameSync,
  statSync,
  writeAllSync,
  writeSync,
} from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
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
  return `${bytes.length} ${crc32(bytes).toString(16)} ${json}\n`;
}

const lines = new WeakMap<EntryRecord, string>();
/** Records built by {@link HistoryLog.begin}, already counted in the counter. */
const begun = new WeakSet<EntryRecord>();

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
  /**
   * Whether this instance has checked the counter against the log's newest
   * ids. The counter is not flushed, so only a power cut can leave it behind
   * the log, and a power cut also ends this process: once per instance is
   * enough.
   */
  private tailChecked = false;
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

  private async lock(): Promise<() => void> {
    this.ensureDir();
    try {
      return await lockHistory(this.dir);
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
      regular = fstatSync(fd).isFile();
    } catch {
      // Judged below as not regular.
    }
    if (!regular) {
      closeSync(fd);
      throw new HashlineError(
        "HISTORY",
        `${what}: ${this.file} is not a regular file (a FIFO, device, socket or folder). Move it aside, then retry.`,
      );
    }
    return fd;
  }

  private readCounter(): Counter | null {
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
        return v;
      }
    } catch {
      // Missing or damaged: rebuilt from the log.
    }
    return null;
  }

  /**
   * Not flushed: the rename makes it whole across a crash, and after a power
   * cut that loses it, {@link allocate} still starts past the log's newest
   * id (the log is flushed).
   */
  private writeCounter(v: Counter): void {
    const tmp = `${this.counter}.${processId()}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, encoder.encode(JSON.stringify(v)));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.counter);
  }

  /** The highest id among the log's last records. */
  private tailMax(): number {
    const fd = this.openLog(false);
    if (fd === null) return 0;
    try {
      let max = 0;
      let seen = 0;
      this.scanBack(fd, (value) => {
        max = Math.max(max, idOf(value) || 0);
        return ++seen < DISORDER * 4;
      });
      return max;
    } finally {
      closeSync(fd);
    }
  }

  private counterNow(): Counter {
    const c = this.readCounter();
    if (c) return c;
    const records = this.records();
    let max = 0;
    let bytes = 0;
    for (const r of records) max = Math.max(max, idNumber(r.id) || 0);
    try {
      bytes = statSync(this.file).size;
    } catch {
      // No log yet.
    }
    for (const b of this.blobs.list()) bytes += b.size;
    return { next: max + 1, count: records.length, bytes };
  }

  private take(): number {
    const c = this.counterNow();
    const next = this.tailChecked
      ? c.next
      : Math.max(c.next, this.tailMax() + 1);
    this.tailChecked = true;
    this.writeCounter({ ...c, next: next + 1 });
    return next;
  }

  /**
   * Takes the next id: it is never handed out again, even when the change
   * it was taken for is then refused or cut short.
   */
  async allocate(): Promise<string> {
    const release = await this.lock();
    try {
      return `h_${this.take()}`;
    } catch (error) {
      throw this.refuse(error, this.counter, "Cannot keep the edit history");
    } finally {
      release();
    }
  }

  /**
   * Takes the next id and builds its record as the log will keep it: long
   * text moved to blobs (flushed, before the commit's journal names them).
   *
   * @param build Makes the record for an id.
   * @returns The record to commit (journal it, then {@link append} it).
   */
  async begin(build: (id: string) => EntryRecord): Promise<EntryRecord> {
    const release = await this.lock();
    try {
      const c = this.counterNow();
      const n = this.tailChecked
        ? c.next
        : Math.max(c.next, this.tailMax() + 1);
      this.tailChecked = true;
      let added = 0;
      let line = 0;
      try {
        const stored = await externalize(this.blobs, build(`h_${n}`));
        added = stored.added;
        line = encoder.encode(framed(stored.record)).length;
        begun.add(stored.record);
        return stored.record;
      } finally {
        // The id is taken even when the record could not be built; the
        // entry is counted now, so its append need not write the counter.
        this.writeCounter({
          next: n + 1,
          count: c.count + (line > 0 ? 1 : 0),
          bytes: c.bytes + added + line,
        });
      }
    } catch (error) {
      throw this.refuse(error, this.blobs.dir, "Cannot keep the edit history");
    } finally {
      release();
    }
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
    // Counted when it was built: by begin here, or (recovered from a
    // journal) by the process that began it.
    const counted = once || begun.has(record);
    const release = await this.lock();
    try {
      if (once && this.locate(record.id) !== undefined) return;
      const line = framed(record);
      const fd = this.openLog(true)!;
      let written = 0;
      try {
        let prefix = "";
        const size = fstatSync(fd).size;
        if (size > 0) {
          const last = new Uint8Array(1);
          readSync(fd, last, 0, 1, size - 1);
          // A torn last record: the new one starts on its own line.
          if (last[0] !== 10) prefix = "\n";
        }
        const bytes = encoder.encode(prefix + line);
        writeAllSync(fd, bytes);
        if (flush) fsyncSync(fd);
        written = bytes.length;
      } finally {
        closeSync(fd);
      }
      const c = this.counterNow();
      const n = idNumber(record.id);
      const next = Math.max(c.next, Number.isNaN(n) ? 0 : n + 1);
      const count = counted ? c.count : c.count + 1;
      const bytes = counted ? c.bytes : c.bytes + written;
      if (
        count > this.limit + Math.floor(this.limit / 10) ||
        bytes > this.maxBytes
      ) {
        this.writeCounter({ next, ...this.prune() });
      } else if (!counted || next !== c.next) {
        this.writeCounter({ next, count, bytes });
      }
    } catch (error) {
      throw this.refuse(error, this.file, "Cannot keep the edit history");
    } finally {
      release();
    }
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

  private async drain(): Promise<void> {
    while (this.flushedSeq < this.appended) {
      const upTo = this.appended;
      let ok = true;
      try {
        const h = await open(
          this.file,
          constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
        );
        try {
          await h.sync();
        } finally {
          await h.close();
        }
      } catch {
        ok = false;
      }
      this.flushedSeq = upTo;
      const due = this.afterFlush.filter((a) => a.seq <= upTo);
      this.afterFlush = this.afterFlush.filter((a) => a.seq > upTo);
      if (ok) {
        for (const a of due) {
          try {
            a.then();
          } catch {
            // A journal that cannot go is settled by recovery.
          }
        }
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
    const tmp = `${this.file}.${processId()}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeAllSync(fd, encoder.encode(kept.reverse().join("")));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
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
        if (n === target) return { value: parsed!.value, offset: p };
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
