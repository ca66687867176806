/**
 * How one history record is framed in the log (docs/history.md, "What is on
 * disk"): a line `LEN CRC32 JSON\n`, LEN the JSON's UTF-8 byte length and
 * CRC32 its checksum in hex. A line cut short by a crash, or one whose
 * checksum does not match, is no record; a voided record keeps its line's
 * length and its id, and readers pass over it.
 *
 * @module
 */
import { readSync } from "../../_runtime/fs.ts";
import type { EntryRecord } from "../types.ts";
import { recordProblem } from "../check.ts";
import { idNumber } from "../ids.ts";

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
export function voidLine(id: string, length: number): Uint8Array | null {
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

/** A record's framed line, made once per record object (a commit frames it to count it, then to append it). */
export function framed(record: EntryRecord): string {
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

/** Reads up to `len` bytes at `pos` into `buf` at `at`; fewer only at the end of the file. */
export function readFull(
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
export function parseLine(line: Uint8Array): { value: unknown } | null {
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

/** The id number of a value read from the log, or NaN. */
export function idOf(value: unknown): number {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === "string" ? idNumber(id) : NaN;
}
