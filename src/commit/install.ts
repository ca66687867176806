/**
 * The last steps of a commit for one file (docs/workspace.md "Writing"):
 * the check right before the rename that the target is still the version
 * validated, the backup link, and the rename (or, for an undo of a
 * creation, the removal) itself.
 *
 * @module
 */
import {
  closeLater,
  constants,
  linkSync,
  openSync,
  renameSync,
  unlinkSync,
} from "../_runtime/fs.ts";
import { errnoOf } from "../_internal/errno.ts";
import { changedError } from "../errors.ts";
import { sameIdentity } from "../fs/confine.ts";
import type { JournalEntry } from "./journal.ts";
import type { Pin } from "../fs/pin.ts";
import { identityAt, removeQuietly, type Side, type Staged } from "./stage.ts";
import { stillHolds } from "./_still_holds.ts";

/**
 * A read handle on a file about to be replaced, held across the rename so
 * that freeing its inode and blocks (a tenth of a millisecond on ext4)
 * happens at the handle's close instead of inside the rename; null when
 * it cannot be opened (no symlink is followed, no FIFO blocks).
 */
function holdOpen(pin: Pin, name: string): number | null {
  try {
    return openSync(
      pin.path(name),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return null;
  }
}

/**
 * The last check before a rename: the folder is still inside the root and
 * the target is the version validated (its bytes too, when the commit
 * holds them). Synchronous, as the whole-file read it replaces was.
 */
export function recheck(s: Staged): void {
  checkIdentity(s);
  if (s.entry.old && !stillHolds(s.entry.target, s.entry.old, s.pin)) {
    throw changedError(s.entry.target.display);
  }
  checkIdentity(s);
}

/** Whether the target is still the version the commit expects (and its folder inside the root). */
export function checkIdentity(s: Staged): void {
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

/** Links the backup of a target and checks the target is still the version validated. */
export function linkBackup(s: Staged): void {
  if (!s.backup) return;
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
}

/**
 * Puts the staged file in place; a new file never replaces one that
 * appeared meanwhile. An entry that removes its target unlinks it.
 */
export function install(s: Staged): void {
  if (s.entry.remove) {
    unlinkSync(s.pin.path(s.name));
    return;
  }
  if (s.entry.target.exists) {
    const held = holdOpen(s.pin, s.name);
    try {
      renameSync(s.pin.path(s.temp), s.pin.path(s.name));
    } finally {
      // The replaced file is freed when its last handle closes: after the
      // answer (`closeLater`), not inside the rename before it.
      if (held !== null) closeLater(held);
    }
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

/** The journal's entry for one staged file. */
export function journalEntry(s: Side, newIno: number | null): JournalEntry {
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
