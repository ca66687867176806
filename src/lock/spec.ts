/**
 * Naming a lock (docs/workspace.md "Concurrency"): a file is locked in
 * the nearest folder of its path that exists, by the rest of its path from
 * there, so a writer that makes the missing folders and one that finds
 * them made take the same lock.
 *
 * @module
 */
import { basename } from "node:path";
import type { Target } from "../fs/confine.ts";
import { partsUnder, type RootRef } from "../fs/pin.ts";
import type { LockSpec } from "./lock.ts";

/**
 * The lock of the file `name` in the folder `parts` (real names from the
 * root down), of which the first `have` exist.
 *
 * @param root The pinned root.
 * @param parts The folder's names under the root.
 * @param have How many of them exist.
 * @param name The file's name.
 * @param display How the file is shown in messages.
 * @returns What to lock.
 */
export function lockSpecAt(
  root: RootRef,
  parts: readonly string[],
  have: number,
  name: string,
  display: string,
): LockSpec {
  return {
    root,
    parts: parts.slice(0, have),
    rest: [...parts.slice(have), name].join("/"),
    display,
  };
}

/**
 * The lock of one resolved target, named by its folder under the root.
 *
 * @param root The pinned root.
 * @param target The file, with the folders of its path that are missing.
 * @returns What to lock.
 */
export function lockSpecOf(root: RootRef, target: Target): LockSpec {
  const parts = partsUnder(root, target.dir);
  return lockSpecAt(
    root,
    parts,
    parts.length - target.missing.length,
    basename(target.real),
    target.display,
  );
}
