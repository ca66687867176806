/**
 * The log's counts (docs/history.md, "Ids and the history lock" and
 * "Retention"): the next id, how many entries it holds and how many bytes of
 * history state there are. The counter file is a checkpoint of the counts up
 * to a size of the log, so a writer counts only what was appended since;
 * ids taken early for journaled commits live in it alone, so its `next`
 * always counts.
 *
 * @module
 */
import { closeSync, fstatSync, lstatSync } from "../../_runtime/fs.ts";
import { openStateFile } from "../../fs/open_state.ts";
import { StateFileSkipped, writeStateFile } from "../../fs/state_file.ts";
import { recordProblem } from "../check.ts";
import { idOf, isVoid, parseLine, readFull } from "./_frames.ts";

const decoder = new TextDecoder();

/** The counts as the counter file keeps them. */
export interface Counter {
  next: number;
  count: number;
  bytes: number;
  /** The log the counts describe: its inode and size (absent in older counters). */
  ino?: number;
  size?: number;
}

/** The counts of a log, with the inode and size they describe. */
export type LogState = Required<Counter>;

/** Appends between two writes of the counter file. */
export const SAVE_EVERY = 64;

/** The counter file (`<history>/next`), read again only when it changed. */
export class CounterFile {
  /** The file's path. */
  readonly path: string;
  #seen: { key: string; value: Counter | null } | null = null;

  /** @param path The counter file. */
  constructor(path: string) {
    this.path = path;
  }

  /**
   * The counter file's content, read again only when its identity (inode,
   * size, times) changed since this process last read it; null when it is
   * missing or damaged (the counts are then taken from the log).
   */
  read(): Counter | null {
    let key: string;
    try {
      const st = lstatSync(this.path);
      key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    } catch {
      return null;
    }
    if (this.#seen?.key === key) return this.#seen.value;
    const value = this.#load();
    this.#seen = { key, value };
    return value;
  }

  #load(): Counter | null {
    try {
      const fd = openStateFile(this.path);
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
   * Writes the counts. Not flushed: the rename makes the file whole across
   * a crash, and after a power cut that loses it, the counts are taken
   * again from the log (which is flushed) past the size the counter names.
   */
  write(v: Counter): void {
    // Never into a link or FIFO planted at the name (docs/workspace.md
    // "State folder"); one that stands there is rebuilt from the log.
    try {
      writeStateFile(this.path, JSON.stringify(v));
    } catch (error) {
      if (!(error instanceof StateFileSkipped)) throw error;
    }
  }
}

/** Adds the complete records of `buf` to the counts (ids of voided ones too). */
export function tally(buf: Uint8Array, s: LogState): void {
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

/** Counts the records of the log at `fd` between what `base` describes and `size`. */
export function advance(fd: number, base: LogState, size: number): LogState {
  const s = { ...base };
  if (size === base.size) return s;
  const buf = new Uint8Array(size - base.size);
  readFull(fd, buf, 0, buf.length, base.size);
  tally(buf, s);
  s.bytes += buf.length;
  s.size = size;
  return s;
}

/**
 * The counts of the log at `fd` (null: there is none) of this inode and
 * size: from the first base that describes this log up to a size it has
 * reached (the records past it are read and counted), else counted from the
 * whole log, plus `blobBytes` (`recounted` then says so).
 */
export function countsOf(
  fd: number | null,
  log: { ino: number; size: number },
  bases: (Counter | null)[],
  blobBytes: () => number,
): { state: LogState; recounted: boolean } {
  for (const base of bases) {
    if (
      !base || base.ino !== log.ino || base.size === undefined ||
      base.size > log.size
    ) continue;
    return {
      state: advance(fd!, base as LogState, log.size),
      recounted: false,
    };
  }
  const s: LogState = {
    next: 1,
    count: 0,
    bytes: log.size,
    ino: log.ino,
    size: log.size,
  };
  if (fd !== null && log.size > 0) {
    const buf = new Uint8Array(log.size);
    readFull(fd, buf, 0, log.size, 0);
    tally(buf, s);
  }
  s.bytes += blobBytes();
  return { state: s, recounted: true };
}

/**
 * What this process knows of a log's counts, and the counter file it
 * writes now and then (it only spares another process, or the next, from
 * counting the records past it).
 */
export class KnownCounts {
  /** The counter file. */
  readonly file: CounterFile;
  /** The counts as this process last left them (the log's inode and size say whether they still hold). */
  #known: LogState | null = null;
  /** Appends since the counter file was written. */
  #unsaved = 0;

  /** @param path The counter file. */
  constructor(path: string) {
    this.file = new CounterFile(path);
  }

  /**
   * The counts of the log at `fd` (null: there is none) as it stands, the
   * caller holding the lock: from what this process last knew, or the
   * counter file, when either describes this log up to a size it has
   * reached, else counted from the whole log. Ids taken for journaled
   * commits not appended yet live in the counter file only, so its `next`
   * always counts.
   */
  of(
    fd: number | null,
    log: { ino: number; size: number },
    blobBytes: () => number,
  ): LogState {
    const c = this.file.read();
    const { state, recounted } = countsOf(fd, log, [this.#known, c], blobBytes);
    if (recounted) this.#unsaved = Infinity;
    if (c && c.next > state.next) state.next = c.next;
    return state;
  }

  /**
   * Takes note of the counts after an append of one record of `written`
   * bytes; `prune` runs when they are past a limit and gives the counts
   * after it.
   */
  appended(
    s: LogState,
    written: number,
    overLimit: (s: LogState) => boolean,
    prune: (s: LogState) => LogState,
  ): void {
    s.count++;
    s.bytes += written;
    s.size += written;
    if (overLimit(s)) {
      s = prune(s);
      this.#unsaved = Infinity;
    }
    this.#known = s;
    if (++this.#unsaved >= SAVE_EVERY) this.write(s);
  }

  /** Takes note of an id taken (`s.next` past it), written at once so no other writer takes it. */
  taken(s: LogState): void {
    this.#known = s;
    this.write(s);
  }

  /** Takes note of a record voided in place. */
  voided(): void {
    if (this.#known && this.#known.count > 0) this.#known.count--;
  }

  /** Writes the counts to the counter file. */
  write(s: LogState): void {
    this.file.write(s);
    this.#unsaved = 0;
  }
}
