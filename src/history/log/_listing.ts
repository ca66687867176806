/**
 * Listing the newest entries (docs/history.md, "Bounded reads"): read from
 * the log's end until the entries asked for are found, so the work follows
 * the entries asked for, not the log's size; a malformed record is skipped
 * and named in a warning.
 *
 * @module
 */
import type { EntryRecord } from "../types.ts";
import { recordProblem } from "../check.ts";
import { idNumber } from "../ids.ts";
import { isVoid } from "./_frames.ts";
import { DISORDER, type ReadStats, scanBack } from "./_offsets.ts";

/** Malformed records named in one answer at most. */
const MAX_WARNINGS = 10;

/** What a listing found, newest first, with the records it skipped. */
export interface LogListing {
  /** Entry records, newest first. */
  records: EntryRecord[];
  /** One sentence per malformed record met, naming it. */
  warnings: string[];
}

/** Filters of a listing (`path` root-relative). */
export interface LogFilter {
  session?: string;
  path?: string;
  limit: number;
}

/** The sentence that names a malformed record of the log `file`. */
export function malformed(
  file: string,
  value: unknown,
  offset: number,
  problem: string,
): string {
  const id = (value as { id?: unknown } | null)?.id;
  const name = typeof id === "string" && id.length <= 40
    ? `record ${JSON.stringify(id)}`
    : "a record";
  return `Skipped ${name} at byte ${offset} of ${file}: ${problem}.`;
}

/**
 * The newest records of the log `file` open at `fd` that pass the filter,
 * newest first, among the newest `limit` entries retention keeps.
 */
export function listIn(
  fd: number,
  file: string,
  filter: LogFilter,
  limit: number,
  stats: ReadStats,
): LogListing {
  const found: EntryRecord[] = [];
  const warnings: string[] = [];
  let bad = 0;
  let past = 0;
  // Retention keeps the newest `limit` entries; the log may hold up to a
  // tenth more between prunes, which a listing does not show.
  let kept = 0;
  scanBack(fd, stats, (value, offset) => {
    if (isVoid(value)) return true;
    const problem = recordProblem(value);
    if (problem !== null) {
      if (++bad <= MAX_WARNINGS) {
        warnings.push(malformed(file, value, offset, problem));
      }
      return true;
    }
    const r = value as EntryRecord;
    if (++kept > limit) return false;
    if (found.length >= filter.limit) return ++past < DISORDER;
    if (filter.session !== undefined && r.session !== filter.session) {
      return true;
    }
    // A renamed file is found under its old name too.
    if (
      filter.path !== undefined &&
      !r.files.some((f) =>
        f.path === filter.path || f.renamedFrom === filter.path
      )
    ) return true;
    found.push(r);
    return true;
  });
  if (bad > MAX_WARNINGS) {
    warnings.push(
      `${bad - MAX_WARNINGS} more malformed records in ${file} were skipped.`,
    );
  }
  found.sort((a, b) => idNumber(b.id) - idNumber(a.id));
  return { records: found.slice(0, filter.limit), warnings };
}
