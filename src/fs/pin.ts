/**
 * Folders pinned by an open handle. Every file operation of the workspace
 * goes through a folder reached from the root one name at a time, each
 * opened without following symlinks; names are then used relative to that
 * handle (`/proc/self/fd/N/name` on Linux), so a folder or file swapped for
 * a symlink while an operation runs cannot redirect it outside the root.
 * Where the platform has no such handles, each folder is re-checked with
 * `lstat` instead (a narrower guarantee: see docs/workspace.md).
 *
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
} from "../_runtime/fs.ts";
import { inside } from "./paths.ts";

const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY |
  constants.O_NOFOLLOW;

let handles: boolean | undefined;

/** Whether folder handles can be used as path prefixes here (Linux `/proc`). */
function handlesWork(fd: number, real: string): boolean {
  if (handles === undefined) {
    try {
      handles = readlinkSync(`/proc/self/fd/${fd}`) === real;
    } catch {
      handles = false;
    }
  }
  return handles;
}

/** The root a pin starts from: its real path and identity. */
export interface RootRef {
  /** Real path of the root. */
  readonly real: string;
  /** Device and inode the root had when the workspace opened. */
  readonly dev: number;
  readonly ino: number;
}

/** An error with the errno-style code that a swapped or vanished folder gives. */
function moved(code: string, what: string): Error {
  return Object.assign(new Error(`${what}: ${code}`), { code });
}

/** A folder held open: names inside it resolve against the folder itself. */
export class Pin {
  /** The open handle (-1 where handles cannot be used as prefixes). */
  readonly fd: number;
  /** Real path of the folder when it was pinned. */
  readonly real: string;
  private readonly root: string;

  /**
   * @param fd Open folder handle, or -1.
   * @param real Real path when pinned.
   * @param root Real path of the root.
   */
  constructor(fd: number, real: string, root: string) {
    this.fd = fd;
    this.real = real;
    this.root = root;
  }

  /**
   * A path naming `name` inside the pinned folder, whatever happens to its
   * path. `name` is one entry (or `.` for the folder itself): a name that
   * could climb out (`..`, or one holding a `/`) is refused.
   *
   * @throws An error with code `EINVAL` for such a name.
   */
  path(name: string): string {
    if (
      name === "" || name === ".." || name.includes("/") || name.includes("\0")
    ) {
      throw moved("EINVAL", `"${name}" is not one entry of a folder`);
    }
    return this.fd >= 0
      ? `/proc/self/fd/${this.fd}/${name}`
      : join(this.real, name);
  }

  /** Whether the pinned folder still lies inside the root (it may have been moved). */
  stillInside(): boolean {
    let now: string;
    try {
      now = this.fd >= 0
        ? readlinkSync(`/proc/self/fd/${this.fd}`)
        : realpathSync(this.real);
    } catch {
      return false;
    }
    return inside(now, this.root);
  }

  /** Flushes the folder's entries (after a rename), where the platform allows. */
  sync(fsync: (fd: number) => void): void {
    if (this.fd < 0) return;
    try {
      fsync(this.fd);
    } catch {
      // Some file systems cannot flush a folder; the rename is still atomic.
    }
  }

  /** Closes the handle. */
  close(): void {
    if (this.fd >= 0) {
      try {
        closeSync(this.fd);
      } catch {
        // Already closed.
      }
    }
  }
}

/**
 * Pins the folder `parts` (real names, no symlinks) under the root.
 *
 * @throws An error with code `ELOOP` or `ENOTDIR` when a part is now a
 *   symlink or not a folder, `ENOENT` when it is gone, `EXDEV` when the
 *   root itself was replaced.
 */
export function pinFolder(root: RootRef, parts: readonly string[]): Pin {
  let fd = openSync(root.real, DIR_FLAGS);
  try {
    const st = fstatSync(fd);
    if (st.dev !== root.dev || st.ino !== root.ino) {
      throw moved("EXDEV", `the root folder ${root.real} was replaced`);
    }
    if (!handlesWork(fd, root.real)) {
      closeSync(fd);
      fd = -1;
      let cur = root.real;
      for (const part of parts) {
        cur = join(cur, part);
        const s = lstatSync(cur);
        if (s.isSymbolicLink()) throw moved("ELOOP", cur);
        if (!s.isDirectory()) throw moved("ENOTDIR", cur);
      }
      return new Pin(-1, cur, root.real);
    }
    for (const part of parts) {
      const next = openSync(`/proc/self/fd/${fd}/${part}`, DIR_FLAGS);
      closeSync(fd);
      fd = next;
    }
    return new Pin(fd, join(root.real, ...parts), root.real);
  } catch (error) {
    if (fd >= 0) closeSync(fd);
    throw error;
  }
}

/**
 * The names from the root down to `dir` (a real path under the root).
 *
 * @throws An error with code `EXDEV` when `dir` is not under the root.
 */
export function partsUnder(root: RootRef, dir: string): string[] {
  const rel = relative(root.real, dir);
  if (rel === "") return [];
  if (rel === ".." || rel.startsWith(".." + sep) || isAbsolute(rel)) {
    throw moved("EXDEV", `${dir} is not under ${root.real}`);
  }
  return rel.split(sep);
}
