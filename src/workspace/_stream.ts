/**
 * Huge files (docs/reads.md "Reads", docs/workspace.md): reads of a window, and patches, that stream the
 * file in 1 MiB chunks through the line scanner instead of holding it.
 *
 * A read counts lines without hashing them and decodes only the window. A
 * patch makes one hashing pass that collects what validation asks for
 * (`linesNeeded`) plus the lines near each edit, then rewrites the file into
 * the commit's temporary file, copying untouched byte ranges verbatim.
 *
 * @module
 */
import { concatBytes } from "../_internal/bytes.ts";
import {
  DEFAULT_LIMIT,
  DEFAULT_MAX_LINE_CHARS,
  formatLine,
  readWindow,
} from "../anchor/format.ts";
import type { HashlineView } from "../anchor/format.ts";
import { parseAnchor } from "../anchor/anchor.ts";
import type { FileHandle } from "../_runtime/fs.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";
import type { LineBatch } from "../hash/types.ts";
import { linesNeeded } from "../patch/lookup.ts";
import type {
  LineLookup,
  PatchOp,
  PlannedEdit,
  ReadMemory,
} from "../patch/types.ts";
import type { FileIdentity, Target } from "./_confine.ts";
import {
  borrowBuffer,
  changedError,
  CHUNK_BYTES,
  eachChunk,
  openTarget,
  readRange,
  returnBuffer,
} from "./_io.ts";
import { createLineScanner, hashEngine } from "../hash/mod.ts";
import { createLineCounter } from "../hash/_count.ts";
import { readSync } from "../_runtime/fs.ts";
import { checkNul, decodeText, notText, NUL_WINDOW } from "./_text.ts";
import { INDEX_EVERY, type LineIndex } from "./_line_index.ts";

/** Which engine scans bytes (undefined: the hash module's choice). */
export type Engine = "wasm" | "ts" | undefined;

/** Read window options. */
export interface WindowOptions {
  offset?: number;
  limit?: number;
  maxLineChars?: number;
}

/** Splits decoded text holding `count` whole lines (the last may be unterminated). */
function splitWindow(text: string, count: number): string[] {
  const lines: string[] = [];
  let pos = 0;
  for (let k = 0; k < count; k++) {
    const nl = text.indexOf("\n", pos);
    const stop = nl < 0 ? text.length : nl;
    const end = nl >= 0 && stop > pos && text.charCodeAt(stop - 1) === 13
      ? stop - 1
      : stop;
    lines.push(text.slice(pos, end));
    pos = stop + 1;
  }
  return lines;
}

/** Collects the bytes of lines `first..last` while a scanner reports line ends. */
class WindowBytes {
  private readonly first: number;
  private readonly last: number;
  private readonly parts: Uint8Array[] = [];
  /** Lines counted so far. */
  lines: number;
  /** File offset where line `first` starts, or -1 while unknown. */
  start = -1;
  /** File offset just past line `last`, or -1 while unknown. */
  end = -1;

  constructor(first: number, last: number, linesBefore: number, start: number) {
    this.first = first;
    this.last = last;
    this.lines = linesBefore;
    this.start = start;
  }

  /** Whether every line of the window has been seen. */
  get done(): boolean {
    return this.end >= 0;
  }

  /**
   * Takes one batch; `shift` turns the scanner's offsets into file offsets
   * and `chunk` (at file offset `chunkPos`) holds the bytes just scanned.
   */
  take(
    batch: LineBatch,
    shift: number,
    chunk: Uint8Array | null,
    chunkPos: number,
  ): void {
    const c = batch.count;
    const { first, last, lines } = this;
    if (!this.done) {
      if (this.start < 0 && lines + c >= first - 1) {
        this.start = batch.ends[first - 2 - lines] + shift;
      }
      if (this.start >= 0 && lines + c >= last) {
        this.end = batch.ends[last - 1 - lines] + shift;
      }
      if (chunk && this.start >= 0) {
        const from = Math.max(this.start, chunkPos);
        const to = this.end >= 0
          ? Math.min(this.end, chunkPos + chunk.length)
          : chunkPos + chunk.length;
        if (to > from) {
          this.parts.push(chunk.slice(from - chunkPos, to - chunkPos));
        }
      }
    }
    this.lines += c;
  }

  /** The window's bytes. */
  bytes(): Uint8Array {
    return this.parts.length === 1 ? this.parts[0] : concatBytes(this.parts);
  }
}

