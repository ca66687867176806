/**
 * Per-file exclusion for writers, within one process and across processes.
 *
 * A lock is a small file beside the file it guards (`.NAME.hashline-lock`,
 * naming its holder: pid, host boot id and PID namespace), created
 * exclusively through the pinned folder and kept open while held, its
 * modification time refreshed as a lease. Beside the file, not in a state
 * folder, so that every process that writes the file meets the same lock
 * whatever state folder or root it was started with. Inside one process,
 * writers queue on a promise chain per lock and never poll; across
 * processes a waiter polls with back-off. A lock whose holder died is taken
 * over (and the dead holder's half-written one-file temporaries beside it
 * are removed; a journaled commit's are left to recovery), never waited on
 * forever: at once when the holder is provably dead (same host boot and PID
 * namespace, pid gone), otherwise once its lease has run out (a holder in
 * another container or on another machine). Locks of several files are
 * always taken in one global order (by path), so two multi-file patches
 * cannot deadlock.
 *
 * @module
 */
import { join } from "node:path";
import { setInterval } from "node:timers";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  unlinkSync,
  writeSync,
} from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
import { touchHandle } from "../_runtime/host.ts";
import { HashlineError, PatchRefusedError } from "../errors.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { cutUtf8, utf8Length } from "../_internal/names.ts";
import { lineHash32 } from "../hash/fnv.ts";
import { pinFolder, type RootRef } from "./_pin.ts";
import {
  type Holder as Named,
  holderLine,
  LEASE_MS,
  leaseHooks,
  local,
  parseHolder,
  provablyDead,
  tempOwnerGone,
} from "./_holder.ts";

/** What to lock: a name inside a folder under the root. */
export interface LockSpec {
  /** The root the folder is under. */
  root: RootRef;
  /** Real names of the folder, from the root down (it must exist). */
  parts: readonly string[];
  /** Path of the guarded file relative to that folder (may hold `/` for a file whose folders do not exist yet). */
  rest: string;
  /** How the file is shown in messages. */
  display: string;
}

/**
 * A holder writes its process id right after creating its lock file, two
 * system calls apart; an empty lock (or breaker) this old was left by a
 * process killed between them.
 */
const EMPTY_STALE_MS = 1_000;

const chains = new Map<string, Promise<void>>();
const held = new Set<string>();

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

/** The lock file's real path: the same for every root it is reached from. */
function keyOf(spec: LockSpec): string {
  return join(spec.root.real, ...spec.parts, lockName(spec.rest));
}

function lockFailure(spec: LockSpec, error: unknown): unknown {
  return mapFsError(error, `Cannot edit "${spec.display}" (taking its lock)`);
}

function busy(display: string, ms: number): HashlineError {
  return new HashlineError(
    "BUSY",
    `Cannot edit "${display}": another writer has held it for ${ms} ms. Nothing was written; resend the edit in a moment.`,
  );
}

interface Holder {
  /** Who holds it; null while the file is still empty (or unreadable). */
  named: Named | null;
  ino: number;
  mtimeMs: number;
}

