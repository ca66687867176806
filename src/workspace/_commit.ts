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
import { fsyncSync, linkSync, mkdir, renameSync, rm } from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { changedError } from "../patch/problems.ts";
import { type Confinement, sameIdentity, type Target } from "./_confine.ts";
import { readWhole, sameBytes } from "./_io.ts";
import { type Journal, writeJournal } from "./_journal.ts";
import type { Pin, RootRef } from "./_pin.ts";
import { undoOne } from "./_recover.ts";
import {
  identityAt,
  pinTargetFolder,
  randomId,
  removeQuietly,
  sideName,
  stage,
  type Staged,
  type StageEntry,
} from "./_stage.ts";

export type { StageEntry } from "./_stage.ts";

/**
 * Test seams of a commit: `afterStep` runs after each step with the
 * commit's target paths (tests change files mid-commit, or freeze commits
 * before a kill). Passed in through the workspace's options, never global.
 */
export interface CommitHooks {
  /** Runs after each step named by {@link commitSteps}. */
  afterStep?: (
    name: string,
    targets: readonly string[],
  ) => void | Promise<void>;
}

/**
 * Names of the steps of a commit of several files (existing marks the files
 * that already exist), in order; a one-file commit has the steps
 * `temp-0`, `staged`, `checked`, `rename-0`, `done`.
 */
export function commitSteps(existing: boolean[]): string[] {
  if (existing.length === 1) {
    return ["temp-0", "staged", "checked", "rename-0", "done"];
  }
  const steps = ["journal-staging"];
  existing.forEach((_, i) => steps.push(`temp-${i}`));
  steps.push("staged", "checked");
  existing.forEach((e, i) => e && steps.push(`backup-${i}`));
  steps.push("journal-committing");
  existing.forEach((_, i) => steps.push(`rename-${i}`));
  steps.push("renamed", "cleaned", "done");
  return steps;
}

/** Whether the file, read through `pin`, still holds exactly `bytes`. */
async function stillHolds(
  target: Target,
  bytes: Uint8Array,
  pin: Pin,
): Promise<boolean> {
  try {
    return sameBytes((await readWhole(target, pin)).bytes, bytes);
  } catch {
    return false;
  }
}

/** The last check before a rename: the folder is still inside the root and the target is the version validated. */
async function recheck(s: Staged): Promise<void> {
  checkIdentity(s);
  if (s.entry.old && !(await stillHolds(s.entry.target, s.entry.old, s.pin))) {
    throw changedError(s.entry.target.display);
  }
  checkIdentity(s);
}

function checkIdentity(s: Staged): void {
  const { target } = s.entry;
  if (!s.pin.stillInside()) {
    throw changedError(target.display);
  }
  const now = identityAt(s.pin, s.name);
  if (target.exists) {
    if (!now || !sameIdentity(now, s.expect ?? target.stat!)) {
      throw changedError(target.display);
    }
  } else if (now) {
    throw changedError(target.display);
  }
}

/** Puts the staged file in place; a new file never replaces one that appeared meanwhile. */
function install(s: Staged): void {
  if (s.entry.target.exists) {
    renameSync(s.pin.path(s.temp), s.pin.path(s.name));
    return;
  }
  try {
    linkSync(s.pin.path(s.temp), s.pin.path(s.name));
  } catch (error) {
    if (errnoOf(error) === "EEXIST") {
      throw changedError(s.entry.target.display);
    }
    throw error;
  }
  removeQuietly(s.pin, s.temp);
}

/**
 * Writes every entry's new content to its target, all or none. The caller
 * holds the files' locks.
 *
 * @param stateDir The state folder (the journal of a multi-file commit goes in `journal/`).
 * @param confinement The root the targets lie under.
 * @param entries The files.
 * @param hooks Test seams run after each step.
 * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
 */