/** Where reads of huge files keep their line indexes (see {@link LineIndex}). */
export interface IndexStore {
  /** The index of this version of the file, or null. */
  get(real: string, id: FileIdentity): Promise<LineIndex | null>;
  /** Keeps an index (best effort). */
  put(real: string, index: LineIndex): Promise<void>;
}

function render(
  win: { startLine: number; endLine: number; nextOffset: number | null },
  totalLines: number,
  display: string,
  bytes: Uint8Array,
  base: number,
  max: number,
): { view: HashlineView; hashes: number[] } {
  const count = win.endLine - win.startLine + 1;
  const text = count > 0 ? decodeText(display, bytes, base) : "";
  const shown = splitWindow(text, count);
  const hashes = shown.map(lineHash32);
  return {
    view: {
      text: shown.map((l, i) =>
        formatLine(win.startLine + i, l, max, foldHash(hashes[i]))
      )
        .join("\n"),
      totalLines,
      startLine: win.startLine,
      endLine: win.endLine,
      nextOffset: win.nextOffset,
    },
    hashes,
  };
}

const LF = new Uint8Array([10]);

/**
 * Counts every line of a huge file and checks that it is text, in one
 * pass: the sparse line index of this version of the file.
 */
async function buildIndex(
  handle: FileHandle,
  id: FileIdentity,
  display: string,
  engine: Engine,
): Promise<LineIndex> {
  const head = new Uint8Array(Math.min(NUL_WINDOW, id.size));
  const got = readSync(handle.fd, head, 0, head.length, 0);
  checkNul(display, head.subarray(0, got), 0);
  const bom = got >= 3 && head[0] === 0xef && head[1] === 0xbb &&
      head[2] === 0xbf
    ? 3
    : 0;
  const every = INDEX_EVERY;
  const counter = createLineCounter(engine ?? hashEngine(), bom, 0, every);
  // Read straight into the counter's buffer: no copy.
  const pos = await eachChunk(
    handle,
    (chunk) => counter.count(chunk.length),
    bom,
    counter.buffer,
  );
  counter.end();
  if (counter.invalidAt >= 0) notText(display, counter.invalidAt, false);
  if (pos !== id.size) throw changedError(display);
  const totalLines = counter.lines;
  const starts = [bom, ...counter.checkpoints];
  // The last checkpoint must name a line that exists.
  while (starts.length > 1 && (starts.length - 1) * every >= totalLines) {
    starts.pop();
  }
  return { version: 1, id, every, totalLines, starts };
}

/**
 * Reads one window of a huge file. The first read of a version of a file
 * counts every line (without hashing, straight through the Wasm counter)
 * into a sparse line index, kept in `indexes`; every read then seeks to the
 * checkpoint nearest the window and scans from there to the window's end.
 *
 * @returns The view (as `formatHashlines` renders it) and the window's full hashes.
 */
export async function streamRead(
  target: Target,
  window: WindowOptions,
  engine: Engine,
  indexes?: IndexStore,
): Promise<{ view: HashlineView; hashes: number[] }> {
  readWindow(Number.MAX_SAFE_INTEGER, window);
  const first = window.offset ?? 1;
  const last = first + (window.limit ?? DEFAULT_LIMIT) - 1;
  const max = window.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const { handle, id } = await openTarget(target);
  try {
    let index = indexes ? await indexes.get(target.real, id) : null;
    if (!index) {
      index = await buildIndex(handle, id, target.display, engine);
      if (indexes) await indexes.put(target.real, index);
    }
    const win = readWindow(index.totalLines, window);
    if (win.endLine < win.startLine) {
      return render(
        win,
        index.totalLines,
        target.display,
        new Uint8Array(0),
        0,
        max,
      );
    }
    const j = Math.min(
      index.starts.length - 1,
      Math.floor((win.startLine - 1) / index.every),
    );
    const base = index.starts[j];
    const linesBefore = j * index.every;
    const w = new WindowBytes(
      first,
      last,
      linesBefore,
      first === linesBefore + 1 ? base : -1,
    );
    // A leading LF keeps the scanner from taking bytes at `base` for a BOM.
    const scanner = createLineScanner({ engine, hash: false });
    scanner.push(LF);
    const pos = await eachChunk(handle, (chunk, at) => {
      w.take(scanner.push(chunk), base - 1, chunk, at);
      return !w.done;
    }, base);
    if (!w.done) w.take(scanner.end(), base - 1, null, pos);
    if (scanner.invalidAt >= 0 && scanner.invalidAt - 1 + base < w.end) {
      notText(target.display, scanner.invalidAt - 1 + base, false);
    }
    return render(
      win,
      index.totalLines,
      target.display,
      w.bytes(),
      w.start,
      max,
    );
  } finally {
    await handle.close();
  }
}

