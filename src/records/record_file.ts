/**
 * The read-record file (docs/workspace.md "Read records"): one file's
 * {@link LineMemory} in a compact binary form behind a header with a
 * generation and a checksum, so another process can tell it changed and a
 * half-done update is never trusted.
 *
 * @module
 */
import { closeSync, fstatSync, readSync } from "../_runtime/fs.ts";
import { errnoOf } from "../_internal/errno.ts";
import { openStateFile } from "../fs/open_state.ts";
import { LineMemory } from "../patch/memory.ts";
import { FileViews } from "../patch/views.ts";

const MAGIC = 0x3152_4c48; // "HLR1" read little-endian
const STAMP = 0x3154_5348; // "HST1": flags (1: lean form, 2: stamp) and the file's stamp follow
const VIEWS = 0x3157_5648; // "HVW1": the session's views of the file and its own commits since

/**
 * Encodes one file's record: magic, path, line count, runs of (start,
 * count, hashes) as read, then — only when a refusal showed lines since —
 * the runs it showed, in the same form.
 */
export function encodeRecord(real: string, mem: LineMemory): Uint8Array {
  const path = new TextEncoder().encode(real);
  const { read, shown } = mem.layers();
  let words = 4 + Math.ceil(path.length / 4);
  for (const [, hashes] of read) words += 2 + hashes.length;
  const views = mem.views ? mem.views.toWords() : null;
  const stamp = mem.stamp === undefined && mem.form !== "lean" && !views
    ? null
    : new TextEncoder().encode(mem.stamp ?? "");
  if (shown.length > 0 || stamp) {
    words += 1;
    for (const [, hashes] of shown) words += 2 + hashes.length;
  }
  if (stamp) words += 3 + Math.ceil(stamp.length / 4);
  if (views) words += 1 + views.length;
  const out = new Uint32Array(words);
  out[0] = MAGIC;
  out[1] = path.length;
  new Uint8Array(out.buffer).set(path, 8);
  let at = 2 + Math.ceil(path.length / 4);
  out[at++] = mem.lineCount === undefined ? 0 : mem.lineCount + 1;
  const put = (runs: [number, number[]][]) => {
    out[at++] = runs.length;
    for (const [start, hashes] of runs) {
      out[at++] = start;
      out[at++] = hashes.length;
      out.set(hashes, at);
      at += hashes.length;
    }
  };
  put(read);
  if (shown.length > 0 || stamp) put(shown);
  if (stamp) {
    out[at++] = STAMP;
    out[at++] = (mem.form === "lean" ? 1 : 0) |
      (mem.stamp !== undefined ? 2 : 0);
    out[at++] = stamp.length;
    new Uint8Array(out.buffer).set(stamp, at * 4);
    at += Math.ceil(stamp.length / 4);
  }
  if (views) {
    out[at++] = VIEWS;
    out.set(views, at);
    at += views.length;
  }
  const bytes = new Uint8Array(out.buffer);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    // Big-endian host: store little-endian so records move between machines.
    const view = new DataView(out.buffer);
    for (let i = 0; i < words; i++) view.setUint32(i * 4, out[i], true);
  }
  return bytes;
}

