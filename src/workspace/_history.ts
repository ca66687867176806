/**
 * Edit history (DESIGN.md §10): the entry each commit carries — built here,
 * written into the commit's journal and appended after the renames
 * (`_commit.ts`) — and the log's entries listed and shown.
 *
 * @module
 */
import { NotFoundError } from "../errors.ts";
import {
  checkQuery,
  type EntryDetail,
  type EntryRecord,
  type HistoryList,
  type HistoryQuery,
  listEntries,
  makeRecord,
  type RecordFile,
  toDetail,
} from "../history/mod.ts";
import type { CommitRecord } from "./_commit.ts";
import type { Context } from "./_context.ts";
import { start } from "./_locking.ts";

/**
 * Takes an id and builds the entry that commits with the files (none with
 * history off).
 */
export async function recordOf(
  ctx: Context,
  session: string,
  summary: string,
  files: RecordFile[],
  undoOf?: string,
): Promise<(CommitRecord & { id: string }) | undefined> {
  const log = await ctx.log();
  if (!log) return undefined;
  const record = await log.begin((id) =>
    makeRecord({ id, session, door: ctx.door, summary, files, undoOf })
  );
  return {
    id: record.id,
    record,
    append: (r) => log.append(r as EntryRecord),
    appendDeferred: (r, then) => log.appendDeferred(r as EntryRecord, then),
  };
}

/**
 * Waits until a flush of the log covers every entry appended so far (the
 * commits append them without waiting, after the renames); call it once
 * the files' locks are released, before answering.
 */
export async function historySettled(ctx: Context): Promise<void> {
  const log = await ctx.log();
  await log?.settled();
}

/**
 * The entry the log holds under `id`.
 *
 * @throws {NotFoundError} When it holds none, or the workspace keeps no history.
 */
export async function logged(
  ctx: Context,
  what: string,
  id: unknown,
): Promise<EntryRecord> {
  if (typeof id !== "string" || id === "") {
    throw new TypeError(
      `Cannot ${what}: the id must be a string such as "h_12".`,
    );
  }
  const log = await ctx.log();
  const r = await log?.get(id);
  if (!r) {
    throw new NotFoundError(
      log
        ? `Cannot ${what} "${id}": this workspace's history holds no such entry. List the entries with the log first.`
        : `Cannot ${what} "${id}": this workspace keeps no history (it was opened with history off).`,
    );
  }
  return r;
}

/**
 * The history's entries, newest first, filtered by `query`, read from the
 * log's end. Malformed records met are skipped and named in a `warnings`
 * property of the list (set only when there are some).
 */
export async function history(
  ctx: Context,
  query: HistoryQuery = {},
): Promise<HistoryList> {
  await start(ctx);
  const q = checkQuery(query);
  const log = await ctx.log();
  if (!log) return [];
  const path = q.path === undefined
    ? undefined
    : (await ctx.conf.resolve(q.path)).display;
  const found = log.list({ ...q, path });
  const out: HistoryList = listEntries(
    found.records,
    { ...q, path },
  );
  if (found.warnings.length > 0) out.warnings = found.warnings;
  return out;
}

/** One entry with each file's diff. */
export async function entry(ctx: Context, id: string): Promise<EntryDetail> {
  await start(ctx);
  return toDetail(await logged(ctx, "show", id));
}