/** Largest range whose every old line is collected for the diff of a streamed patch. */
const DIFF_RANGE_MAX = 4000;

interface Seen {
  hash: number;
  start: number;
  end: number;
  text?: string;
}

/** What one pass over a huge file learned for a patch. */
export interface ScannedFile {
  /** The file's identity during the pass. */
  id: FileIdentity;
  /** Lines in the file. */
  lineCount: number;
  /** Bytes of the BOM (0 or 3). */
  bomLen: number;
  /** The file's first terminator, `\n` when it has none. */
  eol: "\n" | "\r\n";
  /** Whether the last line is terminated. */
  finalNewline: boolean;
  /** The file as validation sees it. */
  lookup: LineLookup;
  /** Old line n when collected. */
  oldLine(n: number): string | undefined;
  /** Byte offset just past line n (0 → just past the BOM). */
  end(n: number): number;
}

function wantedRanges(ops: PatchOp[], need: number[]): [number, number][] {
  const ranges: [number, number][] = [[1, 1]];
  for (const n of need) ranges.push([n, n]);
  const anchor = (text: string): number | null => {
    try {
      return parseAnchor(text).line;
    } catch {
      return null;
    }
  };
  for (const op of ops) {
    if (op.op === "replace" || op.op === "delete") {
      const s = anchor(op.start);
      const e = op.end === undefined ? s : anchor(op.end);
      if (s === null || e === null) continue;
      if (e >= s && e - s < DIFF_RANGE_MAX) ranges.push([s - 4, e + 4]);
      else ranges.push([s - 4, s + 4], [e - 4, e + 4]);
    } else if (op.op === "insert_after" || op.op === "insert_before") {
      const l = anchor(op.anchor);
      if (l !== null) ranges.push([l - 4, l + 4]);
    } else if (op.op === "prepend") {
      ranges.push([1, 4]);
    }
  }
  const sorted = ranges.map(([a, b]) => [Math.max(1, a), b] as [number, number])
    .filter(([a, b]) => b >= a)
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const top = out[out.length - 1];
    if (top && r[0] <= top[1] + 1) top[1] = Math.max(top[1], r[1]);
    else out.push(r);
  }
  return out;
}

/**
 * One hashing pass over a huge file collecting what validating `ops`, and
 * summarizing and applying them, needs.
 */
