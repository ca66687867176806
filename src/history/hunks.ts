/**
 * Changed regions of a file as exact text (pure functions): what an entry
 * keeps costs the size of the edit, never of the file.
 *
 * @module
 */
import { BOM } from "../anchor/split.ts";
import { lineHash32 } from "../hash/fnv.ts";
import { utf8Length } from "../_internal/names.ts";
import { INLINE_MAX } from "./_texts.ts";
import type { Hunk } from "./types.ts";

/**
 * Cuts text into lines that keep their terminators (`\n` or `\r\n`); a
 * leading BOM stays on the first one, so joining them gives the text back.
 *
 * @param text The whole text.
 * @returns Its lines, terminators included.
 */
export function segments(text: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    if (nl < 0) {
      out.push(text.slice(pos));
      break;
    }
    out.push(text.slice(pos, nl + 1));
    pos = nl + 1;
  }
  if (out.length === 1 && out[0] === BOM) return [BOM];
  return out;
}

/** A line without its terminator (and without a BOM on line 1). */
export function bare(segment: string, first: boolean): string {
  let s = segment;
  if (first && s.startsWith(BOM)) s = s.slice(1);
  if (s.endsWith("\r\n")) return s.slice(0, -2);
  if (s.endsWith("\n")) return s.slice(0, -1);
  return s;
}

/**
 * Where each line of a text starts, found by scanning forward as far as
 * asked: no line is cut out of the text to find it.
 */
class LineStarts {
  private line = 0;
  private pos = 0;

  constructor(readonly text: string) {}

  /** Offset of line k's start (0-based); the text's length past its last line. */
  at(k: number): number {
    const t = this.text;
    while (this.line > k) {
      this.pos = lineBefore(t, this.pos);
      this.line--;
    }
    while (this.line < k && this.pos < t.length) {
      const nl = t.indexOf("\n", this.pos);
      this.pos = nl < 0 ? t.length : nl + 1;
      this.line++;
    }
    return this.line === k ? this.pos : t.length;
  }

  /** Line k (0-based) with its terminator, or null past the last line. */
  segment(k: number): string | null {
    const from = this.at(k);
    if (from >= this.text.length) return null;
    return this.text.slice(from, this.at(k + 1));
  }
}

/**
 * Hashes of the first `count` lines of a hunk's text.
 *
 * @param text The text (lines with their terminators).
 * @param newAt The file's line number of its first line (1-based).
 * @param count How many lines.
 * @returns Their full hashes, in order.
 */
export function lineHashes(
  text: string,
  newAt: number,
  count: number,
): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < text.length && out.length < count) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl + 1;
    out.push(lineHash32(bare(text.slice(pos, end), newAt === 1 && pos === 0)));
    pos = end;
  }
  return out;
}

/** Hashes of a text's lines; `first` when its first line is the file's line 1. */
function hashesOf(text: string, first: boolean): number[] {
  return lineHashes(text, first ? 1 : 2, Infinity);
}

/**
 * Sets `h.hashes`, computed on first use when `h.new` is long enough for
 * the log to keep it in a blob (then the log recomputes them from it, and a
 * change of many lines never holds them all).
 */
export function withHashes(h: Omit<Hunk, "hashes">): Hunk {
  const hunk = h as Hunk;
  if (h.new.length <= INLINE_MAX) {
    hunk.hashes = hashesOf(h.new, h.newAt === 1);
    return hunk;
  }
  let cached: number[] | undefined;
  Object.defineProperty(hunk, "hashes", {
    enumerable: true,
    configurable: true,
    get: () => cached ??= hashesOf(hunk.new, hunk.newAt === 1),
    set: (v: number[]) => {
      cached = v;
    },
  });
  return hunk;
}

function hunk(
  olds: LineStarts,
  news: LineStarts,
  o: number,
  oldLen: number,
  n: number,
  newLen: number,
): Hunk {
  const oldText = olds.text;
  const newText = news.text;
  const oldFrom = olds.at(o);
  const oldTo = olds.at(o + oldLen);
  const before = n > 0 ? news.segment(n - 1) : null;
  const newFrom = news.at(n);
  const newTo = news.at(n + newLen);
  return withHashes({
    at: o + 1,
    newAt: n + 1,
    old: oldText.slice(oldFrom, oldTo),
    new: newText.slice(newFrom, newTo),
    before,
    after: news.segment(n + newLen),
  });
}

