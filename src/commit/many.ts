/**
 * Several files, or one that needs folders made or tidied
 * (docs/workspace.md "Journal"): a journal in `<state>/journal` names every
 * temporary and backup (and the folders to make) before any of them
 * exists, and its state says which way an interrupted commit must go:
 *
 * - `staging`: no target was touched yet → remove temporaries and backups;
 * - `committing`: every temporary is complete and flushed → finish the
 *   renames, each only over the version of the target the commit saw;
 * - `rolling-back`: a check failed between renames → put back the backups
 *   of targets that still hold this commit's new content.
 *
 * The journal records its root; recovery (`recover.ts`) acts only on
 * entries whose paths lie under that root, in folders reached without
 * symlinks, with temporary names of this commit's own form.
 *
 * @module
 */
import { fsyncSync } from "../_runtime/fs.ts";
import { mapFsError } from "../_internal/errno.ts";
import type {
  CommitJob,
  CommitPath,
  CommitRecord,
  Landed,
} from "./contract.ts";
import {
  checkIdentity,
  install,
  journalEntry,
  linkBackup,
  recheck,
} from "./install.ts";
import { removeJournal, writeJournal } from "./journal.ts";
import {
  appendEntry,
  newJournal,
  removeSides,
  rollBack,
} from "./_journal_steps.ts";
import {
  pinSide,
  removeEmptyFolders,
  removeQuietly,
  stage,
  type Staged,
} from "./stage.ts";

/** The journaled commit of several files (history entry or not). */
export const many: CommitPath<CommitRecord | undefined> = {
  temps: "new",
  backups: true,
  async run(job): Promise<Landed> {
    // Folders are pinned only once the journal names what they will hold.
    const staged: Staged[] = [];
    try {
      await job.alongside();
      await job.history?.take();
      return await commitMany(job, staged);
    } finally {
      for (const s of staged) s.pin.close();
    }
  },
};

/** The commit of `job`, pinning into `staged` (which the caller closes). */
async function commitMany(
  job: CommitJob<CommitRecord | undefined>,
  staged: Staged[],
): Promise<Landed> {
  const { stateDir, root, id, sides, step, history, dirs, tidy } = job;
  const display = sides[0].entry.target.display;
  const { jfile, journal } = newJournal(
    stateDir,
    root,
    id,
    "staging",
    sides.map((s) => journalEntry(s, null)),
    history,
  );
  if (dirs.length > 0) journal.dirs = dirs;
  if (tidy.length > 0) journal.tidy = tidy;
  try {
    writeJournal(jfile, journal);
  } catch (error) {
    throw mapFsError(error, `Cannot write "${display}" (its commit journal)`);
  }
  await step("journal-staging");
  try {
    for (const side of sides) {
      staged.push(pinSide(root, side));
    }
    for (let i = 0; i < staged.length; i++) {
      if (!staged[i].entry.remove) {
        journal.entries[i].newIno = await stage(staged[i]);
      }
      await step(`temp-${i}`);
    }
    await step("staged");
    // A name another entry frees first is checked right before it is claimed.
    for (const s of staged) if (!s.entry.freed) recheck(s);
    await step("checked");
    for (let i = 0; i < staged.length; i++) {
      if (!staged[i].backup) continue;
      linkBackup(staged[i]);
      await step(`backup-${i}`);
    }
    journal.state = "committing";
    writeJournal(jfile, journal);
    await step("journal-committing");
  } catch (error) {
    removeSides(staged);
    removeEmptyFolders(root, dirs);
    removeJournal(jfile);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  try {
    for (let i = 0; i < staged.length; i++) {
      checkIdentity(staged[i]);
      install(staged[i]);
      await step(`rename-${i}`);
    }
    if (history) {
      // Kept for its folders to tidy: never removed by the log's flush.
      if (tidy.length > 0) await history.append(history.record);
      else await appendEntry(history, jfile);
      await step("history");
    }
  } catch (error) {
    await rollBack(root, jfile, journal, staged, step);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  await step("renamed");
  for (const s of staged) s.pin.sync(fsyncSync);
  for (const s of staged) removeQuietly(s.pin, s.backup);
  await step("cleaned");
  const kept = tidy.length > 0;
  if (!kept && !history?.appendDeferred) removeJournal(jfile);
  await step("done");
  return kept
    ? () => {
      removeEmptyFolders(root, tidy);
      removeJournal(jfile);
    }
    : () => {};
}
