/**
 * What a patch with file operations commits (docs/patch-format.md "Moves
 * and file operations"): its deletions, renames, creations and edits as
 * staged files, removals first; the history entry's files; and, after
 * the commit, the read records carried to where the files now stand.
 *
 * @module
 */
import { relative } from "node:path";
import { lineHash32 } from "../hash/fnv.ts";
import { hunksOf } from "../history/hunks.ts";
import { recordFile } from "../history/record.ts";
import type { RecordFile } from "../history/types.ts";
import { ContentIndex } from "../patch/_content.ts";
import type { FileAction } from "../patch/file_ops.ts";
import { LineMemory } from "../patch/memory.ts";
import type { Shown } from "../patch/problems.ts";
import type { PatchOp, PlannedEdit } from "../patch/types.ts";
import { foldersToMake } from "../commit/stage.ts";
import type { Target } from "../fs/confine.ts";
import type { StageEntry } from "../commit/commit.ts";
import type { Context } from "./_context.ts";
import type { Loaded } from "../block/op_blocks.ts";
import { noteOwnCommit, remember } from "../records/update.ts";
import type { FileEdit } from "./types.ts";

const encoder = new TextEncoder();

/** One file's outcome, ready to stage and report (`to`: a rename's target; `ops`: as applied, after any rebase). */
export interface Done {
  action: FileAction;
  from: Loaded;
  to?: Target;
  plan: PlannedEdit[];
  ops?: PatchOp[];
  oldText: string;
  newText: string;
  oldCount: number;
}

/** One file of the result, with what a file operation adds. */
export type FileOpEdit = FileEdit & {
  deleted?: boolean;
  renamedFrom?: string;
  link?: string;
};

/**
 * The files to commit, in `order` (removals first), and the history
 * entry's files.
 */
export function commitOf(
  ctx: Context,
  order: readonly Done[],
  fileOf: (d: Done) => FileOpEdit,
): { stage: StageEntry[]; records: RecordFile[] } {
  const stage: StageEntry[] = [];
  const records = order.map((d) => {
    const kind = d.action.action;
    const f = fileOf(d);
    const mode = d.from.target.stat?.mode;
    if (kind === "delete" || kind === "rename") {
      stage.push({ target: d.from.target, remove: true, old: d.from.bytes });
    }
    if (kind === "rename") {
      // On a file system that folds case or normalization, Q is P itself
      // now: it is claimed once P's removal freed the name.
      const freed = d.to!.exists;
      stage.push({
        target: freed ? { ...d.to!, exists: false, stat: undefined } : d.to!,
        ...(f.link !== undefined
          ? { link: f.link }
          : { bytes: encoder.encode(d.newText) }),
        ...(mode !== undefined && f.link === undefined ? { mode } : {}),
        ...(freed ? { freed: true } : {}),
      });
    } else if (kind !== "delete") {
      stage.push({
        target: d.from.target,
        bytes: encoder.encode(d.newText),
        ...(d.from.bytes ? { old: d.from.bytes } : {}),
      });
    }
    const r = recordFile({
      path: f.path,
      added: f.added,
      removed: f.removed,
      created: f.created,
      deleted: kind === "delete",
      oldText: d.oldText,
      newText: d.newText,
      plan: kind === "delete" ? undefined : d.plan,
    });
    if (kind === "delete") r.hunks = hunksOf(d.oldText, "");
    if (kind === "rename") r.renamedFrom = d.action.path;
    if (f.link !== undefined) r.link = f.link;
    else if ((kind === "delete" || kind === "rename") && mode !== undefined) {
      r.mode = mode & 0o7777;
    }
    const made = kind === "rename" || f.created
      ? foldersToMake(ctx.conf.rootRef, [{ target: d.to ?? d.from.target }])
      : [];
    if (made.length > 0) {
      r.dirs = made.map((m) => relative(ctx.conf.rootRef.real, m));
    }
    return r;
  });
  return { stage, records };
}

/**
 * After the commit: an edited or created file's record follows its lines;
 * a renamed file's record (the committer's) moves to the new path and
 * every other session's record of the old path is dropped, as every
 * session's record of a deleted file is.
 */
export async function carryRecords(
  ctx: Context,
  session: string,
  done: Done[],
  shown: Shown[][],
  warnings: string[],
  entry?: string,
): Promise<void> {
  for (const [i, d] of done.entries()) {
    // A link has no lines, and no session's record is keyed by it.
    if (d.from.target.link !== undefined) continue;
    const kind = d.action.action;
    const real = d.from.target.real;
    if (kind === "delete") {
      await ctx.records.dropEverywhere(real).catch(() => {});
      continue;
    }
    let mem = (await ctx.records.get(session, real))?.clone();
    if (!mem) {
      mem = new LineMemory();
      if (d.from.text === null) {
        const idx = new ContentIndex(d.newText);
        const hashes: number[] = [];
        for (let n = 1; n <= idx.lineCount; n++) {
          hashes.push(lineHash32(idx.text(n)));
        }
        mem.see(1, hashes);
        mem.lineCount = idx.lineCount;
      }
    }
    noteOwnCommit(mem, d.plan, shown[i], entry);
    const to = kind === "rename" ? d.to!.real : real;
    if (kind === "rename") {
      await ctx.records.dropEverywhere(real).catch(() => {});
    }
    await remember(ctx, session, to, mem, warnings);
  }
}
