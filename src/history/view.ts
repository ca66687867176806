/**
 * What the doors show of the log: entries as listed (newest first,
 * filtered), and one entry with its diffs (pure functions).
 *
 * @module
 */
import { bare, lineCount, marked, renderDiff, segments } from "./hunks.ts";
import type {
  EntryDetail,
  EntryRecord,
  HistoryEntry,
  HistoryQuery,
  Hunk,
} from "./types.ts";
import { idNumber } from "./log.ts";
import { entryFile } from "./record.ts";

/** An entry as listed, without what it keeps to revert the change. */
export function toEntry(r: EntryRecord): HistoryEntry {
  const out: HistoryEntry = {
    id: r.id,
    time: r.time,
    session: r.session,
    door: r.door,
    summary: r.summary,
    files: r.files.map(entryFile),
  };
  if (r.undoOf !== undefined) out.undoOf = r.undoOf;
  return out;
}

/** What a view of one entry knows beyond the log (see {@link toDetail}). */
export interface DetailContext {
  /**
   * The deny rules that cover a path, when the viewing workspace denies it:
   * its lines are withheld (the counts stay).
   */
  withheld?: (path: string) => string | undefined;
  /**
   * A file's text as it stands now (null when gone, undefined when not
   * looked at): where the entry's lines still stand, its diff shows up to
   * {@link DIFF_CONTEXT} lines of context around each change from it.
   */
  current?: (path: string) => string | null | undefined;
}

/** Lines of context a history diff shows around each change. */
export const DIFF_CONTEXT: number = 3;

/** The note that stands in for the lines of a denied file. */
export function withheldNote(rules: string): string {
  return `(lines withheld: the workspace denies this file, deny: ${rules})`;
}

/**
 * An entry with each file's unified diff.
 *
 * @param r The record.
 * @param context Deny rules and the files as they stand (for context lines).
 * @returns The entry with a diff per file.
 */
export function toDetail(
  r: EntryRecord,
  context: DetailContext = {},
): EntryDetail {
  return {
    ...toEntry(r),
    files: r.files.map((f) => {
      const rules = context.withheld?.(f.path);
      const kind = f.created ? "created" : f.deleted ? "deleted" : undefined;
      const diff = rules !== undefined
        ? withheldNote(rules)
        : f.noUndo && f.hunks.length === 0
        ? `(${f.noUndo})`
        : kind || f.noUndo
        ? renderDiff(f.path, f.hunks, kind)
        : diffWithContext(f.path, f.hunks, context.current?.(f.path));
      return { ...entryFile(f), diff };
    }),
  };
}

interface Piece {
  h: Hunk;
  /** Lines of the hunk's old and new text. */
  olds: number;
  news: number;
  /** Where the hunk's new lines stand in the current file (0-based), if they do. */
  q?: number;
}

function sameLine(a: string, b: string): boolean {
  return bare(a, true) === bare(b, true);
}

/** Whether the lines of `text` stand at `q` of `cur` (terminators aside). */
function standsAt(cur: string[], text: string, q: number): boolean {
  let pos = 0;
  for (let k = q; pos < text.length; k++) {
    const nl = text.indexOf("\n", pos);
    const end = nl < 0 ? text.length : nl + 1;
    if (k >= cur.length || !sameLine(cur[k], text.slice(pos, end))) {
      return false;
    }
    pos = end;
  }
  return true;
}

/** Where each hunk's written lines stand now, hunk by hunk (positions kept in order). */
function locate(cur: string[], pieces: Piece[]): void {
  let delta = 0;
  let floor = 0;
  for (const p of pieces) {
    const q = p.h.newAt - 1 + delta;
    const m = p.news;
    let fits = q >= floor && q + m <= cur.length && standsAt(cur, p.h.new, q);
    if (fits && m === 0) {
      fits = (q === 0 ? p.h.before === null : p.h.before !== null &&
        sameLine(cur[q - 1], p.h.before)) &&
        (q === cur.length ? p.h.after === null : p.h.after !== null &&
          sameLine(cur[q], p.h.after));
    }
    if (!fits) continue;
    p.q = q;
    delta = q - (p.h.newAt - 1);
    floor = q + m;
  }
}

/**
 * A unified diff with up to {@link DIFF_CONTEXT} lines of context around
 * each change, taken from the file as it stands where the entry's lines
 * still stand there; elsewhere the one line the entry kept on each side.
 */