/** Lines in a text (as {@link segments} cuts it), counted without cutting. */
function countLines(text: string): number {
  let count = 0;
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    count++;
    pos = nl < 0 ? text.length : nl + 1;
  }
  return count;
}

/** Start of the line that ends at `end` (> 0). */
function lineBefore(text: string, end: number): number {
  return end < 2 ? 0 : text.lastIndexOf("\n", end - 2) + 1;
}

function whole(oldText: string, newText: string): Hunk[] {
  const oldCount = countLines(oldText);
  const newCount = countLines(newText);
  let head = 0;
  let a = 0;
  let b = 0;
  while (head < oldCount && head < newCount) {
    const an = oldText.indexOf("\n", a);
    const bn = newText.indexOf("\n", b);
    const aEnd = an < 0 ? oldText.length : an + 1;
    const bEnd = bn < 0 ? newText.length : bn + 1;
    if (
      aEnd - a !== bEnd - b || !oldText.startsWith(newText.slice(b, bEnd), a)
    ) break;
    head++;
    a = aEnd;
    b = bEnd;
  }
  let tail = 0;
  let x = oldText.length;
  let y = newText.length;
  while (tail < oldCount - head && tail < newCount - head) {
    const xs = lineBefore(oldText, x);
    const ys = lineBefore(newText, y);
    if (x - xs !== y - ys || !oldText.startsWith(newText.slice(ys, y), xs)) {
      break;
    }
    tail++;
    x = xs;
    y = ys;
  }
  const oldLen = oldCount - head - tail;
  const newLen = newCount - head - tail;
  if (oldLen === 0 && newLen === 0) return [];
  return [
    hunk(
      new LineStarts(oldText),
      new LineStarts(newText),
      head,
      oldLen,
      head,
      newLen,
    ),
  ];
}

/** The edits {@link hunksOf} follows: where each starts, and how many lines it removes and writes. */
export interface HunkPlan {
  /** First old line (1-based). */
  at: number;
  /** Old lines removed. */
  deleteCount: number;
  /** The lines written (only their number is used). */
  lines: { readonly length: number };
}

/**
 * The changed regions between two versions of a file: one per planned
 * edit when the plan accounts for every byte of the change (it may not,
 * when the final newline moved), else the one region between the common
 * first and last lines. Each region's text is cut from the two versions
 * as it stands; the versions are never split into lines.
 *
 * @param oldText The file before.
 * @param newText The file after.
 * @param plan The edits that turned one into the other, if known.
 * @returns The regions, in file order.
 */
export function hunksOf(
  oldText: string,
  newText: string,
  plan?: readonly HunkPlan[] | null,
): Hunk[] {
  if (plan && plan.length > 0) {
    const olds = new LineStarts(oldText);
    const news = new LineStarts(newText);
    const out: Hunk[] = [];
    let shift = 0;
    let ok = true;
    let lastEnd = 0;
    for (const e of [...plan].sort((a, b) => a.at - b.at)) {
      const o = e.at - 1;
      if (o < lastEnd) {
        ok = false;
        break;
      }
      out.push(hunk(olds, news, o, e.deleteCount, o + shift, e.lines.length));
      shift += e.lines.length - e.deleteCount;
      lastEnd = o + e.deleteCount;
    }
    if (ok && rebuilds(oldText, newText, out)) {
      return out.filter((h) => h.old !== "" || h.new !== "");
    }
  }
  return whole(oldText, newText);
}

/**
 * Whether putting each hunk's new text in place of its old text, by old
 * line numbers, gives `newText`: compared piece by piece in place, never
 * joined into a second copy.
 */
function rebuilds(oldText: string, newText: string, hunks: Hunk[]): boolean {
  const olds = new LineStarts(oldText);
  let at = 0;
  let from = 0;
  let pos = 0;
  const same = (piece: string) => {
    if (!newText.startsWith(piece, pos)) return false;
    pos += piece.length;
    return true;
  };
  for (const h of hunks) {
    const n = countLines(h.old);
    const o = h.at - 1;
    if (o < at) return false;
    // Past the old text's end: an edit at a line it does not have.
    if (o > 0 && olds.at(o - 1) >= oldText.length) return false;
    const start = olds.at(o);
    if (n > 0 && olds.at(o + n - 1) >= oldText.length) return false;
    const end = olds.at(o + n);
    if (!same(oldText.slice(from, start)) || !same(h.new)) return false;
    at = o + n;
    from = end;
  }
  return same(oldText.slice(from)) && pos === newText.length;
}

/** Lines a hunk's text holds. */
export function lineCount(text: string): number {
  return countLines(text);
}

