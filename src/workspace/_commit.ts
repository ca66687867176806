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
import { basename, dirname, join } from "node:path";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdir,
  mkdirSync,
  open,
  openSync,
  readdirSync,
  readFile,
  rename,
  renameSync,
  rm,
  unlinkSync,
  writeSync,
} from "../_runtime/fs.ts";
import type { FileHandle } from "../_runtime/file_handle.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import { PatchRefusedError } from "../errors.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { cutUtf8 } from "../_internal/names.ts";
import { localId, tempId, tempOwnerGone } from "./_holder.ts";
import {
  type Confinement,
  type FileIdentity,
  identityOf,
  sameIdentity,
  type Target,
} from "./_confine.ts";
import { inside } from "./_paths.ts";
import { partsUnder, type Pin, pinFolder, type RootRef } from "./_pin.ts";

/** One file to commit. */
export interface StageEntry {
  /** The checked target (its `stat` is the version the new content was built from). */
  target: Target;
  /** Writes the whole new content to the open temporary file. */
  write(handle: FileHandle): Promise<void>;
  /**
   * The whole new content, when it is held in memory: then it is written
   * with synchronous calls, which for a file of that size cost far less
   * than the hand-offs of asynchronous ones.
   */
  bytes?: Uint8Array;
  /**
   * Whether the file on disk still holds exactly what was validated, checked
   * with the identity right before the rename (some runtimes report change
   * times in whole seconds, so identity alone can miss a quick rewrite).
   * It reads the file through `pin`, the folder the rename goes through.
   */
  verify?(pin: Pin): Promise<boolean>;
  // history: begin
  /** Remove the target instead of writing it (an undo of a creation); `write` is not called. */
  remove?: boolean;
  // history: end
}

// history: begin
/**
 * A history entry committed with the files: its record rides in the
 * journal, is appended after the last rename (a failure rolls the files
 * back), and a recovery that finishes the commit appends it unless the log
 * already holds it.
 */
export interface CommitRecord {
  /** The entry, as the journal keeps it (JSON). */
  record: unknown;
  /** Appends it to the log. */
  append(record: unknown): Promise<void>;
}
// history: end

type JournalState = "staging" | "committing" | "rolling-back";

interface JournalEntry {
  /** Real path of the target. */
  target: string;
  /** Base names of the temporary and backup files, in the target's folder. */
  temp: string;
  backup: string | null;
  existed: boolean;
  /** The version of the target the commit replaces. */
  old: { dev: number; ino: number; size: number; mtimeMs: number } | null;
  /** Inode of the staged new content (known once staged). */
  newIno: number | null;
  /** The commit removes the target (history: undo of a creation). */
  remove?: boolean;
}

interface Journal {
  version: 2;
  id: string;
  pid: number;
  root: string;
  state: JournalState;
  entries: JournalEntry[];
  /** The history entry committed with the files (history). */
  history?: unknown;
}

/**
 * Names of the steps of a commit of several files (existing marks the files
 * that already exist), in order; a one-file commit has the steps
 * `temp-0`, `staged`, `checked`, `rename-0`, `done`.
 */
