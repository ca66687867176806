/**
 * The append-only history log in the state folder (`<state>/history/log`).
 *
 * Each record is one line, `LEN CRC32 JSON\n` (LEN the JSON's UTF-8 byte
 * length, CRC32 in hex): a line cut short by a crash, or one whose checksum
 * does not match, is skipped on read, and the next append starts on a fresh
 * line, so a torn last record never breaks the log. Ids (`h_N`) come from a
 * counter file updated under a small exclusive lock file, so they only grow,
 * across restarts and processes. Retention keeps the newest `limit` entries
 * (the log is rewritten, oldest first out, once it holds a tenth more).
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
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeAllSync,
  writeSync,
} from "../_runtime/fs.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { HashlineError } from "../errors.ts";
import type { EntryRecord } from "./types.ts";

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
      if (r && typeof r.id === "string" && Array.isArray(r.files)) out.push(r);
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How long a history lock may be held before others take it over. */
const LEASE_MS = 10_000;

/** The history of one state folder. */
export class HistoryLog {
  readonly dir: string;
  readonly limit: number;
  private readonly file: string;
  private readonly counter: string;
  private readonly lockFile: string;
  /**
   * Whether this instance has checked the counter against the log's newest
   * ids. The counter is not flushed, so only a power cut can leave it behind
   * the log, and a power cut also ends this process: once per instance is
   * enough.
   */
  private tailChecked = false;

  /**
   * @param stateDir The workspace's state folder.
   * @param limit Entries kept (the newest; default 10,000).
   */
  constructor(stateDir: string, limit = 10_000) {
    this.dir = join(stateDir, "history");
    this.limit = limit;
    this.file = join(this.dir, "log");
    this.counter = join(this.dir, "next");
    this.lockFile = join(this.dir, "lock");
  }

  private ensureDir(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch (error) {
      throw mapFsError(error, "Cannot keep the edit history");
    }
  }

  private async lock(): Promise<() => void> {
    this.ensureDir();
    const me = processId();
    const deadline = Date.now() + 30_000;
    for (let wait = 1;; wait = Math.min(wait * 2, 20)) {
      try {
        const fd = openSync(
          this.lockFile,
          constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
          0o644,
        );
        try {
          writeSync(fd, encoder.encode(String(me)));
        } finally {
          closeSync(fd);
        }
        return () => {
          try {
            unlinkSync(this.lockFile);
          } catch {
            // Taken over after its lease: nothing to free.
          }
        };
      } catch (error) {
        if (errnoOf(error) !== "EEXIST") {
          throw mapFsError(error, "Cannot keep the edit history");
        }
      }
      try {
        const st = statSync(this.lockFile);
        const owner = Number(decoder.decode(readFileSync(this.lockFile)));
        const young = Date.now() - st.mtimeMs < 1_000;
        // An empty file is one being written this instant: judged on the next turn.
        const dead = Number.isSafeInteger(owner) && owner > 0 &&
          owner !== me && !processAlive(owner);
        if (dead || (!young && Date.now() - st.mtimeMs > LEASE_MS)) {
          unlinkSync(this.lockFile);
          continue;
        }
      } catch {
        continue;
      }
      if (Date.now() > deadline) {
        throw new HashlineError(
          "BUSY",
          "Cannot keep the edit history: its lock stayed taken for 30 s. Try again.",
        );
      }
      await sleep(wait);
    }
  }

  private readCounter(): { next: number; count: number } | null {
    try {
      const v = JSON.parse(decoder.decode(readFileSync(this.counter)));
      if (Number.isSafeInteger(v.next) && Number.isSafeInteger(v.count)) {
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
  private writeCounter(v: { next: number; count: number }): void {
    const tmp = `${this.counter}.${processId()}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      writeSync(fd, encoder.encode(JSON.stringify(v)));
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.counter);
  }

  /** The highest id among the log's last records (its last 64 KiB). */
  private tailMax(): number {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch {
      return 0;
    }
    try {
      const size = fstatSync(fd).size;
      const len = Math.min(size, 64 * 1024);
      const buf = new Uint8Array(len);
      readSync(fd, buf, 0, len, size - len);
      let text = decoder.decode(buf);
      if (len < size) text = text.slice(text.indexOf("\n") + 1);
      let max = 0;
      for (const r of parseLog(text)) max = Math.max(max, idNumber(r.id) || 0);
      return max;
    } finally {
      closeSync(fd);
    }
  }

  private counterNow(): { next: number; count: number } {
    const c = this.readCounter();
    if (c) return c;
    const records = this.records();
    let max = 0;
    for (const r of records) max = Math.max(max, idNumber(r.id) || 0);
    return { next: max + 1, count: records.length };
  }

  /**
   * Takes the next id: it is never handed out again, even when the change
   * it was taken for is then refused or cut short.
   */
  async allocate(): Promise<string> {
    const release = await this.lock();
    try {
      const c = this.counterNow();
      const next = this.tailChecked
        ? c.next
        : Math.max(c.next, this.tailMax() + 1);
      this.tailChecked = true;
      this.writeCounter({ next: next + 1, count: c.count });
      return `h_${next}`;
    } catch (error) {
      throw mapFsError(error, "Cannot keep the edit history");
    } finally {
      release();
    }
  }

  /**
   * Appends a record (part of a commit: the caller's journal names it). With
   * `once`, a record whose id the log already holds is not appended again
   * (a recovery finishing a commit that a crash cut short after the append).
   */
  async append(record: EntryRecord, once = false): Promise<void> {
    const release = await this.lock();
    try {
      if (once && this.records().some((r) => r.id === record.id)) return;
      const line = frameRecord(record);
      const fd = openSync(
        this.file,
        constants.O_RDWR | constants.O_CREAT | constants.O_APPEND,
        0o644,
      );
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
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      const c = this.counterNow();
      const n = idNumber(record.id);
      const next = Math.max(c.next, Number.isNaN(n) ? 0 : n + 1);
      const count = c.count + 1;
      if (count > this.limit + Math.max(16, Math.floor(this.limit / 10))) {
        this.writeCounter({ next, count: this.prune() });
      } else this.writeCounter({ next, count });
    } catch (error) {
      throw mapFsError(error, "Cannot keep the edit history");
    } finally {
      release();
    }
  }

  /** Rewrites the log with its newest `limit` records; returns how many it kept. */
  private prune(): number {
    const kept = this.records()
      .sort((a, b) => idNumber(a.id) - idNumber(b.id))
      .slice(-this.limit);
    const tmp = `${this.file}.${processId()}.tmp`;
    const fd = openSync(tmp, "w");
    try {
      const bytes = encoder.encode(kept.map(frameRecord).join(""));
      writeAllSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.file);
    return kept.length;
  }

  /** Every record the log holds, oldest first by id. */
  records(): EntryRecord[] {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(this.file);
    } catch (error) {
      if (errnoOf(error) === "ENOENT") return [];
      throw mapFsError(error, "Cannot read the edit history");
    }
    return parseLog(decoder.decode(bytes))
      .sort((a, b) => idNumber(a.id) - idNumber(b.id));
  }

  /** The record with this id, or undefined. */
  get(id: string): EntryRecord | undefined {
    return this.records().find((r) => r.id === id);
  }
}
