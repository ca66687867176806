/**
 * Writing files all-or-nothing, through pinned folders (docs/workspace.md
 * "Writing").
 *
 * One file: its new content is staged in a temporary file beside it
 * (created exclusively, never following a symlink), flushed and given the
 * old file's mode, then renamed over the target right after a last check
 * that the target is still the version that was validated; the folder is
 * flushed. No journal is needed: a crash leaves the old file and at most a
 * temporary file, which the next writer of that file removes.
 *
 * A file whose change is recorded in the history: staged as above, then
 * its entry is appended to the log naming the target and the temporary,
 * as the commit's journal; the rename waits for both flushes, and recovery
 * voids the entry of a commit whose temporary is still there. (An undo of
 * a creation keeps a journal in state `committing` naming the entry.)
 *
 * Several files: a journal in `<state>/journal` names every temporary and
 * backup before any of them exists, and its state says which way an
 * interrupted commit must go:
 *
 * - `staging`: no target was touched yet → remove temporaries and backups;
 * - `committing`: every temporary is complete and flushed → finish the
 *   renames, each only over the version of the target the commit saw;
 * - `rolling-back`: a check failed between renames → put back the backups
 *   of targets that still hold this commit's new content.
 *
 * The journal records its root; recovery acts only on entries whose paths
 * lie under that root, in folders reached without symlinks, with temporary
 * names of this commit's own form.
 *
 * @module
 */
import { basename, join } from "node:path";
import { fsync, fsyncSync } from "../_runtime/fs.ts";
import { closeQuietly } from "../lock/lock_file.ts";
import { processId } from "../_runtime/process.ts";
import { bootIdExact } from "../_runtime/host.ts";
import { sha256Hex } from "../_internal/sha256.ts";
import { mapFsError } from "../_internal/errno.ts";
import type { Confinement } from "../fs/confine.ts";
import type { CommitIntent, PendingEntry } from "../commit/types.ts";
import {
  checkIdentity,
  install,
  journalEntry,
  linkBackup,
  recheck,
} from "../commit/install.ts";
import {
  type Journal,
  removeJournal,
  writeJournal,
} from "../commit/journal.ts";
import type { LeaseHooks } from "../lock/lock.ts";
import type { Pin, RootRef } from "../fs/pin.ts";
import { undoOne } from "../commit/recover.ts";
import {
  foldersToMake,
  pinTargetFolder,
  randomId,
  removeEmptyFolders,
  removeQuietly,
  sideName,
  stage,
  stageBytesOpen,
  type Staged,
  type StageEntry,
} from "../commit/stage.ts";

export type { StageEntry } from "../commit/stage.ts";
export type { CommitIntent, PendingEntry } from "../commit/types.ts";

/**
 * Test seams of a commit: `afterStep` runs after each step with the
 * commit's target paths (tests change files mid-commit, or freeze commits
 * before a kill); the lease seams of the locks it holds. Passed in through
 * the workspace's options, never global.
 */
export interface CommitHooks extends LeaseHooks {
  /** Runs after each step named by {@link commitSteps}. */
  afterStep?: (
    name: string,
    targets: readonly string[],
  ) => void | Promise<void>;
}

/**
 * A history entry committed with the files. A one-file commit appends it
 * as its own journal before the rename ({@link CommitRecord.appendPending});
 * a commit of several files takes it first ({@link CommitRecord.take}),
 * keeps it in its journal and appends it after the last rename (a failure
 * rolls the files back); a recovery that finishes such a commit appends it
 * unless the log already holds it.
 */
