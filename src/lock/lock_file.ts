/**
 * The lock file itself (see `lock.ts`): its name beside the guarded file,
 * its exclusive creation holding the holder's line, reading who holds it,
 * and the take-over of a dead holder's lock, guarded by a breaker file, with
 * the one-file temporaries that holder left.
 *
 * @module
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
  writeAllSync,
} from "../_runtime/fs.ts";
import { errnoOf } from "../_internal/errno.ts";
import { cutUtf8, utf8Length } from "../_internal/names.ts";
import { lineHash32 } from "../hash/fnv.ts";
import {
  type Holder as Named,
  holderLine,
  LEASE_MS,
  parseHolder,
  provablyDead,
  tempOwnerGone,
} from "./holder.ts";

/**
 * A holder writes its process id right after creating its lock file, two
 * system calls apart; an empty lock (or breaker) this old was left by a
 * process killed between them.
 */
export const EMPTY_STALE_MS = 1_000;

/**
 * The lock file's name for a guarded path: long names are cut in UTF-8
 * bytes, on a character boundary, and keep a hash of the whole, so the
 * name with its breaker suffix stays within 255 bytes.
 */
export function lockName(rest: string): string {
  const safe = rest.replaceAll("%", "%25").replaceAll("/", "%2F");
  const cut = utf8Length(safe) > 120
    ? `${cutUtf8(safe, 96)}~${lineHash32(safe).toString(16)}`
    : safe;
  return `.${cut}.hashline-lock`;
}

/** A lock file as read: who holds it, and its inode and lease time. */
export interface Holder {
  /** Who holds it; null while the file is still empty (or unreadable). */
  named: Named | null;
  ino: number;
  mtimeMs: number;
}