/**
 * A hunk's text as diff lines: each line marked, without its terminator
 * (and without a BOM on the file's line 1), joined with `\n`. One pass
 * over the text, never an array of its lines: a hunk may hold millions.
 */
export function marked(text: string, mark: string, firstLine: number): string {
  let t = text;
  if (firstLine === 1 && t.charCodeAt(0) === 0xfeff) t = t.slice(1);
  if (t.endsWith("\r\n")) t = t.slice(0, -2);
  else if (t.endsWith("\n")) t = t.slice(0, -1);
  return mark + t.replace(/\r?\n/g, `\n${mark}`);
}

function header(h: Hunk, olds: number, news: number): string {
  const oldStart = olds === 0 ? h.at - 1 : h.at;
  const newStart = news === 0 ? h.newAt - 1 : h.newAt;
  return `@@ -${oldStart},${olds} +${newStart},${news} @@`;
}

/** {@link renderDiff} uncut: each hunk's lines marked in one pass. */
function wholeDiff(
  path: string,
  hunks: readonly Hunk[],
  kind?: "created" | "deleted",
): string {
  const out = [
    kind === "created" ? "--- /dev/null" : `--- ${path}`,
    kind === "deleted" ? "+++ /dev/null" : `+++ ${path}`,
  ];
  for (const h of hunks) {
    const olds = lineCount(h.old);
    const news = lineCount(h.new);
    out.push(header(h, olds, news));
    if (olds > 0) out.push(marked(h.old, "-", h.at));
    if (news > 0) out.push(marked(h.new, "+", h.newAt));
  }
  return out.join("\n");
}

/** Where a diff is cut (see {@link renderDiff}). */
export interface DiffLimit {
  /** Most bytes (UTF-8) of diff lines kept. */
  maxBytes: number;
  /** What to do to see the rest, ending the note (`show h_12 for the whole diff`). */
  more: string;
  /** Filled with the number of new lines of each hunk the diff shows. */
  shown?: number[];
}

/** Each line of a text with its terminator, in order, none cut out ahead. */
function* eachSegment(text: string): Generator<string> {
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl + 1;
    yield text.slice(pos, end);
    pos = end;
  }
}

/**
 * A unified diff of a file's hunks.
 *
 * @param path Root-relative path.
 * @param hunks The changed regions.
 * @param kind `created`/`deleted` name `/dev/null` on one side.
 * @param limit Where to cut it: past `maxBytes` the lines stop and a last
 *   line says how many of how many were kept, then `more`.
 * @returns The diff (`""` when there are no hunks).
 */
export function renderDiff(
  path: string,
  hunks: readonly Hunk[],
  kind?: "created" | "deleted",
  limit?: DiffLimit,
): string {
  if (hunks.length === 0) return "";
  if (!limit) return wholeDiff(path, hunks, kind);
  const out: string[] = [];
  let bytes = 0;
  let total = 0;
  const put = (line: string) => {
    total++;
    if (total > out.length + 1) return;
    bytes += utf8Length(line) + 1;
    if (limit && bytes > limit.maxBytes) return;
    out.push(line);
  };
  // Puts a hunk's lines until the cut; returns how many it went through.
  const lines = (text: string, mark: string, first: number) => {
    let seen = 0;
    for (const s of eachSegment(text)) {
      if (total > out.length) break;
      put(mark + bare(s, first + seen === 1));
      seen++;
    }
    return seen;
  };
  put(kind === "created" ? "--- /dev/null" : `--- ${path}`);
  put(kind === "deleted" ? "+++ /dev/null" : `+++ ${path}`);
  for (const [j, h] of hunks.entries()) {
    if (limit?.shown) limit.shown[j] = 0;
    const olds = lineCount(h.old);
    const news = lineCount(h.new);
    put(header(h, olds, news));
    if (total > out.length) {
      total += olds + news;
      continue;
    }
    // Read after the call: lines() counts what it went through into total.
    const oldSeen = lines(h.old, "-", h.at);
    total += olds - oldSeen;
    const before = out.length;
    const newSeen = lines(h.new, "+", h.newAt);
    total += news - newSeen;
    if (limit?.shown) limit.shown[j] = out.length - before;
  }
  if (limit && out.length < total) {
    out.push(
      `… diff cut after ${out.length} of ${total} lines (the result is capped at ${
        Math.round(limit.maxBytes / 1024)
      } KiB): ${limit.more}.`,
    );
  }
  return out.join("\n");
}