export async function scanForPatch(
  target: Target,
  ops: PatchOp[],
  memory: ReadMemory | undefined,
  engine: Engine,
): Promise<ScannedFile> {
  const need = linesNeeded(ops, { memory });
  const ranges = wantedRanges(ops, need.lines);
  const wantHash = new Set(need.hashes);
  // A 64 Ki-entry filter on the low 16 bits answers most lines without a
  // set lookup (the pass looks at every line of the file).
  const maybe = new Uint8Array(1 << 16);
  for (const h of need.hashes) maybe[h & 0xffff] = 1;
  const matches = new Map<number, number[]>();
  const seen = new Map<number, Seen>();
  const tail: [number, Seen][] = [];
  const { handle, id } = await openTarget(target);
  const scanner = createLineScanner({ engine, hash: true });
  let lines = 0;
  let pos = 0;
  let prevEnd = 0;
  let r = 0;
  const take = (batch: LineBatch) => {
    const c = batch.count;
    if (lines === 0 && c > 0) prevEnd = scanner.hasBom ? 3 : 0;
    const { hashes, ends } = batch;
    if (wantHash.size > 0) {
      for (let i = 0; i < c; i++) {
        const h = hashes[i];
        if (maybe[h & 0xffff] === 1 && wantHash.has(h)) {
          const at = matches.get(h);
          if (at) at.push(lines + i + 1);
          else matches.set(h, [lines + i + 1]);
        }
      }
    }
    while (r < ranges.length && ranges[r][1] <= lines) r++;
    for (let k = r; k < ranges.length && ranges[k][0] <= lines + c; k++) {
      const from = Math.max(ranges[k][0], lines + 1);
      const to = Math.min(ranges[k][1], lines + c);
      for (let n = from; n <= to; n++) {
        const i = n - lines - 1;
        seen.set(n, {
          hash: hashes[i],
          start: i === 0 ? prevEnd : ends[i - 1],
          end: ends[i],
        });
      }
    }
    for (let i = Math.max(0, c - 4); i < c; i++) {
      tail.push([lines + i + 1, {
        hash: hashes[i],
        start: i === 0 ? prevEnd : ends[i - 1],
        end: ends[i],
      }]);
    }
    if (tail.length > 8) tail.splice(0, tail.length - 4);
    if (c > 0) prevEnd = ends[c - 1];
    lines += c;
  };
  try {
    pos = await eachChunk(handle, (chunk, at) => {
      if (at < NUL_WINDOW) checkNul(target.display, chunk, at);
      take(scanner.push(chunk));
    });
    take(scanner.end());
    if (scanner.invalidAt >= 0) {
      notText(target.display, scanner.invalidAt, false);
    }
    for (const [n, s] of tail.slice(-4)) if (!seen.has(n)) seen.set(n, s);
    await fillTexts(handle, target.display, seen);
  } finally {
    await handle.close();
  }
  if (pos !== id.size) throw changedError(target.display);
  const bomLen = scanner.hasBom ? 3 : 0;
  const first = seen.get(1);
  let eol: "\n" | "\r\n" = "\n";
  let finalNewline = false;
  if (first && lines > 0) {
    const firstBytes = first.end - first.start;
    const bare = new TextEncoder().encode(first.text!).length;
    if (firstBytes - bare === 2) eol = "\r\n";
    const lastLine = seen.get(lines)!;
    finalNewline = lastLine.end - lastLine.start >
      new TextEncoder().encode(lastLine.text!).length;
  }
  const get = (n: number): Seen => {
    const s = seen.get(n);
    if (!s) {
      throw new Error(
        `Internal: line ${n} of "${target.display}" was not collected.`,
      );
    }
    return s;
  };
  return {
    id,
    lineCount: lines,
    bomLen,
    eol,
    finalNewline,
    lookup: {
      lineCount: lines,
      hash32: (n) => get(n).hash,
      text: (n) => get(n).text!,
      linesWithHash: (h) => matches.get(h)?.slice() ?? [],
    },
    oldLine: (n) => seen.get(n)?.text,
    end: (n) => (n === 0 ? bomLen : n === lines ? id.size : get(n).end),
  };
}

/** Reads and decodes the text of every collected line, consecutive lines in one read. */
async function fillTexts(
  handle: FileHandle,
  display: string,
  seen: Map<number, Seen>,
): Promise<void> {
  const nums = [...seen.keys()].sort((a, b) => a - b);
  let i = 0;
  while (i < nums.length) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    const from = seen.get(nums[i])!.start;
    const bytes = await readRange(handle, from, seen.get(nums[j])!.end);
    const text = decodeText(display, bytes, from);
    const lines = splitWindow(text, j - i + 1);
    for (let k = i; k <= j; k++) seen.get(nums[k])!.text = lines[k - i];
    i = j + 1;
  }
}

const encoder = new TextEncoder();
const NL = encoder.encode("\n");
const CRLF = encoder.encode("\r\n");

/**
 * Writes a file's new content while keeping its last three bytes back, so
 * the final-newline rules of docs/patch-format.md can be settled at the end.
 */
class TailWriter {
  private readonly out: FileHandle;
  private readonly buf = new Uint8Array(CHUNK_BYTES);
  private len = 0;
  private total = 0;
  private readonly bomLen: number;
  private readonly eol: "\n" | "\r\n";
  private readonly keepNewline: boolean;

  constructor(
    out: FileHandle,
    bomLen: number,
    eol: "\n" | "\r\n",
    keepNewline: boolean,
  ) {
    this.out = out;
    this.bomLen = bomLen;
    this.eol = eol;
    this.keepNewline = keepNewline;
  }

  private byteBack(k: number): number {
    return k <= this.len ? this.buf[this.len - k] : -1;
  }

