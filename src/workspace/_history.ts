/**
 * Edit history in the write (docs/history.md): the entry each commit
 * carries — built here, written into the commit's journal and appended
 * after the renames (`src/commit/commit.ts`, from `_transaction.ts`). The
 * log's entries are listed and shown by `src/history/entries.ts`.
 *
 * @module
 */
import {
  type Door,
  type EntryRecord,
  makeRecord,
  type RecordFile,
} from "../history/mod.ts";
import type { CommitRecord } from "../commit/commit.ts";
import type { Context } from "./_context.ts";

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