function readHolder(path: string): Holder | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
  try {
    const st = fstatSync(fd);
    const buf = new Uint8Array(256);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const named = parseHolder(new TextDecoder().decode(buf.subarray(0, n)));
    return { named, ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether a lock may be taken over: an empty one once it is old, this
 * process's own once it no longer holds it, a provably dead holder's at
 * once, and any other once its lease (the file's modification time, which
 * the holder refreshes) has run out.
 */
function isStale(holder: Holder, key: string): boolean {
  const age = Date.now() - holder.mtimeMs;
  const named = holder.named;
  if (named === null) return age > EMPTY_STALE_MS;
  if (named.pid === processId() && local(named)) return !held.has(key);
  return provablyDead(named) || age > LEASE_MS;
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

function pinned(spec: LockSpec): ReturnType<typeof pinFolder> {
  try {
    return pinFolder(spec.root, spec.parts);
  } catch (error) {
    const code = errnoOf(error);
    if (
      code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" ||
      code === "EXDEV"
    ) {
      throw new PatchRefusedError([{
        code: "CHANGED",
        path: spec.display,
        message:
          "a folder on its path was replaced (by a symlink or a file) or removed, so nothing was written. Check the path and resend.",
      }]);
    }
    throw lockFailure(spec, error);
  }
}

/**
 * Creates `path` exclusively holding `text`; null when something is already
 * there. The handle is returned open (a lock keeps it to refresh its
 * lease). A file that could not be written whole (a full disk) is removed
 * again, so no empty lock is left for a later call to wait on.
 */
function createExclusive(path: string, text: string): number | null {
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
    let done = 0;
    while (done < bytes.length) {
      done += writeSync(fd, bytes, done, bytes.length - done);
    }
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

function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/** Removes a breaker (`NAME.break`) that a process died holding; true when none is left. */
function clearDeadBreaker(
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
function takeOver(
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

async function acquireFile(
  spec: LockSpec,
  key: string,
  deadline: number,
  timeoutMs: number,
): Promise<{ token: string; fd: number }> {
  const name = lockName(spec.rest);
  const token = holderLine(Math.random().toString(36).slice(2));
  let wait = 1;
  for (;;) {
    const pin = pinned(spec);
    try {
      const folder = (n: string) => pin.path(n);
      const fd = createExclusive(folder(name), token);
      if (fd !== null) {
        // A breaker left by a process killed while breaking this lock.
        clearDeadBreaker(folder, `${name}.break`);
        return { token, fd };
      }
      const holder = readHolder(folder(name));
      if (holder === null) continue;
      if (isStale(holder, key)) {
        takeOver(folder, name, holder, spec.rest);
        continue;
      }
    } catch (error) {
      throw lockFailure(spec, error);
    } finally {
      pin.close();
    }
    if (Date.now() >= deadline) throw busy(spec.display, timeoutMs);
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 25);
  }
}

function releaseFile(spec: LockSpec, token: string): void {
  const name = lockName(spec.rest);
  let pin;
  try {
    pin = pinFolder(spec.root, spec.parts);
  } catch {
    return;
  }
  try {
    const fd = openSync(
      pin.path(name),
      constants.O_RDONLY | constants.O_NOFOLLOW,
    );
    let mine = false;
    try {
      const buf = new Uint8Array(token.length + 1);
      const n = readSync(fd, buf, 0, buf.length, 0);
      mine = new TextDecoder().decode(buf.subarray(0, n)) === token;
    } finally {
      closeSync(fd);
    }
    if (mine) unlinkSync(pin.path(name));
  } catch {
    // Taken over or removed: nothing of ours is left to release.
  } finally {
    pin.close();
  }
}

async function acquireOne(
  spec: LockSpec,
  deadline: number,
  timeoutMs: number,
): Promise<() => void> {
  const key = keyOf(spec);
  const prev = chains.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const tail = prev.then(() => mine);
  chains.set(key, tail);
  const finish = () => {
    done();
    if (chains.get(key) === tail) chains.delete(key);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      prev,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(busy(spec.display, timeoutMs)),
          Math.max(0, deadline - Date.now()),
        );
      }),
    ]);
  } catch (error) {
    finish();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  let token: string;
  let fd: number;
  try {
    ({ token, fd } = await acquireFile(spec, key, deadline, timeoutMs));
  } catch (error) {
    finish();
    throw error;
  }
  held.add(key);
  // The lease: the lock file's modification time, refreshed through the
  // handle it was created with while the lock is held.
  const lease = setInterval(() => {
    touchHandle(fd);
    leaseHooks.afterRefresh?.();
  }, leaseHooks.refreshMs);
  (lease as { unref?: () => void }).unref?.();
  return () => {
    clearInterval(lease);
    closeQuietly(fd);
    held.delete(key);
    releaseFile(spec, token);
    finish();
  };
}

/**
 * Takes the locks of every file named, in one global order, waiting for
 * other writers up to `timeoutMs`.
 *
 * @returns A function that releases them all.
 * @throws {HashlineError} `BUSY` when a lock is still held at the deadline.
 */
export async function lockFiles(
  specs: readonly LockSpec[],
  timeoutMs: number,
): Promise<() => void> {
  const unique = new Map<string, LockSpec>();
  for (const s of specs) unique.set(keyOf(s), s);
  const ordered = [...unique.entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  const deadline = Date.now() + timeoutMs;
  const releases: (() => void)[] = [];
  const releaseAll = () => {
    while (releases.length > 0) releases.pop()!();
  };
  try {
    for (const [, spec] of ordered) {
      releases.push(await acquireOne(spec, deadline, timeoutMs));
    }
  } catch (error) {
    releaseAll();
    throw error;
  }
  return releaseAll;
}