export interface CommitRecord {
  /** The entry's id, once taken. */
  id?: string;
  /** The entry, as the journal keeps it (JSON), once taken. */
  record?: unknown;
  /** Takes an id and builds the entry (sets `id` and `record`). */
  take(): Promise<unknown>;
  /** Appends it to the log. */
  append(record: unknown): Promise<void>;
  /**
   * Appends it without waiting for its flush; `then` runs once a flush
   * covers it (the commit's journal, which holds the record flushed, is
   * removed only then).
   */
  appendDeferred?(record: unknown, then: () => void): Promise<void>;
  /**
   * Takes an id, builds the entry and appends it naming the commit (its
   * target, temporary and the temporary's inode), under one hold of the
   * history's lock: the record is the commit's journal. Sets `id` and
   * `record`.
   */
  appendPending?(commit: CommitIntent): Promise<PendingEntry>;
}

/**
 * Names of the steps of a commit of several files (existing marks the files
 * that already exist; history, that an entry is committed with them), in
 * order; a one-file commit has the steps `temp-0`, `staged`, `checked`,
 * `rename-0`, `done`, and with history `history` (its entry appended, as
 * its journal) between `staged` and `checked`. A commit that makes folders
 * (a file in a missing folder) takes the steps of a commit of several
 * files, whose journal names the folders before they are made.
 */
export function commitSteps(existing: boolean[], history = false): string[] {
  if (existing.length === 1 && !history) {
    return ["temp-0", "staged", "checked", "rename-0", "done"];
  }
  if (existing.length === 1) {
    return ["temp-0", "staged", "history", "checked", "rename-0", "done"];
  }
  const steps = ["journal-staging"];
  existing.forEach((_, i) => steps.push(`temp-${i}`));
  steps.push("staged", "checked");
  existing.forEach((e, i) => e && steps.push(`backup-${i}`));
  steps.push("journal-committing");
  existing.forEach((_, i) => steps.push(`rename-${i}`));
  if (history) steps.push("history");
  steps.push("renamed", "cleaned", "done");
  return steps;
}

/**
 * Writes every entry's new content to its target, all or none. The caller
 * holds the files' locks.
 *
 * @param stateDir The state folder (the journal of a multi-file commit goes in `journal/`).
 * @param confinement The root the targets lie under.
 * @param entries The files.
 * @param hooks Test seams run after each step.
 * @param history The history entry to commit with them (always journaled).
 * @param alongside Work to run before any target is replaced: a one-file
 *   commit runs it while the new content flushes, others before they
 *   start. When it throws, nothing is written and the error is the commit's.
 * @param tidy Folders (real paths) to remove when empty once the commit
 *   landed; the commit is then journaled, and its journal kept until the
 *   caller, its locks released, runs what this returns.
 * @returns What removes `tidy`'s empty folders and then the journal (a
 *   no-op without `tidy`).
 * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
 */
export async function commitFiles(
  stateDir: string,
  confinement: Confinement,
  entries: StageEntry[],
  hooks: CommitHooks = {},
  history?: CommitRecord,
  alongside: () => Promise<void> = async () => {},
  tidy: string[] = [],
): Promise<() => void> {
  const root = confinement.rootRef;
  const id = randomId();
  const pid = processId();
  const targets = entries.map((e) => e.target.real);
  const step = async (name: string): Promise<void> => {
    await hooks.afterStep?.(name, targets);
  };
  const staged: Staged[] = [];
  // Folders a commit makes are named in its journal before they exist.
  const dirs = foldersToMake(root, entries);
  const many = entries.length > 1 || dirs.length > 0 || tidy.length > 0;
  try {
    for (const entry of entries) {
      const name = basename(entry.target.real);
      staged.push({
        entry,
        pin: (many ? null : pinTargetFolder(root, entry.target)) as Pin,
        name,
        temp: sideName(name, pid, id, many ? "new" : "one"),
        backup: entry.target.exists ? sideName(name, pid, id, "old") : null,
      });
    }
    if (!many && !history) await commitOne(staged[0], step, alongside);
    else if (!many && history!.appendPending && !staged[0].entry.remove) {
      staged[0].backup = null;
      await commitOneLogged(staged[0], step, history!, alongside);
    } else if (!many) {
      await alongside();
      await history!.take();
      await commitOneRecorded(stateDir, root, id, staged[0], step, history!);
    } else {
      await alongside();
      await history?.take();
      return await commitMany(stateDir, root, id, staged, step, history, {
        dirs,
        tidy,
      });
    }
  } finally {
    for (const s of staged) s.pin?.close();
  }
  return () => {};
}