function diffWithContext(
  path: string,
  hunks: readonly Hunk[],
  current: string | null | undefined,
): string {
  if (hunks.length === 0) return "";
  const cur = typeof current === "string" ? segments(current) : [];
  const pieces: Piece[] = hunks.map((h) => ({
    h,
    olds: lineCount(h.old),
    news: lineCount(h.new),
  }));
  if (typeof current === "string") locate(cur, pieces);
  const out = [`--- ${path}`, `+++ ${path}`];
  let i = 0;
  while (i < pieces.length) {
    // One block: pieces whose unchanged gap is short, as it stood then and now.
    let j = i;
    while (j + 1 < pieces.length) {
      const a = pieces[j];
      const b = pieces[j + 1];
      if (a.q === undefined || b.q === undefined) break;
      const gapNow = b.q - (a.q + a.news);
      const gapThen = (b.h.newAt - 1) - (a.h.newAt - 1 + a.news);
      if (gapNow !== gapThen || gapNow > 2 * DIFF_CONTEXT) break;
      j++;
    }
    const first = pieces[i];
    const last = pieces[j];
    let pre: string[];
    let preFirst: number;
    if (first.q !== undefined) {
      const from = Math.max(0, first.q - DIFF_CONTEXT);
      pre = cur.slice(from, first.q);
      preFirst = from;
    } else {
      pre = first.h.before === null ? [] : [first.h.before];
      preFirst = first.h.newAt - 1 - pre.length;
    }
    let post: string[];
    let postFirst: number;
    if (last.q !== undefined) {
      postFirst = last.q + last.news;
      post = cur.slice(postFirst, postFirst + DIFF_CONTEXT);
    } else {
      post = last.h.after === null ? [] : [last.h.after];
      postFirst = last.h.newAt - 1 + last.news;
    }
    const body: string[] = [];
    let oldLen = 0;
    let newLen = 0;
    const context = (lines: string[], at: number) => {
      for (let k = 0; k < lines.length; k++) {
        body.push(` ${bare(lines[k], at + k === 0)}`);
      }
      oldLen += lines.length;
      newLen += lines.length;
    };
    context(pre, preFirst);
    for (let k = i; k <= j; k++) {
      const p = pieces[k];
      if (k > i) {
        const prev = pieces[k - 1];
        const from = prev.q! + prev.news;
        context(cur.slice(from, p.q!), from);
      }
      if (p.olds > 0) body.push(marked(p.h.old, "-", p.h.at));
      if (p.news > 0) body.push(marked(p.h.new, "+", p.h.newAt));
      oldLen += p.olds;
      newLen += p.news;
    }
    context(post, postFirst);
    const oldStart = first.h.at - pre.length;
    const newStart = first.h.newAt - pre.length;
    out.push(
      `@@ -${oldLen === 0 ? oldStart - 1 : oldStart},${oldLen} +${
        newLen === 0 ? newStart - 1 : newStart
      },${newLen} @@`,
    );
    for (const line of body) out.push(line);
    i = j + 1;
  }
  return out.join("\n");
}

/** Checks a history query; throws `TypeError` naming the bad field. */
export function checkQuery(
  q: HistoryQuery,
): Required<Pick<HistoryQuery, "limit">> & HistoryQuery {
  if (q === null || typeof q !== "object") {
    throw new TypeError(
      "Cannot list history: the query must be an object such as { limit: 20 }.",
    );
  }
  for (const key of ["session", "path"] as const) {
    if (q[key] !== undefined && typeof q[key] !== "string") {
      throw new TypeError(`Cannot list history: ${key} must be a string.`);
    }
  }
  const limit = q.limit ?? 50;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new TypeError(
      `Cannot list history: limit must be a whole number ≥ 1, got ${
        String(q.limit)
      }.`,
    );
  }
  return { ...q, limit };
}

/**
 * The entries that pass the query, newest first.
 *
 * @param records The log's records (any order).
 * @param q Filters; `path` is root-relative with `/` separators.
 * @returns At most `limit` entries.
 */
export function listEntries(
  records: readonly EntryRecord[],
  q: HistoryQuery,
): HistoryEntry[] {
  const { limit } = checkQuery(q);
  const out: HistoryEntry[] = [];
  const sorted = [...records].sort((a, b) => idNumber(b.id) - idNumber(a.id));
  for (const r of sorted) {
    if (q.session !== undefined && r.session !== q.session) continue;
    if (
      q.path !== undefined &&
      !r.files.some((f) => f.path === q.path || f.renamedFrom === q.path)
    ) {
      continue;
    }
    out.push(toEntry(r));
    if (out.length >= limit) break;
  }
  return out;
}
