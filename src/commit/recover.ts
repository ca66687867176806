/**
 * Recovery (docs/workspace.md "Journal"): finishing or undoing the
 * multi-file commits that a dead process left half done, acting only on
 * journals of this workspace's state folder and root, on entries under that
 * root, through folders reached without symlinks.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFile,
  readSync,
  rename,
  renameSync,
  rm,
  unlinkSync,
} from "../_runtime/fs.ts";
import { processAlive, processId } from "../_runtime/process.ts";
import { sha256Hex } from "../_internal/sha256.ts";
import { errnoOf } from "../_internal/errno.ts";
import { localId, tempOwnerGone } from "../lock/holder.ts";
import { type JournalEntry, parseJournal } from "./journal.ts";
import type { GoneWriter, LoggedCommit } from "./types.ts";
import { inside } from "../fs/paths.ts";
import { partsUnder, type Pin, pinFolder, type RootRef } from "../fs/pin.ts";
import { identityAt, removeEmptyFolders, removeQuietly } from "./stage.ts";
import { pushAll } from "../_internal/arrays.ts";

/** Puts a backup back over a target that still holds this commit's new content. */
export function undoOne(pin: Pin, e: JournalEntry): void {
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

/** Whether a journal entry's change stands on disk (the target is its new file, or gone for a removal). */
function landed(pin: Pin, e: JournalEntry): boolean {
  const now = identityAt(pin, basename(e.target));
  if (e.remove) return now === null;
  return now !== null && e.newIno !== null && now.ino === e.newIno;
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
  const emptied: string[] = [];
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
    ) && [...journal.dirs ?? [], ...journal.tidy ?? []].every((d) =>
      inside(d, root.real) && d !== root.real
    );
    if (!inRoot) {
      const aside = `${file}.malformed`;
      await rename(file, aside).catch(() => {});
      report.malformed.push(`${aside}: an entry lies outside the root`);
      continue;
    }
    let release: () => void;
    try {
      release = await lock(journal.entries.map((e) =>
        e.target
      ));
    } catch {
      // A folder of an entry was replaced or a writer holds a lock: settled on a later write.
      pushAll(report.skipped, journal.entries.map((e) => e.target));
      continue;
    }
    try {
      // Another process may have settled it while this one waited for the locks.
      const again = await readFile(file).catch(() => null);
      if (again === null) continue;
      let allLanded = true;
      // Undone last entry first: a name a removal freed is given back only
      // after the file that claimed it (a case-only rename) is gone.
      const order = journal.state === "rolling-back"
        ? [...journal.entries].reverse()
        : journal.entries;
      for (const e of order) {
        let pin: Pin;
        try {
          pin = pinFolder(root, partsUnder(root, dirname(e.target)));
        } catch (error) {
          // A folder the commit had not made yet holds nothing of it to undo.
          if (journal.state !== "committing" && errnoOf(error) === "ENOENT") {
            continue;
          }
          report.skipped.push(e.target);
          allLanded = false;
          continue;
        }
        try {
          if (journal.state === "committing") {
            if (!forwardOne(pin, e)) report.skipped.push(e.target);
            // The history entry is appended only where the change stands.
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
      if (journal.state !== "committing" && journal.dirs) {
        pushAll(emptied, journal.dirs);
      }
      // A commit that landed empties the folders it names to tidy, as its
      // writer would have once it let go of its locks.
      if (journal.state === "committing" && allLanded && journal.tidy) {
        emptied.push(...journal.tidy);
      }
      if (journal.state === "committing") report.rolledForward++;
      else report.rolledBack++;
      await rm(file, { force: true });
    } finally {
      release();
      // Once the locks, which may lie in them, are gone.
      if (emptied.length > 0) removeEmptyFolders(root, emptied.splice(0));
    }
  }
  return report;
}

/** The largest file a commit is finished from its record's digests (the writer stages larger ones otherwise). */
const FINISH_MAX_BYTES = 4 * 1024 * 1024;

/** SHA-256 (hex) of a regular file in a pinned folder, without following a symlink; null when missing, not a regular file or too large. */
async function digestAt(pin: Pin, name: string): Promise<string | null> {
  let fd: number;
  try {
    fd = openSync(
      pin.path(name),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > FINISH_MAX_BYTES) return null;
    const bytes = new Uint8Array(st.size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) return null;
      got += n;
    }
    // Grown since the status: not the content named.
    if (readSync(fd, new Uint8Array(1), 0, 1, got) !== 0) return null;
    return await sha256Hex(bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Finishes a logged commit whose rename a restart may have lost: only
 * while its temporary holds exactly the content staged and the target
 * exactly the content replaced (or is absent, for a file the commit made);
 * then the temporary is renamed (or linked, for a new file) into place and
 * the folder flushed. False when it is not finished.
 */
async function finishLogged(
  pin: Pin,
  c: LoggedCommit,
  name: string,
): Promise<boolean> {
  if (c.after === undefined || c.before === undefined) return false;
  if (await digestAt(pin, c.temp) !== c.after) return false;
  if (c.before === null) {
    if (identityAt(pin, name) !== null) return false;
    try {
      linkSync(pin.path(c.temp), pin.path(name));
    } catch {
      return false;
    }
    removeQuietly(pin, c.temp);
  } else {
    if (await digestAt(pin, name) !== c.before) return false;
    renameSync(pin.path(c.temp), pin.path(name));
  }
  pin.sync(fsyncSync);
  return true;
}

/**
 * Settles the one-file commits of dead writers whose entry is their
 * journal: a commit whose temporary is still beside its target never
 * renamed it (the rename consumes the temporary), so its entry is voided
 * and the temporary removed, under the target's lock. Whether the
 * temporary is there is judged before the lock is taken (taking it sweeps
 * a dead writer's temporaries).
 *
 * A writer that ran before a restart of this host may have answered for a
 * commit whose rename the restart lost: such a commit's record names the
 * digests of the content it staged and of the content it replaced, and its
 * temporary was flushed with its folder before the rename. It is finished
 * instead, oldest first, while the temporary still holds exactly what was
 * staged and the target exactly what the commit replaced (or is still
 * absent, for a file it made); otherwise it is voided as above.
 *
 * @param root The root the targets must lie under.
 * @param gone The dead writers.
 * @param lock Takes the locks of targets while they are settled.
 * @param voidEntry Voids an entry in the log.
 * @returns How many entries were voided and finished, and the targets left alone.
 */
export async function recoverLogged(
  root: RootRef,
  gone: GoneWriter[],
  lock: (targets: string[]) => Promise<() => void>,
  voidEntry: (id: string) => Promise<void>,
): Promise<{ voided: number; finished: number; skipped: string[] }> {
  const out = { voided: 0, finished: 0, skipped: [] as string[] };
  for (const writer of gone) {
    const cut: LoggedCommit[] = [];
    let foreign = false;
    for (const c of writer.pending()) {
      if (!inside(c.target, root.real) || c.target === root.real) {
        foreign = true;
        continue;
      }
      let pin: Pin;
      try {
        pin = pinFolder(root, partsUnder(root, dirname(c.target)));
      } catch {
        continue;
      }
      try {
        if (identityAt(pin, c.temp)) cut.push(c);
      } finally {
        pin.close();
      }
    }
    if (cut.length > 0) {
      let release: () => void;
      try {
        release = await lock(cut.map((c) => c.target));
      } catch {
        pushAll(out.skipped, cut.map((c) => c.target));
        continue;
      }
      try {
        for (const c of cut) {
          const pin = pinFolder(root, partsUnder(root, dirname(c.target)));
          try {
            const now = identityAt(pin, basename(c.target));
            const staged = identityAt(pin, c.temp);
            // A new file is linked into place before its temporary goes.
            const landed = now !== null &&
              (now.ino === c.newIno || now.ino === staged?.ino);
            if (
              !landed && staged !== null && writer.rebooted &&
              await finishLogged(pin, c, basename(c.target))
            ) {
              out.finished++;
              continue;
            }
            // A writer provably dead renamed nothing since the temporary was
            // seen (taking its lock may have swept it); one judged by its
            // lease alone may have, while the lock was awaited.
            if (!landed && (writer.dead || staged !== null)) {
              await voidEntry(c.id);
              out.voided++;
            }
            removeQuietly(pin, c.temp);
            pin.sync(fsyncSync);
          } finally {
            pin.close();
          }
        }
      } finally {
        release();
      }
    }
    // A writer sharing this state folder from another root is settled there.
    if (!foreign) writer.forget();
  }
  return out;
}