async function commitOne(
  s: Staged,
  step: (name: string) => Promise<void>,
  alongside: () => Promise<void>,
): Promise<void> {
  // Content held in memory is flushed in the worker pool while the last
  // checks run; the rename waits for the flush.
  let temp: OpenTemp | null = null;
  try {
    if (s.entry.bytes && !s.entry.remove) {
      temp = new OpenTemp(stageBytesOpen(s, s.entry.bytes, false).fd);
      temp.flush();
      // An undo of a creation removes its target: nothing to stage.
    } else if (!s.entry.remove) await stage(s);
    await step("temp-0");
    await step("staged");
    await alongside();
    await recheck(s);
    await step("checked");
    if (temp) {
      await temp.flushed();
      await temp.close();
      // Checked again after the wait, right before the rename.
      checkIdentity(s);
    }
    install(s);
  } catch (error) {
    await temp?.close();
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${s.entry.target.display}"`);
  }
  await step("rename-0");
  flushFolderNow(s);
  await step("done");
}

/**
 * One file with its history entry, the entry its journal: staged like a
 * one-file commit (flushed in the worker pool meanwhile), then the entry is
 * appended to the log naming the target, the temporary and its inode; the
 * rename waits for both flushes. A crash before the append leaves only a
 * temporary; after it and before the rename, a record whose temporary is
 * still there, which recovery voids; after the rename, the edit with its
 * entry. A check that fails before the rename voids the record.
 *
 * Content held in memory (up to {@link LOGGED_FINISH_MAX}) on a host whose
 * boot the kernel names (Linux) is answered for at its rename, with one
 * round of flushes instead of two: the record also names the digests of
 * the content staged and of the content replaced, and the folder is
 * flushed beside the temporary and the log, so the temporary's name is
 * kept too. If the host stops before the folder holding the rename reaches
 * the disk, the restart may bring back the old file and the temporary;
 * recovery then finishes the commit from them (`recoverLogged`,
 * src/commit/recover.ts).
 */