/** Decodes {@link encodeRecord}'s bytes; null when they are damaged or belong to another path. */
export function decodeRecord(
  bytes: Uint8Array,
  real: string,
): LineMemory | null {
  if (bytes.length < 12 || bytes.length % 4 !== 0) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const words = bytes.length / 4;
  const word = (i: number) => view.getUint32(i * 4, true);
  if (word(0) !== MAGIC) return null;
  const pathLen = word(1);
  const pathWords = Math.ceil(pathLen / 4);
  if (2 + pathWords + 2 > words) return null;
  const path = new TextDecoder().decode(bytes.subarray(8, 8 + pathLen));
  if (path !== real) return null;
  let at = 2 + pathWords;
  const lineCount = word(at++);
  const take = (): [number, number[]][] | null => {
    const count = word(at++);
    const runs: [number, number[]][] = [];
    for (let r = 0; r < count; r++) {
      if (at + 2 > words) return null;
      const start = word(at++);
      const n = word(at++);
      if (start < 1 || at + n > words) return null;
      const hashes = new Array<number>(n);
      for (let i = 0; i < n; i++) hashes[i] = word(at + i);
      at += n;
      runs.push([start, hashes]);
    }
    return runs;
  };
  const read = take();
  const shown = read !== null && at < words ? take() : [];
  let stamp: string | undefined;
  let flags = 0;
  if (shown !== null && at + 3 <= words && word(at) === STAMP) {
    flags = word(at + 1);
    const len = word(at + 2);
    const from = (at + 3) * 4;
    if (from + len > bytes.length) return null;
    if (flags & 2) {
      stamp = new TextDecoder().decode(bytes.subarray(from, from + len));
    }
    at += 3 + Math.ceil(len / 4);
  }
  let views: FileViews | undefined;
  if (shown !== null && at < words && word(at) === VIEWS) {
    const got = FileViews.fromWords(word, at + 1, words);
    if (!got) return null;
    views = got.views;
    at = got.at;
  }
  if (read === null || shown === null || at !== words) return null;
  const mem = LineMemory.fromLayers(read, shown);
  if (lineCount > 0) mem.lineCount = lineCount - 1;
  if (stamp !== undefined) mem.stamp = stamp;
  if (flags & 1) mem.form = "lean";
  if (views) mem.views = views;
  return mem;
}

/**
 * A record file is the encoded record behind a 4-word header: magic,
 * generation (random per save), the record's length in words, and a
 * checksum of the record. A file that already holds a record is updated in
 * place (one write into the existing file, no new file and no rename, which
 * on ext4 costs a flush of the new data); the generation tells a reader in
 * another process that it changed, and the checksum lets a reader that met
 * a half-done update (or a crash mid-way) treat it as unreadable rather
 * than trust it. Bytes past the record's length are ignored.
 */
export const FILE_MAGIC = 0x3252_4c48; // "HLR2" read little-endian
export const HEAD_BYTES = 16;

function checksum(body: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    h = Math.imul(h ^ body[i], 0x01000193);
  }
  return h >>> 0;
}

export function randomGeneration(): number {
  return (crypto.getRandomValues(new Uint32Array(1))[0] | 1) >>> 0;
}

/** The whole file for one record: header, then the record. */
export function wrapRecord(body: Uint8Array, generation: number): Uint8Array {
  const out = new Uint8Array(HEAD_BYTES + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, FILE_MAGIC, true);
  view.setUint32(4, generation, true);
  view.setUint32(8, body.length / 4, true);
  view.setUint32(12, checksum(body), true);
  out.set(body, HEAD_BYTES);
  return out;
}

/** The record inside a file's bytes, or null when the header or checksum does not hold. */
export function unwrapRecord(
  bytes: Uint8Array,
): { body: Uint8Array; generation: number } | null {
  if (bytes.length < HEAD_BYTES) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.getUint32(0, true) !== FILE_MAGIC) return null;
  const end = HEAD_BYTES + view.getUint32(8, true) * 4;
  if (end > bytes.length) return null;
  const body = bytes.subarray(HEAD_BYTES, end);
  if (checksum(body) !== view.getUint32(12, true)) return null;
  return { body, generation: view.getUint32(4, true) };
}

/**
 * The generation in a record file's header: null when the file does not
 * exist, undefined when it cannot be looked at, `"?"` when it holds no
 * readable header (then the whole file is read, and judged, on the next get).
 */
export function generationOf(file: string): string | null | undefined {
  let fd: number;
  try {
    // Never waits on a FIFO planted at the name (docs/workspace.md "State folder").
    fd = openStateFile(file);
  } catch (error) {
    const code = errnoOf(error);
    // A symlink at the name is no record: the session did not read the file.
    return code === "ENOENT" || code === "ELOOP" ? null : undefined;
  }
  try {
    // Nor is a FIFO, device or folder; nor a file with other names.
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) return null;
    const head = new Uint8Array(8);
    if (readSync(fd, head, 0, 8, 0) < 8) return "?";
    const view = new DataView(head.buffer);
    if (view.getUint32(0, true) !== FILE_MAGIC) return "?";
    return String(view.getUint32(4, true));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
