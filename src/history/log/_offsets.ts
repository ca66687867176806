/**
 * Finding records in the log by byte offset (docs/history.md, "Bounded
 * reads"): a listing reads backwards from the end until it has what it
 * asked for, and one entry is found by a binary search over offsets, as
 * records are appended in id order give or take the writers in flight.
 * Voiding a record in place is `_void.ts`.
 *
 * @module
 */
import { fstatSync } from "../../_runtime/fs.ts";
import { idNumber } from "../ids.ts";
import { idOf, isVoid, parseLine, readFull } from "./_frames.ts";

/** What reads have cost (bytes read from the log, lines parsed). */
export interface ReadStats {
  bytesRead: number;
  parsed: number;
}

/** Where a record's line stands in the log. */
export interface LineAt {
  id: string;
  offset: number;
  length: number;
  ino: number;
}

/** Bytes read at a time from the log's end, and the span a search narrows to. */
export const CHUNK = 64 * 1024;
/** Ids may be out of order in the log by the writers in flight at once. */
export const DISORDER = 64;

/**
 * Calls `visit` with each complete line's value from the end of the log
 * backwards (a torn last line is skipped) until it returns false.
 */
export function scanBack(
  fd: number,
  stats: ReadStats,
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
    stats.bytesRead += len;
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
      stats.parsed++;
      if (parsed && !visit(parsed.value, pos + i + 1)) return;
      if (i < 0) return;
      end = i + 1;
    }
  }
}

/** The line starting at `start`, or null at the end or a torn last line. */
export function lineAt(
  fd: number,
  start: number,
  size: number,
  stats: ReadStats,
): { bytes: Uint8Array; next: number } | null {
  let len = Math.min(4096, size - start);
  for (;;) {
    if (len <= 0) return null;
    const buf = new Uint8Array(len);
    readFull(fd, buf, 0, len, start);
    stats.bytesRead += len;
    const nl = buf.indexOf(10);
    if (nl >= 0) return { bytes: buf.subarray(0, nl), next: start + nl + 1 };
    if (start + len >= size) return null;
    len = Math.min(len * 4, size - start);
  }
}

/**
 * The record on the line starting at `start`: its value and id number
 * (NaN when the line holds none: torn, damaged or not a record), its
 * length in bytes with the newline, and where the next line starts; null
 * at the end or a torn last line.
 */
export function recordAt(
  fd: number,
  start: number,
  size: number,
  stats: ReadStats,
): { value: unknown; n: number; length: number; next: number } | null {
  const line = lineAt(fd, start, size, stats);
  if (line === null) return null;
  const parsed = parseLine(line.bytes);
  stats.parsed++;
  return {
    value: parsed ? parsed.value : undefined,
    n: parsed ? idOf(parsed.value) : NaN,
    length: line.next - start,
    next: line.next,
  };
}

/** The first line that starts at or after `offset`. */
function lineStart(
  fd: number,
  offset: number,
  size: number,
  stats: ReadStats,
): number | null {
  if (offset === 0) return 0;
  const line = lineAt(fd, offset - 1, size, stats);
  return line === null ? null : line.next;
}

/** The first parsed record at or after a line start, with its id number. */
function idFrom(
  fd: number,
  start: number,
  size: number,
  stats: ReadStats,
): number | null {
  let p: number | null = start;
  for (let k = 0; k < 64 && p !== null; k++) {
    const rec = recordAt(fd, p, size, stats);
    if (rec === null) return null;
    if (!Number.isNaN(rec.n)) return rec.n;
    p = rec.next;
  }
  return null;
}

/**
 * The value of the record with this id in the log open at `fd`, and its
 * offset, found by a binary search over byte offsets, then a short scan;
 * undefined when the log does not hold it or holds it voided.
 */
export function locateIn(
  fd: number,
  id: string,
  stats: ReadStats,
): { value: unknown; offset: number } | undefined {
  const target = idNumber(id);
  if (Number.isNaN(target)) return undefined;
  const size = fstatSync(fd).size;
  let lo = 0;
  let hi = size;
  while (hi - lo > CHUNK) {
    const mid = Math.floor((lo + hi) / 2);
    const start = lineStart(fd, mid, size, stats);
    const n = start === null ? null : idFrom(fd, start, size, stats);
    if (n === null || n >= target) hi = mid;
    else lo = mid;
  }
  let p = lineStart(fd, Math.max(0, lo - CHUNK), size, stats);
  let past = 0;
  while (p !== null) {
    const rec = recordAt(fd, p, size, stats);
    if (rec === null) break;
    const n = rec.n;
    if (n === target) {
      return isVoid(rec.value) ? undefined : { value: rec.value, offset: p };
    }
    if (n > target + DISORDER || (n > target && ++past > DISORDER * 4)) {
      break;
    }
    p = rec.next;
  }
  return undefined;
}