async function commitOneLogged(
  s: Staged,
  step: (name: string) => Promise<void>,
  history: CommitRecord,
  alongside: () => Promise<void>,
): Promise<void> {
  const display = s.entry.target.display;
  let newIno: number | null = null;
  let temp: OpenTemp | null = null;
  let pending: PendingEntry | null = null;
  let folder: Promise<void> | null = null;
  try {
    const digests = await finishDigests(s);
    if (s.entry.bytes) {
      const open = stageBytesOpen(s, s.entry.bytes, false);
      newIno = open.ino;
      temp = new OpenTemp(open.fd);
    } else newIno = await stage(s);
    await step("temp-0");
    await step("staged");
    // Appended before the temporary's flush starts: the history lock's file
    // is made and removed before the file system is busy flushing, and the
    // flushes then run side by side, beside the last checks.
    pending = await history.appendPending!({
      target: s.entry.target.real,
      temp: s.temp,
      newIno,
      ...digests,
    });
    temp?.flush();
    if (digests.after !== undefined) folder = flushFolder(s.pin);
    await step("history");
    await alongside();
    await recheck(s);
    await step("checked");
    await temp?.flushed();
    await pending.flushed;
    await folder;
    await temp?.close();
    checkIdentity(s);
    install(s);
  } catch (error) {
    await temp?.close();
    // Its handle is the pin's, which the caller closes.
    await folder;
    let cancelled = true;
    if (pending) {
      try {
        await pending.cancel();
      } catch {
        // The temporary stays: once this process is gone, recovery finds
        // it beside its never-renamed target and voids the entry.
        cancelled = false;
      }
    }
    if (cancelled) removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  await step("rename-0");
  // Without the digests the answer waits for the rename to be flushed.
  if (!folder) flushFolderNow(s);
  await step("done");
}

/** The largest content a logged commit answers for before its rename is flushed (hashing more costs more than the flush). */
const LOGGED_FINISH_MAX = 1024 * 1024;

/**
 * The digests a logged commit's record names so that recovery after a
 * restart can finish it ({@link commitOneLogged}); none (the answer then
 * waits for a second flush) for content not held in memory, content larger
 * than {@link LOGGED_FINISH_MAX}, or a host without the kernel's boot id.
 */
async function finishDigests(
  s: Staged,
): Promise<{ after?: string; before?: string | null }> {
  const { bytes, old, target } = s.entry;
  if (!bytes || !bootIdExact()) return {};
  if (target.exists && !old) return {};
  if (bytes.length + (old?.length ?? 0) > LOGGED_FINISH_MAX) return {};
  const [after, before] = await Promise.all([
    sha256Hex(bytes),
    old ? sha256Hex(old) : null,
  ]);
  return { after, before };
}

/**
 * One file with its history entry: staged like a one-file commit (a crash
 * before the journal leaves only a temporary the next writer removes), then
 * one journal in state `committing` names the temporary, the backup and the
 * entry, so a crash after it is finished by recovery, entry included.
 */
async function commitOneRecorded(
  stateDir: string,
  root: RootRef,
  id: string,
  s: Staged,
  step: (name: string) => Promise<void>,
  history: CommitRecord,
): Promise<void> {
  const display = s.entry.target.display;
  let newIno: number | null = null;
  // Content held in memory is written at once and flushed beside the
  // journal's own flushes (both before any rename): one wait, not two.
  let temp: OpenTemp | null = null;
  try {
    if (s.entry.bytes && !s.entry.remove) {
      const open = stageBytesOpen(s, s.entry.bytes, false);
      newIno = open.ino;
      temp = new OpenTemp(open.fd);
      temp.flush();
    } else if (!s.entry.remove) newIno = await stage(s);
    await step("temp-0");
    await step("staged");
    await recheck(s);
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

/**
 * Appends a commit's entry after its renames. Deferred where the log can:
 * the journal holds the record flushed, so the log's own flush runs beside
 * the folder's (and is shared by the commits in flight), and the journal
 * goes once it is done.
 */
async function appendEntry(
  history: CommitRecord,
  jfile: string,
): Promise<void> {
  if (!history.appendDeferred) return await history.append(history.record);
  await history.appendDeferred(history.record, () => removeJournal(jfile));
}

/**
 * The flushes of the folders of one-file commits renamed into, each started
 * at its rename and gone once done; answers wait for them, and the caller
 * releases the files' locks once {@link commitsFlushed} resolves (removing
 * a lock file waits behind a flush in progress on many file systems).
 */
const folderFlushes = new Map<Pin, Promise<void>>();

/**
 * Starts the flush of a one-file commit's folder right after its rename, in
 * the runtime's worker pool, while the caller records the commit. The pin
 * is closed once the flush is done.
 */
function flushFolderNow(s: Staged): void {
  const pin = s.pin;
  if (!pin || pin.fd < 0) return;
  s.pin = null as unknown as Pin;
  folderFlushes.set(
    pin,
    flushFolder(pin).then(() => {
      pin.close();
      folderFlushes.delete(pin);
    }),
  );
}

/**
 * Flushes a pinned folder in the runtime's worker pool; never rejects: some
 * file systems cannot flush a folder, and a rename is atomic without it.
 */
function flushFolder(pin: Pin): Promise<void> {
  return flushFd(pin.fd).catch(() => {});
}

/**
 * Resolves once the folders of every commit made so far are flushed: an
 * answer that a write is done waits for it.
 */
export async function commitsFlushed(): Promise<void> {
  if (folderFlushes.size === 0) return;
  await Promise.all(folderFlushes.values());
}

/**
 * A temporary written from memory and kept open while it is flushed in the
 * runtime's worker pool: the commit goes on meanwhile and waits for the
 * flush before its rename.
 */
class OpenTemp {
  private flushing: Promise<void> | null = null;
  private closed = false;

  /** @param fd The temporary's handle. */
  constructor(readonly fd: number) {}

  /** Starts the flush. */
  flush(): void {
    this.flushing = flushFd(this.fd);
    // Awaited by flushed(); handled now, so a failure is never an unhandled rejection.
    this.flushing.catch(() => {});
  }

  /** Settles when the flush started has ended; rejects with its failure. */
  async flushed(): Promise<void> {
    await this.flushing;
  }

  /** Closes the handle once any flush has ended (at most once; a failed flush is for {@link flushed} to report). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing?.catch(() => {});
    closeQuietly(this.fd);
  }
}

/** Flushes an open file in the runtime's worker pool, while this thread goes on. */
function flushFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) =>
    fsync(fd, (error) => error ? reject(error) : resolve())
  );
}

/** Removes the temporary and the backup of each staged file. */
function removeSides(staged: Staged[]): void {
  for (const s of staged) {
    if (!s.pin) continue;
    removeQuietly(s.pin, s.temp);
    removeQuietly(s.pin, s.backup);
  }
}

/**
 * Puts back what a commit installed: the journal says `rolling-back` first
 * (recovery finishes a rollback a crash cuts short), each entry is undone,
 * then the temporaries, backups and journal go.
 */
async function rollBack(
  root: RootRef,
  jfile: string,
  journal: Journal,
  staged: Staged[],
  step: (name: string) => Promise<void>,
): Promise<void> {
  journal.state = "rolling-back";
  writeJournal(jfile, journal);
  await step("journal-rolling-back");
  // Last entry first: a name a removal freed is given back only after the
  // file that claimed it (a case-only rename) is gone.
  for (let i = staged.length - 1; i >= 0; i--) {
    if (staged[i].pin) undoOne(staged[i].pin, journal.entries[i]);
  }
  removeSides(staged);
  if (journal.dirs) removeEmptyFolders(root, journal.dirs);
  removeJournal(jfile);
}

/** A commit's journal, with the folder and file it is written to. */
function newJournal(
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

async function commitMany(
  stateDir: string,
  root: RootRef,
  id: string,
  staged: Staged[],
  step: (name: string) => Promise<void>,
  history: CommitRecord | undefined,
  { dirs, tidy }: { dirs: string[]; tidy: string[] },
): Promise<() => void> {
  const { jfile, journal } = newJournal(
    stateDir,
    root,
    id,
    "staging",
    staged.map((s) => journalEntry(s, null)),
    history,
  );
  if (dirs.length > 0) journal.dirs = dirs;
  if (tidy.length > 0) journal.tidy = tidy;
  try {
    writeJournal(jfile, journal);
  } catch (error) {
    throw mapFsError(
      error,
      `Cannot write "${staged[0].entry.target.display}" (its commit journal)`,
    );
  }
  await step("journal-staging");
  try {
    for (const s of staged) s.pin ??= pinTargetFolder(root, s.entry.target);
    for (let i = 0; i < staged.length; i++) {
      if (!staged[i].entry.remove) {
        journal.entries[i].newIno = await stage(staged[i]);
      }
      await step(`temp-${i}`);
    }
    await step("staged");
    // A name another entry frees first is checked right before it is claimed.
    for (const s of staged) if (!s.entry.freed) await recheck(s);
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
    throw mapFsError(error, `Cannot write "${staged[0].entry.target.display}"`);
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
    throw mapFsError(error, `Cannot write "${staged[0].entry.target.display}"`);
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