export function commitSteps(existing: boolean[], history = false): string[] {
  if (existing.length === 1 && !history) {
    return ["temp-0", "staged", "checked", "rename-0", "done"];
  }
  if (existing.length === 1) {
    return [
      "temp-0",
      "staged",
      "checked",
      "journal-committing",
      ...(existing[0] ? ["backup-0"] : []),
      "rename-0",
      "history",
      "cleaned",
      "done",
    ];
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
 * Test seam: runs after each step of a commit with the commit's target
 * paths (tests change files mid-commit, or freeze commits before a kill).
 */
export const commitHooks: {
  afterStep?: (
    name: string,
    targets: readonly string[],
  ) => void | Promise<void>;
} = {};

function randomId(): string {
  // Names this host boot and PID namespace, so orphan cleanup never takes
  // a live writer's temporary in another container for a dead one's.
  return tempId();
}

/**
 * The side file's name: `.NAME.PID-ID.hashline-KIND.tmp`, where KIND is
 * `new`/`old` for a journaled commit's temporary and backup, and `one` for
 * a one-file commit's temporary (which no journal names, so the next writer
 * of the file may remove it once its process is dead).
 */
export function sideName(
  base: string,
  pid: number,
  id: string,
  kind: "new" | "old" | "one",
): string {
  return `.${cutUtf8(base, 96)}.${pid}-${id}.hashline-${kind}.tmp`;
}

const SIDE =
  /^\.([^/\\]{1,96})\.(\d+)-([0-9a-f]{16})\.hashline-(new|old|one)\.tmp$/;

function changed(display: string, why: string): PatchRefusedError {
  return new PatchRefusedError([{
    code: "CHANGED",
    path: display,
    message:
      `${why}, so it was not overwritten and nothing was written. Read it again and resend.`,
  }]);
}

/** Pins a target's folder, creating missing folders one at a time through their parents. */
function pinTargetFolder(root: RootRef, target: Target): Pin {
  const parts = partsUnder(root, target.dir);
  const have = parts.length - target.missing.length;
  for (let i = have; i < parts.length; i++) {
    const parent = pinFolder(root, parts.slice(0, i));
    try {
      mkdirSync(parent.path(parts[i]));
    } catch (error) {
      if (errnoOf(error) !== "EEXIST") throw error;
    } finally {
      parent.close();
    }
  }
  try {
    return pinFolder(root, parts);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT") {
      throw changed(
        target.display,
        "a folder on its path was replaced (by a symlink or a file) while the patch was being applied",
      );
    }
    throw error;
  }
}

function identityAt(pin: Pin, name: string): FileIdentity | null {
  try {
    const st = lstatSync(pin.path(name));
    return st.isFile() ? identityOf(st) : { ...identityOf(st), ino: -1 };
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}

function removeQuietly(pin: Pin, name: string | null): void {
  if (!name) return;
  try {
    unlinkSync(pin.path(name));
  } catch {
    // Already gone.
  }
}

interface Staged {
  entry: StageEntry;
  pin: Pin;
  name: string;
  temp: string;
  backup: string | null;
  /** The version of the target the last check expects (a backup link changes its ctime). */
  expect?: FileIdentity;
}

/** Writes the temporary file of one entry and flushes it. */
async function stage(s: Staged): Promise<number> {
  if (s.entry.bytes) return stageBytes(s, s.entry.bytes);
  const { target } = s.entry;
  let h: FileHandle;
  try {
    h = await open(
      s.pin.path(s.temp),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL |
        constants.O_NOFOLLOW,
      target.exists ? 0o600 : 0o666,
    );
  } catch (error) {
    throw mapFsError(error, `Cannot write "${target.display}"`);
  }
  try {
    await s.entry.write(h);
    if (target.stat) {
      await h.chmod(target.stat.mode);
      if (target.stat.uid !== undefined) {
        await h.chown(target.stat.uid, target.stat.gid!).catch(() => {});
      }
    }
    await h.sync();
    return (await h.stat()).ino;
  } catch (error) {
    await h.close().catch(() => {});
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${target.display}"`);
  } finally {
    await h.close().catch(() => {});
  }
}

function stageBytes(s: Staged, bytes: Uint8Array): number {
  const { target } = s.entry;
  let fd: number;
  try {
    fd = openSync(
      s.pin.path(s.temp),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL |
        constants.O_NOFOLLOW,
      target.exists ? 0o600 : 0o666,
    );
  } catch (error) {
    throw mapFsError(error, `Cannot write "${target.display}"`);
  }
  try {
    let at = 0;
    while (at < bytes.length) {
      at += writeSync(fd, bytes, at, bytes.length - at);
    }
    const st = fstatSync(fd);
    if (target.stat) {
      fchmodSync(fd, target.stat.mode);
      // The temporary is already owned as the file was (the usual case): no call needed.
      if (
        target.stat.uid !== undefined &&
        (st.uid !== target.stat.uid || st.gid !== target.stat.gid)
      ) {
        try {
          fchownSync(fd, target.stat.uid, target.stat.gid!);
        } catch {
          // Only a privileged process may give a file away; the mode is kept all the same.
        }
      }
    }
    fsyncSync(fd);
    return st.ino;
  } catch (error) {
    closeSync(fd);
    fd = -1;
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${target.display}"`);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** The last check before a rename: the folder is still inside the root and the target is the version validated. */
async function recheck(s: Staged): Promise<void> {
  checkIdentity(s);
  if (s.entry.verify && !(await s.entry.verify(s.pin))) {
    throw changed(
      s.entry.target.display,
      "the file changed on disk while the patch was being applied",
    );
  }
  checkIdentity(s);
}

function checkIdentity(s: Staged): void {
  const { target } = s.entry;
  if (!s.pin.stillInside()) {
    throw changed(
      target.display,
      "its folder was moved while the patch was being applied",
    );
  }
  const now = identityAt(s.pin, s.name);
  if (target.exists) {
    if (!now || !sameIdentity(now, s.expect ?? target.stat!)) {
      throw changed(
        target.display,
        "the file changed on disk while the patch was being applied",
      );
    }
  } else if (now) {
    throw changed(
      target.display,
      "a file appeared at that path while the patch was being applied",
    );
  }
}

/** Puts the staged file in place; a new file never replaces one that appeared meanwhile. */
function install(s: Staged): void {
  if (s.entry.remove) {
    unlinkSync(s.pin.path(s.name));
    return;
  }
  if (s.entry.target.exists) {
    renameSync(s.pin.path(s.temp), s.pin.path(s.name));
    return;
  }
  try {
    linkSync(s.pin.path(s.temp), s.pin.path(s.name));
  } catch (error) {
    if (errnoOf(error) === "EEXIST") {
      throw changed(
        s.entry.target.display,
        "a file appeared at that path while the patch was being applied",
      );
    }
    throw error;
  }
  removeQuietly(s.pin, s.temp);
}

async function writeJournal(file: string, journal: Journal): Promise<void> {
  const tmp = `${file}.${journal.pid}.tmp`;
  try {
    const h = await open(tmp, "w");
    try {
      await h.writeFile(JSON.stringify(journal));
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
  syncPath(dirname(file));
}

function syncPath(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open or flush a folder; the rename is still atomic.
  }
}

/**
 * Writes every entry's new content to its target, all or none. The caller
 * holds the files' locks.
 *
 * @param stateDir The state folder (the journal of a multi-file commit goes in `journal/`).
 * @param confinement The root the targets lie under.
 * @param entries The files.
 * @param history The history entry to commit with them (always journaled).
 * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
 */
export async function commitFiles(
  stateDir: string,
  confinement: Confinement,
  entries: StageEntry[],
  history?: CommitRecord,
): Promise<void> {
  const root = confinement.rootRef;
  const id = randomId();
  const pid = processId();
  const targets = entries.map((e) => e.target.real);
  const step = async (name: string): Promise<void> => {
    await commitHooks.afterStep?.(name, targets);
  };
  const staged: Staged[] = [];
  try {
    for (const entry of entries) {
      const name = basename(entry.target.real);
      staged.push({
        entry,
        pin: pinTargetFolder(root, entry.target),
        name,
        temp: sideName(
          name,
          pid,
          id,
          entries.length === 1 ? "one" : "new",
        ),
        backup: entry.target.exists ? sideName(name, pid, id, "old") : null,
      });
    }
    if (staged.length === 1 && !history) await commitOne(staged[0], step);
    else if (staged.length === 1) {
      await commitOneRecorded(stateDir, root, id, staged[0], step, history!);
    } else await commitMany(stateDir, root, id, staged, step, history);
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

// history: begin
function journalEntry(s: Staged, newIno: number | null): JournalEntry {
  const st = s.entry.target.stat;
  return {
    target: s.entry.target.real,
    temp: s.temp,
    backup: s.backup,
    existed: s.entry.target.exists,
    old: st
      ? { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs }
      : null,
    newIno,
    ...(s.entry.remove ? { remove: true } : {}),
  };
}

/** Links the backup of a target and checks the target is still the version validated. */
function linkBackup(s: Staged): void {
  if (!s.backup) return;
  linkSync(s.pin.path(s.name), s.pin.path(s.backup));
  const now = identityAt(s.pin, s.name);
  const was = s.entry.target.stat!;
  if (
    !now || now.ino !== was.ino || now.size !== was.size ||
    now.mtimeMs !== was.mtimeMs
  ) {
    throw changed(
      s.entry.target.display,
      "the file changed on disk while the patch was being applied",
    );
  }
  s.expect = now;
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
  try {
    if (!s.entry.remove) newIno = await stage(s);
    await step("temp-0");
    await step("staged");
    await recheck(s);
    await step("checked");
  } catch (error) {
    removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  const jdir = join(stateDir, "journal");
  const jfile = join(jdir, `${Date.now()}-${id}.json`);
  const journal: Journal = {
    version: 2,
    id,
    pid: processId(),
    root: root.real,
    state: "committing",
    entries: [journalEntry(s, newIno)],
    history: history.record,
  };
  try {
    await mkdir(jdir, { recursive: true });
    await writeJournal(jfile, journal);
  } catch (error) {
    removeQuietly(s.pin, s.temp);
    await rm(jfile, { force: true }).catch(() => {});
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  await step("journal-committing");
  try {
    if (s.backup) {
      linkBackup(s);
      await step("backup-0");
    }
    checkIdentity(s);
    install(s);
    await step("rename-0");
    await history.append(history.record);
    await step("history");
  } catch (error) {
    journal.state = "rolling-back";
    await writeJournal(jfile, journal);
    await step("journal-rolling-back");
    undoOne(s.pin, journal.entries[0]);
    removeQuietly(s.pin, s.temp);
    removeQuietly(s.pin, s.backup);
    await rm(jfile, { force: true });
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  s.pin.sync(fsyncSync);
  removeQuietly(s.pin, s.backup);
  await step("cleaned");
  await rm(jfile, { force: true });
  await step("done");
}

/** Whether a journal entry's change stands on disk (the target is its new file, or gone for a removal). */
function landed(pin: Pin, e: JournalEntry): boolean {
  const now = identityAt(pin, basename(e.target));
  if (e.remove) return now === null;
  return now !== null && e.newIno !== null && now.ino === e.newIno;
}
// history: end

async function commitMany(
  stateDir: string,
  root: RootRef,
  id: string,
  staged: Staged[],
  step: (name: string) => Promise<void>,
  history?: CommitRecord,
): Promise<void> {
  const jdir = join(stateDir, "journal");
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
      ...(s.entry.remove ? { remove: true } : {}),
    })),
    ...(history ? { history: history.record } : {}),
  };
  const cleanSides = () => {
    for (const s of staged) {
      removeQuietly(s.pin, s.temp);
      removeQuietly(s.pin, s.backup);
    }
  };
  try {
    await mkdir(jdir, { recursive: true });
    await writeJournal(jfile, journal);
  } catch (error) {
    throw mapFsError(
      error,
      `Cannot write "${staged[0].entry.target.display}" (its commit journal)`,
    );
  }
  await step("journal-staging");
  try {
    for (let i = 0; i < staged.length; i++) {
      if (!staged[i].entry.remove) {
        journal.entries[i].newIno = await stage(staged[i]);
      }
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
        throw changed(
          s.entry.target.display,
          "the file changed on disk while the patch was being applied",
        );
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
    if (history) {
      await history.append(history.record);
      await step("history");
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

/** Puts a backup back over a target that still holds this commit's new content. */
function undoOne(pin: Pin, e: JournalEntry): void {
  const name = basename(e.target);
  const now = identityAt(pin, name);
  if (e.remove) {
    if (!now && e.backup && identityAt(pin, e.backup)) {
      renameSync(pin.path(e.backup), pin.path(name));
    }
    return;
  }
  if (!now || e.newIno === null || now.ino !== e.newIno) return;
  if (e.existed) {
    if (e.backup && identityAt(pin, e.backup)) {
      renameSync(pin.path(e.backup), pin.path(name));
    }
  } else {
    unlinkSync(pin.path(name));
  }
}

/** Finishes a rename a crash cut short, only over the version the commit saw. */
function forwardOne(pin: Pin, e: JournalEntry): boolean {
  const name = basename(e.target);
  if (e.remove) {
    const now = identityAt(pin, name);
    const old = e.old;
    if (!now) return true;
    if (
      old && now.dev === old.dev && now.ino === old.ino &&
      now.size === old.size && now.mtimeMs === old.mtimeMs
    ) {
      unlinkSync(pin.path(name));
      return true;
    }
    return false;
  }
  const temp = identityAt(pin, e.temp);
  if (!temp) return true;
  const now = identityAt(pin, name);
  if (e.existed) {
    const old = e.old;
    if (
      now && old && now.dev === old.dev && now.ino === old.ino &&
      now.size === old.size && now.mtimeMs === old.mtimeMs
    ) {
      renameSync(pin.path(e.temp), pin.path(name));
      return true;
    }
  } else if (!now) {
    linkSync(pin.path(e.temp), pin.path(name));
    unlinkSync(pin.path(e.temp));
    return true;
  }
  unlinkSync(pin.path(e.temp));
  return false;
}

/** What {@link recoverJournals} did. */
export interface RecoveryReport {
  /** Commits finished from a complete journal. */
  rolledForward: number;
  /** Commits undone (cut short before every temporary file was ready). */
  rolledBack: number;
  /** Journals that could not be read or did not belong to this root, each set aside (`NAME.malformed`) with why. */
  malformed: string[];
  /** Files a roll-forward left alone because someone else had changed them since. */
  skipped: string[];
}

function parseJournal(raw: string): Journal | string {
  let j: Journal;
  try {
    j = JSON.parse(raw);
  } catch {
    return "it is not valid JSON (cut short?)";
  }
  if (j === null || typeof j !== "object") return "it is not an object";
  if (j.version !== 2) return `unknown version ${String(j.version)}`;
  if (
    typeof j.id !== "string" || !/^[0-9a-f]{16}$/.test(j.id) ||
    !Number.isSafeInteger(j.pid) || typeof j.root !== "string" ||
    !["staging", "committing", "rolling-back"].includes(j.state) ||
    !Array.isArray(j.entries)
  ) {
    return "a field is missing or malformed";
  }
  for (const e of j.entries) {
    if (
      e === null || typeof e !== "object" || typeof e.target !== "string" ||
      typeof e.temp !== "string" || typeof e.existed !== "boolean" ||
      (e.backup !== null && typeof e.backup !== "string")
    ) {
      return "an entry is malformed";
    }
    const base = basename(e.target).slice(0, 96);
    for (const side of [e.temp, e.backup]) {
      if (side === null) continue;
      const m = SIDE.exec(side);
      if (
        !m || m[1] !== base || Number(m[2]) !== j.pid || m[3] !== j.id
      ) {
        return `an entry names a file that is not one of this commit's own (${side})`;
      }
    }
  }
  return j;
}

/**
 * Finishes or undoes every multi-file commit whose process died mid-way
 * (commits of live processes are left alone). Only journals of this
 * workspace's own state folder and root are acted on; a malformed one is
 * reported and set aside.
 *
 * @param stateDir The state folder holding `journal/`.
 * @param root The root the journals must belong to.
 * @param lock Takes the locks of a journal's targets while it is settled.
 * @param appendHistory Appends a finished commit's history entry unless the log holds it.
 */
export async function recoverJournals(
  stateDir: string,
  root: RootRef,
  lock: (targets: string[]) => Promise<() => void>,
  appendHistory?: (record: unknown) => Promise<void>,
): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    rolledForward: 0,
    rolledBack: 0,
    malformed: [],
    skipped: [],
  };
  const dir = join(stateDir, "journal");
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    // This runs before every write: an empty folder is listed far faster
    // than a missing one is reported (a thrown error each time), so the
    // folder is made once the state folder exists.
    if (errnoOf(error) === "ENOENT") {
      try {
        mkdirSync(dir);
      } catch {
        // No state folder yet, or one that cannot be written: nothing to recover.
      }
    }
    return report;
  }
  const me = processId();
  for (const name of names.sort()) {
    const file = join(dir, name);
    if (name.endsWith(".tmp")) {
      const owner = Number(name.split(".").at(-2));
      const id = /^\d+-([0-9a-f]{16})\.json\./.exec(name)?.[1] ?? "";
      if (tempOwnerGone(owner, id)) await rm(file, { force: true });
      continue;
    }
    if (!name.endsWith(".json")) continue;
    let raw: string;
    try {
      raw = new TextDecoder().decode(await readFile(file));
    } catch {
      continue;
    }
    const journal = parseJournal(raw);
    if (typeof journal === "string") {
      const aside = `${file}.malformed`;
      await rename(file, aside).catch(() => {});
      report.malformed.push(`${aside}: ${journal}`);
      continue;
    }
    if (journal.root !== root.real) continue;
    // A pid means something only in this host boot and PID namespace; a
    // journal of another is settled only once its locks can be taken (its
    // writer holds them until the commit ends, or their lease runs out).
    if (
      localId(journal.id) && (journal.pid === me || processAlive(journal.pid))
    ) continue;
    const inRoot = journal.entries.every((e) =>
      inside(e.target, root.real) && e.target !== root.real
    );
    if (!inRoot) {
      const aside = `${file}.malformed`;
      await rename(file, aside).catch(() => {});
      report.malformed.push(`${aside}: an entry lies outside the root`);
      continue;
    }
    let release: () => void;
    try {
      release = await lock(journal.entries.map((e) => e.target));
    } catch {
      // A folder of an entry was replaced or a writer holds a lock: settled on a later write.
      report.skipped.push(...journal.entries.map((e) => e.target));
      continue;
    }
    try {
      // Another process may have settled it while this one waited for the locks.
      const again = await readFile(file).catch(() => null);
      if (again === null) continue;
      let allLanded = true; // history
      for (const e of journal.entries) {
        let pin: Pin;
        try {
          pin = pinFolder(root, partsUnder(root, dirname(e.target)));
        } catch {
          report.skipped.push(e.target);
          allLanded = false; // history
          continue;
        }
        try {
          if (journal.state === "committing") {
            if (!forwardOne(pin, e)) report.skipped.push(e.target);
            // history: the entry is appended only where the change stands.
            if (!landed(pin, e)) allLanded = false;
          } else if (journal.state === "rolling-back") undoOne(pin, e);
          removeQuietly(pin, e.temp);
          removeQuietly(pin, e.backup);
          pin.sync(fsyncSync);
        } finally {
          pin.close();
        }
      }
      if (
        journal.state === "committing" && journal.history !== undefined &&
        allLanded
      ) {
        await appendHistory?.(journal.history);
      }
      if (journal.state === "committing") report.rolledForward++;
      else report.rolledBack++;
      await rm(file, { force: true });
    } finally {
      release();
    }
  }
  return report;
}
