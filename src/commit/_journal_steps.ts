/**
 * The steps the journaled commit paths share (`journaled.ts`, `many.ts`;
 * docs/workspace.md "Journal"): a new journal, the entry appended after the
 * renames, and the rollback a failed check between renames runs.
 *
 * @module
 */
import { join } from "node:path";
import { processId } from "../_runtime/process.ts";
import type { RootRef } from "../fs/pin.ts";
import type { CommitRecord } from "./contract.ts";
import { type Journal, removeJournal, writeJournal } from "./journal.ts";
import { undoOne } from "./recover.ts";
import { removeEmptyFolders, removeQuietly, type Staged } from "./stage.ts";

/** A commit's journal, with the file it is written to (in `<state>/journal`). */
export function newJournal(
  stateDir: string,
  root: RootRef,
  id: string,
  state: Journal["state"],
  entries: Journal["entries"],
  history?: CommitRecord,
): { jfile: string; journal: Journal } {
  const jdir = join(stateDir, "journal");
  return {
    jfile: join(jdir, `${Date.now()}-${id}.json`),
    journal: {
      version: 2,
      id,
      pid: processId(),
      root: root.real,
      state,
      entries,
      ...(history ? { history: history.record } : {}),
    },
  };
}

/**
 * Appends a commit's entry after its renames. Deferred where the log can:
 * the journal holds the record flushed, so the log's own flush runs beside
 * the folder's (and is shared by the commits in flight), and the journal
 * goes once it is done.
 */
export async function appendEntry(
  history: CommitRecord,
  jfile: string,
): Promise<void> {
  if (!history.appendDeferred) return await history.append(history.record);
  await history.appendDeferred(history.record, () => removeJournal(jfile));
}

/** Removes the temporary and the backup of each staged file. */
export function removeSides(staged: readonly Staged[]): void {
  for (const s of staged) {
    removeQuietly(s.pin, s.temp);
    removeQuietly(s.pin, s.backup);
  }
}

/**
 * Puts back what a commit installed: the journal says `rolling-back` first
 * (recovery finishes a rollback a crash cuts short), each entry is undone,
 * then the temporaries, backups and journal go.
 */
export async function rollBack(
  root: RootRef,
  jfile: string,
  journal: Journal,
  staged: readonly Staged[],
  step: (name: string) => Promise<void>,
): Promise<void> {
  journal.state = "rolling-back";
  writeJournal(jfile, journal);
  await step("journal-rolling-back");
  // Last entry first: a name a removal freed is given back only after the
  // file that claimed it (a case-only rename) is gone.
  for (let i = staged.length - 1; i >= 0; i--) {
    undoOne(staged[i].pin, journal.entries[i]);
  }
  removeSides(staged);
  if (journal.dirs) removeEmptyFolders(root, journal.dirs);
  removeJournal(jfile);
}
