import { lineHash32 } from "../hash/fnv.ts";
import type { ChangedRegion, LineLookup, PlannedEdit } from "./types.ts";

const NL = 10;
const CR = 13;

/**
 * Line offsets of content, found lazily: asking about line n scans only up
 * to line n, so an edit near the top of a long file never walks the rest.
 * Follows docs/patch-format.md#lines: a BOM is not part of line 1, lines end
 * at `\n` or `\r\n`, and a final terminator opens no empty line.
 */
export class ContentIndex implements LineLookup {
  /** The content indexed. */
  readonly content: string;
  /** 1 when the content starts with a BOM, else 0. */
  readonly bomLen: number;
  /** starts[i] is the offset of line i + 1. */
  private readonly starts: number[] = [];
  private pos: number;
  private done = false;
  private readonly hashes = new Map<number, number>();
  private index: Map<number, number[]> | null = null;

  /** @param content The text to index. */
  constructor(content: string) {
    this.content = content;
    this.bomLen = content.charCodeAt(0) === 0xfeff ? 1 : 0;
    this.pos = this.bomLen;
  }

  private scanTo(n: number): boolean {
    const starts = this.starts;
    if (starts.length >= n) return true;
    if (this.done) return false;
    const s = this.content;
    const len = s.length;
    let pos = this.pos;
    while (starts.length < n) {
      if (pos >= len) {
        this.done = true;
        break;
      }
      starts.push(pos);
      const nl = s.indexOf("\n", pos);
      if (nl < 0) {
        pos = len;
        this.done = true;
        break;
      }
      pos = nl + 1;
    }
    this.pos = pos;
    return starts.length >= n;
  }

  /** Whether line n exists (scans up to it). */
  has(n: number): boolean {
    return n >= 1 && this.scanTo(n);
  }

  /** Number of lines (scans the whole content once). */
  get lineCount(): number {
    this.scanTo(Infinity);
    return this.starts.length;
  }

  /** Offset of line n; `content.length` for the line after the last. */
  start(n: number): number {
    return this.scanTo(n) ? this.starts[n - 1] : this.content.length;
  }

  /** Offset just past line n's terminator. */
  end(n: number): number {
    return this.start(n + 1);
  }

  /** Offset where line n's text ends (before its terminator). */
  textEnd(n: number): number {
    const s = this.content;
    let e = this.end(n);
    if (e > this.start(n) && s.charCodeAt(e - 1) === NL) {
      e--;
      if (e > this.start(n) && s.charCodeAt(e - 1) === CR) e--;
    }
    return e;
  }

  /** Text of line n, without its terminator. */
  text(n: number): string {
    return this.content.slice(this.start(n), this.textEnd(n));
  }

  /** Full 32-bit hash of line n. */
  hash32(n: number): number {
    let h = this.hashes.get(n);
    if (h === undefined) {
      h = lineHash32(this.text(n));
      this.hashes.set(n, h);
    }
    return h;
  }

  /** The full hash of every line, in order. */
  allHashes(): Uint32Array {
    const count = this.lineCount;
    const out = new Uint32Array(count);
    for (let n = 1; n <= count; n++) out[n - 1] = this.hash32(n);
    return out;
  }

  /** Every line whose full hash is h (hashes every line on first use). */
  linesWithHash(h: number): number[] {
    if (!this.index) {
      const index = new Map<number, number[]>();
      const count = this.lineCount;
      for (let n = 1; n <= count; n++) {
        const k = this.hash32(n);
        const at = index.get(k);
        if (at) at.push(n);
        else index.set(k, [n]);
      }
      this.index = index;
    }
    return this.index.get(h)?.slice() ?? [];
  }

  /** The terminator of line 1, or `"\n"` when no line is terminated. */
  firstTerminator(): "\n" | "\r\n" {
    const s = this.content;
    const nl = s.indexOf("\n", this.bomLen);
    return nl > this.bomLen && s.charCodeAt(nl - 1) === CR ? "\r\n" : "\n";
  }
}

/** What applying a plan produced. */
export interface Spliced {
  /** The new content. */
  content: string;
  /** Lines written. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Changed line ranges in the new content. */
  regions: ChangedRegion[];
}

/**
 * Applies a validated plan by copying the untouched stretches of the content
 * as they are and writing only the new lines (docs/patch-format.md#terminators):
 * untouched lines keep their bytes; new lines end with the file's first
 * terminator (`\n` when it has none), or `\r\n` when the line itself ends in
 * `\r` (so it reads back whole); the final-newline state is kept, except that
 * content written into an empty file, or ending in an empty line, ends with a
 * terminator. Costs the edited lines plus one scan to the last edit.
 *
 * @param idx The content, indexed.
 * @param plan Edits sorted by `at` (see `planOps`).
 */
export function splicePlan(
  idx: ContentIndex,
  plan: PlannedEdit[],
  defaultEol?: string,
): Spliced {
  const src = idx.content;
  const len = src.length;
  const empty = len === idx.bomLen;
  const keepsFinal = empty || src.charCodeAt(len - 1) === NL;
  const eol = defaultEol !== undefined && !hasTerminator(src)
    ? defaultEol
    : idx.firstTerminator();
  const parts: string[] = [];
  const regions: ChangedRegion[] = [];
  let cursor = 0;
  let added = 0;
  let removed = 0;
  // The last line put out: an old one ending at `lastOld`, or a new one.
  let lastOld = -1;
  let lastNew: string | null = null;
  const copyTo = (to: number): void => {
    if (to > cursor) {
      parts.push(src.slice(cursor, to));
      if (to > idx.bomLen) {
        lastOld = to;
        lastNew = null;
      }
    }
    cursor = Math.max(cursor, to);
  };
  for (const edit of plan) {
    copyTo(idx.start(edit.at));
    if (edit.lines.length > 0 && lastOld === len && !keepsFinal) {
      // The old last line had no terminator; it is no longer last.
      parts.push(src.charCodeAt(len - 1) === CR && eol === "\n" ? "\r\n" : eol);
    }
    for (const line of edit.lines) {
      parts.push(
        line,
        eol === "\n" && line.charCodeAt(line.length - 1) === CR ? "\r\n" : eol,
      );
      lastNew = line;
      lastOld = -1;
    }
    const start = edit.at - removed + added;
    added += edit.lines.length;
    removed += edit.deleteCount;
    if (edit.deleteCount > 0) {
      cursor = Math.max(cursor, idx.start(edit.at + edit.deleteCount));
    }
    const region = { start, end: start + edit.lines.length - 1 };
    const last = regions[regions.length - 1];
    if (last && region.start <= last.end + 1) {
      last.end = Math.max(last.end, region.end);
    } else regions.push(region);
  }
  copyTo(len);
  if (!keepsFinal && plan.length > 0) {
    if (lastNew !== null && lastNew !== "") {
      parts.pop();
    } else if (lastOld >= 0 && lastOld < len) {
      // Lines after this old line were deleted: it becomes the last line.
      const t = src.charCodeAt(lastOld - 2) === CR ? 2 : 1;
      const textEnd = lastOld - t;
      const lineEmpty = textEnd === idx.bomLen ||
        src.charCodeAt(textEnd - 1) === NL;
      if (!lineEmpty) {
        const piece = parts.pop()!;
        parts.push(piece.slice(0, piece.length - t));
      }
    }
  }
  // Concatenation lets the engine keep the big untouched slices as they are
  // instead of copying them into one flat string here.
  let content = "";
  for (const part of parts) content += part;
  return { content, added, removed, regions };
}

function hasTerminator(src: string): boolean {
  return src.indexOf("\n") >= 0;
}
