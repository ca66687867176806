/**
 * What the doors show of the log: entries as listed (newest first,
 * filtered), and one entry with its diffs (pure functions).
 *
 * @module
 */
import { renderDiff } from "./hunks.ts";
import type {
  EntryDetail,
  EntryRecord,
  HistoryEntry,
  HistoryQuery,
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

/** An entry with each file's unified diff. */
export function toDetail(r: EntryRecord): EntryDetail {
  return {
    ...toEntry(r),
    files: r.files.map((f) => ({
      ...entryFile(f),
      diff: f.noUndo && f.hunks.length === 0 ? `(${f.noUndo})` : renderDiff(
        f.path,
        f.hunks,
        f.created ? "created" : f.deleted ? "deleted" : undefined,
      ),
    })),
  };
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