/** Reads a lock (or breaker) file; null when there is none. */
export function readHolder(path: string): Holder | null {
  let fd: number;
  try {
    // Never waiting on a FIFO put in a lock's place.
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
  try {
    const st = fstatSync(fd);
    // Not a lock this code made: judged as one whose holder never wrote.
    if (!st.isFile()) return { named: null, ino: st.ino, mtimeMs: st.mtimeMs };
    const buf = new Uint8Array(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const named = parseHolder(new TextDecoder().decode(buf.subarray(0, n)));
    return { named, ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Removes the one-file temporaries that dead processes left beside the guarded file. */
function removeOrphans(folder: (name: string) => string, rest: string): void {
  if (rest.includes("/")) return;
  const temp = new RegExp(
    `^\\.${
      escape(cutUtf8(rest, 96))
    }\\.(\\d+)-([0-9a-f]{16})\\.hashline-one\\.tmp$`,
  );
  let names: string[];
  try {
    names = readdirSync(folder("."));
  } catch {
    return;
  }
  for (const name of names) {
    const m = temp.exec(name);
    if (!m) continue;
    // Only a provably dead writer's: never a live process's in another
    // PID namespace or on another machine, whose pid means nothing here.
    if (!tempOwnerGone(Number(m[1]), m[2])) continue;
    try {
      unlinkSync(folder(name));
    } catch {
      // Gone already.
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Creates `path` exclusively holding `text`; null when something is already
 * there. The handle is returned open (a lock keeps it to refresh its
 * lease). A file that could not be written whole (a full disk) is removed
 * again, so no empty lock is left for a later call to wait on.
 */
export function createExclusive(path: string, text: string): number | null {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL |
        constants.O_NOFOLLOW,
      0o600,
    );
  } catch (error) {
    if (errnoOf(error) === "EEXIST") return null;
    throw error;
  }
  try {
    const bytes = new TextEncoder().encode(text);
    writeAllSync(fd, bytes);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // Gone already.
    }
    throw error;
  }
  return fd;
}

/** Closes a handle, ignoring a failure. */
export function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/** Removes a breaker (`NAME.break`) that a process died holding; true when none is left. */
export function clearDeadBreaker(
  folder: (name: string) => string,
  breaker: string,
): boolean {
  // Almost always there is none: a look that throws nothing is far cheaper
  // than an open that fails (the holder is then read without following links).
  if (!existsSync(folder(breaker))) return true;
  const holder = readHolder(folder(breaker));
  if (holder === null) return true;
  const age = Date.now() - holder.mtimeMs;
  const dead = holder.named === null
    ? age > EMPTY_STALE_MS
    : provablyDead(holder.named) || age > LEASE_MS;
  if (!dead) return false;
  try {
    unlinkSync(folder(breaker));
  } catch {
    // Another process cleared it first.
  }
  return true;
}

/**
 * Removes a lock whose holder is dead. Breaking is itself guarded by a
 * breaker file of a fixed name (`NAME.break`), so two processes never both
 * judge and remove, and a breaker left by a process killed mid-way is found
 * and cleared by the next one to take or break the lock.
 */
export function takeOver(
  folder: (name: string) => string,
  name: string,
  holder: Holder,
  rest: string,
): void {
  const breaker = `${name}.break`;
  const fd = createExclusive(folder(breaker), holderLine("break"));
  if (fd === null) {
    clearDeadBreaker(folder, breaker);
    return;
  }
  closeQuietly(fd);
  try {
    const now = readHolder(folder(name));
    // Only the very lock that was judged dead is removed, never a fresh one.
    if (
      now !== null && now.ino === holder.ino &&
      now.named?.pid === holder.named?.pid
    ) {
      unlinkSync(folder(name));
      removeOrphans(folder, rest);
    }
  } finally {
    try {
      unlinkSync(folder(breaker));
    } catch {
      // Already gone.
    }
  }
}

/**
 * One attempt at a lock: its open handle when taken (a breaker a dead
 * taker left is cleared on the way), `"again"` when the holder was stale
 * and has just been broken (try again at once), or null when a live holder
 * stands (wait, then try again).
 *
 * @param folder The lock's folder, as a function of a name in it.
 * @param name The lock file's name.
 * @param token The holder line to write.
 * @param stale Whether a holder may be broken.
 * @param rest What the take-over may clean up (see {@link takeOver}).
 */
export function tryLock(
  folder: (name: string) => string,
  name: string,
  token: string,
  stale: (holder: Holder) => boolean,
  rest: string,
): number | "again" | null {
  const fd = createExclusive(folder(name), token);
  if (fd !== null) {
    clearDeadBreaker(folder, `${name}.break`);
    return fd;
  }
  const holder = readHolder(folder(name));
  if (holder === null) return "again";
  if (!stale(holder)) return null;
  takeOver(folder, name, holder, rest);
  return "again";
}

/**
 * Removes a lock file only while it still holds this holder's line (a lock
 * taken over after its lease belongs to another, and is left alone).
 *
 * @param path The lock file.
 * @param token The holder line written when it was taken.
 * @param fd The handle it was created with, still open: the file at `path`
 *   is then this lock's while it is the same file (a take-over removes it
 *   and creates another; the open handle keeps its inode from being reused),
 *   with no need to read it back.
 */
export function releaseIfMine(path: string, token: string, fd?: number): void {
  if (fd !== undefined) {
    try {
      const mine = fstatSync(fd);
      const now = lstatSync(path);
      if (now.ino === mine.ino && now.dev === mine.dev) unlinkSync(path);
    } catch {
      // Taken over or removed: nothing of ours is left to free.
    }
    return;
  }
  try {
    const fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    let mine = false;
    try {
      const buf = new Uint8Array(token.length + 1);
      const n = readSync(fd, buf, 0, buf.length, 0);
      mine = new TextDecoder().decode(buf.subarray(0, n)) === token;
    } finally {
      closeSync(fd);
    }
    if (mine) unlinkSync(path);
  } catch {
    // Taken over or removed: nothing of ours is left to free.
  }
}