  private async emit(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      const { bytesWritten } = await this.out.write(
        bytes,
        at,
        bytes.length - at,
      );
      at += bytesWritten;
    }
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.total += bytes.length;
    if (this.len + bytes.length <= this.buf.length) {
      this.buf.set(bytes, this.len);
      this.len += bytes.length;
      return;
    }
    await this.emit(this.buf.subarray(0, this.len));
    if (bytes.length > 3) await this.emit(bytes.subarray(0, bytes.length - 3));
    const rest = bytes.subarray(Math.max(0, bytes.length - 3));
    this.buf.set(rest, 0);
    this.len = rest.length;
  }

  private term(afterCr: boolean): Uint8Array {
    return this.eol === "\r\n" || afterCr ? CRLF : NL;
  }

  /** Writes one new line with its terminator, first ending an unterminated last line. */
  async line(text: string): Promise<void> {
    if (this.total > this.bomLen && this.byteBack(1) !== 10) {
      await this.write(this.term(this.byteBack(1) === 13));
    }
    await this.write(encoder.encode(text));
    await this.write(this.term(text.endsWith("\r")));
  }

  /** Settles the final terminator and flushes. */
  async finish(): Promise<void> {
    if (this.total > this.bomLen) {
      const t = this.byteBack(1) === 10 ? (this.byteBack(2) === 13 ? 2 : 1) : 0;
      const lastEmpty = t > 0 &&
        (this.total - t === this.bomLen || this.byteBack(t + 1) === 10);
      if (!(this.keepNewline || lastEmpty) && t > 0) {
        this.len -= t;
        this.total -= t;
      } else if ((this.keepNewline || lastEmpty) && t === 0) {
        await this.write(this.term(this.byteBack(1) === 13));
      }
    }
    await this.emit(this.buf.subarray(0, this.len));
    this.len = 0;
  }
}

/**
 * Writes the patched content of a huge file into `out`: untouched byte
 * ranges are copied verbatim, new lines get the file's first terminator.
 *
 * @throws {PatchRefusedError} `CHANGED` when the file is no longer the one scanned.
 */
export async function rewrite(
  out: FileHandle,
  target: Target,
  scanned: ScannedFile,
  plan: PlannedEdit[],
): Promise<void> {
  const { handle } = await openTarget(target, scanned.id);
  const buf = borrowBuffer();
  try {
    const w = new TailWriter(
      out,
      scanned.bomLen,
      scanned.eol,
      scanned.finalNewline || scanned.lineCount === 0,
    );
    let cursor = 0;
    const copy = async (to: number) => {
      while (cursor < to) {
        const bytesRead = readSync(
          handle.fd,
          buf,
          0,
          Math.min(CHUNK_BYTES, to - cursor),
          cursor,
        );
        if (bytesRead === 0) throw changedError(target.display);
        await w.write(buf.subarray(0, bytesRead));
        cursor += bytesRead;
      }
    };
    for (const edit of plan) {
      await copy(scanned.end(edit.at - 1));
      for (const line of edit.lines) await w.line(line);
      if (edit.deleteCount > 0) {
        cursor = Math.max(cursor, scanned.end(edit.at + edit.deleteCount - 1));
      }
    }
    await copy(scanned.id.size);
    await w.finish();
  } finally {
    returnBuffer(buf);
    await handle.close();
  }
}

/**
 * Finds the first remembered line of a huge file whose content is no longer
 * what the session saw (or that no longer exists).
 *
 * @returns That line number (0 when every remembered line still matches) and the file's line count.
 */
export async function firstStaleLine(
  target: Target,
  runs: [number, number[]][],
  engine: Engine,
): Promise<{ stale: number; lines: number }> {
  const { handle } = await openTarget(target);
  const scanner = createLineScanner({ engine, hash: true });
  let lines = 0;
  let r = 0;
  let stale = 0;
  const take = (batch: LineBatch) => {
    const c = batch.count;
    while (stale === 0 && r < runs.length && runs[r][0] <= lines + c) {
      const [start, hashes] = runs[r];
      const from = Math.max(start, lines + 1);
      const to = Math.min(start + hashes.length - 1, lines + c);
      for (let n = from; n <= to && stale === 0; n++) {
        if (batch.hashes[n - lines - 1] !== hashes[n - start]) stale = n;
      }
      if (start + hashes.length - 1 > lines + c) break;
      r++;
    }
    lines += c;
  };
  try {
    await eachChunk(handle, (chunk) => {
      take(scanner.push(chunk));
      return stale === 0;
    });
    if (stale === 0) take(scanner.end());
  } finally {
    await handle.close();
  }
  if (stale === 0 && r < runs.length) stale = Math.max(runs[r][0], lines + 1);
  return { stale, lines };
}
