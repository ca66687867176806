/**
 * One file with its history entry, when the log's record cannot be its
 * journal (an undo of a creation removes its target; docs/workspace.md
 * "Journal"): staged like a one-file commit (a crash before the journal
 * leaves only a temporary the next writer removes), then one journal in
 * state `committing` names the temporary, the backup and the entry, so a
 * crash after it is finished by recovery, entry included.
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
import type { OpenTemp } from "./flush.ts";
import {
  checkIdentity,
  install,
  journalEntry,
  linkBackup,
  recheck,
} from "./install.ts";
import { removeJournal, writeJournal } from "./journal.ts";
import { appendEntry, newJournal, rollBack } from "./_journal_steps.ts";
import { pinSide, removeQuietly, type Staged, stageOne } from "./stage.ts";

/** The commit of one file whose history entry its journal carries. */
export const journaled: CommitPath<CommitRecord> = {
  temps: "one",
  backups: true,
  async run(job): Promise<Landed> {
    const [side] = job.sides;
    const s: Staged = pinSide(job.root, side);
    try {
      await job.alongside();
      await job.history.take();
      await commitJournaled(job, s);
    } finally {
      s.pin.close();
    }
    return () => {};
  },
};

/** The journaled commit of `s`, its entry taken. */
async function commitJournaled(
  { stateDir, root, id, step, history }: CommitJob<CommitRecord>,
  s: Staged,
): Promise<void> {
  const display = s.entry.target.display;
  let newIno: number | null = null;
  // Content held in memory is written at once and flushed beside the
  // journal's own flushes (both before any rename): one wait, not two.
  let temp: OpenTemp | null = null;
  try {
    ({ ino: newIno, temp } = await stageOne(s));
    temp?.flush();
    await step("temp-0");
    await step("staged");
    recheck(s);
    await step("checked");
  } catch (error) {
    await temp?.close();
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  const { jfile, journal } = newJournal(
    stateDir,
    root,
    id,
    "committing",
    [journalEntry(s, newIno)],
    history,
  );
  try {
    writeJournal(jfile, journal);
    await temp?.flushed();
  } catch (error) {
    await temp?.close();
    removeQuietly(s.pin, s.temp);
    try {
      removeJournal(jfile);
    } catch {
      // The write's own error is the one to report.
    }
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  await temp?.close();
  await step("journal-committing");
  try {
    if (s.backup) {
      linkBackup(s);
      await step("backup-0");
    }
    checkIdentity(s);
    install(s);
    await step("rename-0");
    await appendEntry(history, jfile);
    await step("history");
  } catch (error) {
    await rollBack(root, jfile, journal, [s], step);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  s.pin.sync(fsyncSync);
  removeQuietly(s.pin, s.backup);
  await step("cleaned");
  if (!history.appendDeferred) removeJournal(jfile);
  await step("done");
}
