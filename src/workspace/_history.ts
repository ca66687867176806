/**
 * Edit history (docs/history.md): the entry each commit carries — built here,
 * written into the commit's journal and appended after the renames
 * (`_commit.ts`, from `_transaction.ts`) — and the log's entries listed and
 * shown.
 *
 * @module
 */
import { NotFoundError } from "../errors.ts";
import { ENTRY_ID } from "../history/ids.ts";
import {
  checkQuery,
  type Door,
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
import { loadWhole } from "./_load.ts";
import { start } from "./_locking.ts";

/** The history entry a write commits with its files. */
export interface EntryPlan {
  /** The entry's summary: the result's first line. */
  summary: string;
  /** Each file it changes. */
  files: RecordFile[];
  /** The entry an undo reverts. */
  undoOf?: string;
  /** The door it came through (default: the workspace's). */
  door?: Door;
}

/**
 * The entry that commits with the files (none with history off): its id is
 * taken when the commit takes it (`id` is set from then on).
 */
export async function recordOf(
  ctx: Context,
  session: string,
  plan: EntryPlan,
): Promise<CommitRecord | undefined> {
  const log = await ctx.log();
  if (!log) return undefined;
  const build = (id: string) =>
    makeRecord({ ...plan, id, session, door: plan.door ?? ctx.door });
  const out: CommitRecord = {
    take: async () => {
      const record = await log.begin(build);
      out.id = record.id;
      out.record = record;
      return record;
    },
    append: (r) => log.append(r as EntryRecord),
    appendDeferred: (r, then) => log.appendDeferred(r as EntryRecord, then),
    appendPending: async (commit) => {
      const p = await log.appendPending(build, commit);
      out.id = p.record.id;
      out.record = p.record;
      return p;
    },
  };
  return out;
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
  if (!ENTRY_ID.test(id)) {
    throw new TypeError(
      `Cannot ${what}: ${
        JSON.stringify(id.slice(0, 40))
      } is not an entry id; ids are "h_" and a number, such as "h_12", as edit_history (CLI: hashline log) lists them.`,
    );
  }
  const log = await ctx.log();
  const r = await log?.get(id);
  if (!r) {
    throw new NotFoundError(
      log
        ? `Cannot ${what} "${id}": this workspace's history holds no such entry. List the entries with edit_history (CLI: hashline log) first.`
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

/** Files a view loads for context lines: past this size it shows the kept line on each side only. */
const CONTEXT_MAX_BYTES = 8 * 1024 ** 2;

/**
 * One entry with each file's diff: the lines of files this workspace
 * denies are withheld, and where the entry's lines still stand, each
 * change shows 3 lines of context from the file as it is.
 */
export async function entry(ctx: Context, id: string): Promise<EntryDetail> {
  await start(ctx);
  const r = await logged(ctx, "show", id);
  const withheld = (path: string) => ctx.conf.deniedBy(path);
  const current = new Map<string, string | null>();
  for (const f of r.files) {
    if (f.created || f.deleted || withheld(f.path) !== undefined) continue;
    current.set(f.path, await currentText(ctx, f.path));
  }
  return toDetail(r, {
    withheld,
    current: (path) => current.get(path) ?? undefined,
  });
}

/** A file's text now, when it is a small text file this workspace may read. */
async function currentText(ctx: Context, path: string): Promise<string | null> {
  try {
    const target = await ctx.conf.resolve(path);
    ctx.conf.check(target, "read");
    if (!target.exists || !target.stat) return null;
    if (target.stat.size > CONTEXT_MAX_BYTES) return null;
    return (await loadWhole(target)).text;
  } catch {
    // Context is a courtesy: a file gone, binary or unreadable shows without it.
    return null;
  }
}
