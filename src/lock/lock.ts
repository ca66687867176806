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
import { closeLater } from "../_runtime/fs.ts";
import { joinQueue, type LockQueues } from "./queue.ts";
import { join } from "node:path";
import { setInterval } from "node:timers";
import { processId } from "../_runtime/process.ts";
import { touchHandle } from "../_runtime/host.ts";
import { changedError, HashlineError } from "../errors.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import { pinFolder, type RootRef } from "../fs/pin.ts";
import {
  holderLine,
  LEASE_MS,
  local,
  provablyDead,
  REFRESH_MS,
} from "./holder.ts";
import {
  closeQuietly,
  EMPTY_STALE_MS,
  type Holder,
  lockName,
  releaseIfMine,
  tryLock,
} from "./lock_file.ts";

export { lockName };

/**
 * Test seams of a held lock's lease: how often it is refreshed, and a
 * callback after each refresh. Passed in through the workspace's options.
 */
export interface LeaseHooks {
  /** How often a held lock refreshes its lease, in ms (default 3 s). */
  leaseRefreshMs?: number;
  /** Runs after each refresh. */
  afterLeaseRefresh?: () => void;
}

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

const chains: LockQueues = new Map();
const held = new Set<string>();

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

function pinned(spec: LockSpec): ReturnType<typeof pinFolder> {
  try {
    return pinFolder(spec.root, spec.parts);
  } catch (error) {
    const code = errnoOf(error);
    if (
      code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" ||
      code === "EXDEV"
    ) {
      throw changedError(spec.display);
    }
    throw lockFailure(spec, error);
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
      const got = tryLock(
        (n: string) => pin.path(n),
        name,
        token,
        (holder) => isStale(holder, key),
        spec.rest,
      );
      if (typeof got === "number") return { token, fd: got };
      if (got === "again") continue;
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

/**
 * Removes a lock file of this holder's; false when its folder could not be
 * opened for want of file handles (the caller tries again once it has
 * closed others), true when it is done or there is nothing left to free.
 */
function releaseFile(spec: LockSpec, token: string, fd?: number): boolean {
  const name = lockName(spec.rest);
  let pin;
  try {
    pin = pinFolder(spec.root, spec.parts);
  } catch (error) {
    const code = errnoOf(error);
    return code !== "EMFILE" && code !== "ENFILE";
  }
  try {
    releaseIfMine(pin.path(name), token, fd);
  } finally {
    pin.close();
  }
  return true;
}

/**
 * Frees one held lock; returns the removal still to do when the lock's
 * folder could not be opened for want of file handles (its own handle is
 * closed by then, so the caller can try again once it has freed the rest).
 */
type Release = () => (() => void) | null;

async function acquireOne(
  spec: LockSpec,
  deadline: number,
  timeoutMs: number,
  hooks: LeaseHooks,
): Promise<Release> {
  const key = keyOf(spec);
  const { prev, first, finish } = joinQueue(chains, key);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // With no taker before this one in the process, there is nothing to time out.
  if (!first) {
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
    hooks.afterLeaseRefresh?.();
  }, hooks.leaseRefreshMs ?? REFRESH_MS);
  (lease as { unref?: () => void }).unref?.();
  return () => {
    clearInterval(lease);
    held.delete(key);
    if (releaseFile(spec, token, fd)) {
      // Freed at this last close, after the answer.
      closeLater(fd);
      finish();
      return null;
    }
    // Closed at once: the handle is what the retry needs. Without it, the
    // file is judged ours by the holder line it still holds.
    closeQuietly(fd);
    finish();
    return () => void releaseFile(spec, token);
  };
}

/**
 * Takes the locks of every file named, in one global order, waiting for
 * other writers up to `timeoutMs`.
 *
 * @param hooks Test seams of the lease.
 * @returns A function that releases them all.
 * @throws {HashlineError} `BUSY` when a lock is still held at the deadline.
 */
export async function lockFiles(
  specs: readonly LockSpec[],
  timeoutMs: number,
  hooks: LeaseHooks = {},
): Promise<() => void> {
  const unique = new Map<string, LockSpec>();
  for (const s of specs) unique.set(keyOf(s), s);
  const ordered = [...unique.entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  const deadline = Date.now() + timeoutMs;
  const releases: Release[] = [];
  // In reverse order of taking; a removal that found no file handle free
  // is done again once every lock's own handle is closed (a refusal for
  // want of handles must not leave lock files behind: tests/lock/).
  const releaseAll = () => {
    const later: (() => void)[] = [];
    while (releases.length > 0) {
      const retry = releases.pop()!();
      if (retry) later.push(retry);
    }
    for (const retry of later) retry();
  };
  try {
    for (const [, spec] of ordered) {
      releases.push(await acquireOne(spec, deadline, timeoutMs, hooks));
    }
  } catch (error) {
    releaseAll();
    throw error;
  }
  return releaseAll;
}
