/**
 * The locks of the files a dead writer's journal names (docs/history.md,
 * "Crash consistency and cost"): each is locked where a writer of that
 * file locks it, so recovery and a live writer never work on it at once.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { lstatSync } from "../_runtime/fs.ts";
import { partsUnder, type RootRef } from "../fs/pin.ts";
import { type LeaseHooks, lockFiles, type LockSpec } from "./lock.ts";
import { lockSpecAt } from "./spec.ts";

/**
 * Locks real paths under the root (those not under it are left out).
 *
 * @param root The pinned root.
 * @param reals The real paths a journal names.
 * @param timeoutMs How long a lock is waited for.
 * @param hooks Test hooks of the locks' lease.
 * @returns The release of every lock taken.
 */
export async function lockReals(
  root: RootRef,
  reals: readonly string[],
  timeoutMs: number,
  hooks: LeaseHooks,
): Promise<() => void> {
  const specs: LockSpec[] = [];
  for (const real of reals) {
    try {
      // A folder the commit had not made yet when it died is locked where
      // a writer locks a file in a missing folder: in its nearest folder.
      const parts = partsUnder(root, dirname(real));
      let have = parts.length;
      while (have > 0 && !isFolder(join(root.real, ...parts.slice(0, have)))) {
        have--;
      }
      specs.push(lockSpecAt(root, parts, have, basename(real), real));
    } catch {
      // Not under this root: recovery skips such entries anyway.
    }
  }
  return await lockFiles(specs, timeoutMs, hooks);
}

/** Whether a path is a folder (not following a symlink). */
function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
