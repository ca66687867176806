/**
 * Windowed reads of huge files (docs/reads.md "Reads"): the file streamed in
 * 1 MiB chunks through the line counter and scanner instead of held; a read
 * counts lines without hashing them and decodes only the window.
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
import type { FileHandle } from "../_runtime/file_handle.ts";
import { readSync } from "../_runtime/fs.ts";
import { foldHash, lineHash32 } from "../hash/fnv.ts";
import type { LineBatch } from "../hash/types.ts";
import { createLineScanner, hashEngine } from "../hash/mod.ts";
import { createLineCounter } from "../hash/_count.ts";
import type { FileIdentity, Target } from "../fs/confine.ts";
import { changedError } from "../errors.ts";
import { eachChunk, openTarget } from "../fs/io.ts";
import { INDEX_EVERY, type LineIndex } from "./line_index.ts";
import { checkNul, notText, NUL_WINDOW, windowLines } from "../fs/text.ts";

/** Which engine scans bytes (undefined: the hash module's choice). */
export type Engine = "wasm" | "ts" | undefined;

/** Read window options. */
export interface WindowOptions {
  offset?: number;
  limit?: number;
  maxLineChars?: number;
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
  const shown = windowLines(display, bytes, base, count);
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