export async function commitFiles(
  stateDir: string,
  confinement: Confinement,
  entries: StageEntry[],
  hooks: CommitHooks = {},
): Promise<void> {
  const root = confinement.rootRef;
  const id = randomId();
  const pid = processId();
  const targets = entries.map((e) => e.target.real);
  const step = async (name: string): Promise<void> => {
    await hooks.afterStep?.(name, targets);
  };
  const staged: Staged[] = [];
  try {
    for (const entry of entries) {
      const name = basename(entry.target.real);
      staged.push({
        entry,
        pin: pinTargetFolder(root, entry.target),
        name,
        temp: sideName(name, pid, id, entries.length === 1 ? "one" : "new"),
        backup: entry.target.exists ? sideName(name, pid, id, "old") : null,
      });
    }
    if (staged.length === 1) await commitOne(staged[0], step);
    else await commitMany(stateDir, root, id, staged, step);
  } finally {
    for (const s of staged) s.pin.close();
  }
}

async function commitOne(
  s: Staged,
  step: (name: string) => Promise<void>,
): Promise<void> {
  await stage(s);
  await step("temp-0");
  try {
    await step("staged");
    await recheck(s);
    await step("checked");
    install(s);
  } catch (error) {
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${s.entry.target.display}"`);
  }
  await step("rename-0");
  s.pin.sync(fsyncSync);
  await step("done");
}

async function commitMany(
  stateDir: string,
  root: RootRef,
  id: string,
  staged: Staged[],
  step: (name: string) => Promise<void>,
): Promise<void> {
  const jdir = join(stateDir, "journal");
  await mkdir(jdir, { recursive: true });
  const jfile = join(jdir, `${Date.now()}-${id}.json`);
  const journal: Journal = {
    version: 2,
    id,
    pid: processId(),
    root: root.real,
    state: "staging",
    entries: staged.map((s) => ({
      target: s.entry.target.real,
      temp: s.temp,
      backup: s.backup,
      existed: s.entry.target.exists,
      old: s.entry.target.stat
        ? {
          dev: s.entry.target.stat.dev,
          ino: s.entry.target.stat.ino,
          size: s.entry.target.stat.size,
          mtimeMs: s.entry.target.stat.mtimeMs,
        }
        : null,
      newIno: null,
    })),
  };
  const cleanSides = () => {
    for (const s of staged) {
      removeQuietly(s.pin, s.temp);
      removeQuietly(s.pin, s.backup);
    }
  };
  await writeJournal(jfile, journal);
  await step("journal-staging");
  try {
    for (let i = 0; i < staged.length; i++) {
      journal.entries[i].newIno = await stage(staged[i]);
      await step(`temp-${i}`);
    }
    await step("staged");
    for (const s of staged) await recheck(s);
    await step("checked");
    for (let i = 0; i < staged.length; i++) {
      const s = staged[i];
      if (!s.backup) continue;
      linkSync(s.pin.path(s.name), s.pin.path(s.backup));
      const now = identityAt(s.pin, s.name);
      const was = s.entry.target.stat!;
      if (
        !now || now.ino !== was.ino || now.size !== was.size ||
        now.mtimeMs !== was.mtimeMs
      ) {
        throw changedError(s.entry.target.display);
      }
      s.expect = now;
      await step(`backup-${i}`);
    }
    journal.state = "committing";
    await writeJournal(jfile, journal);
    await step("journal-committing");
  } catch (error) {
    cleanSides();
    await rm(jfile, { force: true });
    throw mapFsError(error, `Cannot write "${staged[0].entry.target.display}"`);
  }
  try {
    for (let i = 0; i < staged.length; i++) {
      checkIdentity(staged[i]);
      install(staged[i]);
      await step(`rename-${i}`);
    }
  } catch (error) {
    journal.state = "rolling-back";
    await writeJournal(jfile, journal);
    await step("journal-rolling-back");
    for (let i = 0; i < staged.length; i++) {
      undoOne(staged[i].pin, journal.entries[i]);
    }
    cleanSides();
    await rm(jfile, { force: true });
    throw mapFsError(error, `Cannot write "${staged[0].entry.target.display}"`);
  }
  await step("renamed");
  for (const s of staged) s.pin.sync(fsyncSync);
  for (const s of staged) removeQuietly(s.pin, s.backup);
  await step("cleaned");
  await rm(jfile, { force: true });
  await step("done");
}
