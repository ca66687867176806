/**
 * Edit history in the write (docs/history.md): the entry each commit
 * carries — built here, written into the commit's journal and appended
 * after the renames (`src/commit/commit.ts`) — and the wait for its flush before
 * the locks are released. The log's entries are listed and shown by
 * `src/history/entries.ts`.
 *
 * @module
 */
import {
  type Door,
  type EntryRecord,
  makeRecord,
  type RecordFile,
} from "../history/mod.ts";
import { type CommitRecord, commitsFlushed } from "../commit/commit.ts";
import type { Context } from "./_context.ts";

/**
 * The entry that commits with the files (none with history off): its id is
 * taken when the commit takes it (`id` is set from then on).
 */
export async function recordOf(
  ctx: Context,
  session: string,
  summary: string,
  files: RecordFile[],
  undoOf?: string,
  door: Door = ctx.door,
): Promise<CommitRecord | undefined> {
  const log = await ctx.log();
  if (!log) return undefined;
  const build = (id: string) =>
    makeRecord({ id, session, door, summary, files, undoOf });
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
 * Waits until a flush of the log covers every entry appended so far (the
 * commits of several files append them without waiting, after the
 * renames) and the folders of the commits made so far are flushed; call it
 * before releasing the files' locks (a lock file removed while a flush runs
 * waits behind it), and before answering. It takes no lock itself.
 */
async function historySettled(ctx: Context): Promise<void> {
  const log = await ctx.log();
  await Promise.all([log?.settled(), commitsFlushed()]);
}

/**
 * Ends a write that holds the files' locks: waits for
 * {@link historySettled} (its entry's and its folders' flushes, started at
 * the renames and run beside the session's record), then releases the
 * locks, also when the wait fails.
 *
 * @param settle False for a dry run, which wrote nothing to wait for.
 */
export async function settleThenRelease(
  ctx: Context,
  release: () => void,
  settle = true,
): Promise<void> {
  try {
    if (settle) await historySettled(ctx);
  } finally {
    release();
  }
}
