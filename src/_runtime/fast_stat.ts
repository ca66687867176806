/**
 * File status without `node:fs`'s `Stats` objects where they are costly:
 * under Deno, `node:fs` builds each one from Deno's own status record with
 * a dozen date fields defined on it, several times the cost of the system
 * call. The status calls here give the same numbers (Deno's `node:fs`
 * derives them from the same record) in a plain object with the fields and
 * type tests the toolkit reads. Elsewhere (Node, Bun) `node:fs` is used.
 *
 * @module
 */
import type * as nodeFs from "node:fs";
import { errnoOf } from "../_internal/errno.ts";

interface DenoInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  atime: Date | null;
  birthtime: Date | null;
  ctime?: Date | null;
  dev: number;
  ino: number | null;
  mode: number | null;
  nlink: number | null;
  uid: number | null;
  gid: number | null;
  rdev: number | null;
  blksize: number | null;
  blocks: number | null;
  isBlockDevice: boolean | null;
  isCharDevice: boolean | null;
  isFifo: boolean | null;
  isSocket: boolean | null;
}

interface DenoFs {
  lstatSync(path: string | URL): DenoInfo;
  statSync(path: string | URL): DenoInfo;
  build?: { os: string };
  permissions?: {
    querySync?(descriptor: { name: "read"; path: string }): { state: string };
  };
}

/**
 * Whether `/proc/self/fd` may be read without a prompt: a process allowed
 * to read only its workspace keeps `node:fs`'s descriptor status.
 */
function procFdReadable(deno: DenoFs): boolean {
  if (deno.build?.os !== "linux") return false;
  try {
    return deno.permissions?.querySync?.({
      name: "read",
      path: "/proc/self/fd",
    })
      .state === "granted";
  } catch {
    return false;
  }
}

const S_IFMT = 0o170000;

function ms(d: Date | null | undefined): number {
  return d ? d.getTime() : 0;
}

/** A file's status, with the fields of `node:fs` `Stats` the toolkit reads. */
class Status {
  dev: number;
  ino: number;
  mode: number;
  nlink: number;
  uid: number;
  gid: number;
  rdev: number;
  size: number;
  blksize: number;
  blocks: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  birthtimeMs: number;
  #info: DenoInfo;

  constructor(info: DenoInfo) {
    this.#info = info;
    this.dev = info.dev;
    this.ino = info.ino ?? 0;
    this.mode = info.mode ?? 0;
    this.nlink = info.nlink ?? 0;
    this.uid = info.uid ?? 0;
    this.gid = info.gid ?? 0;
    this.rdev = info.rdev ?? 0;
    this.size = info.size;
    this.blksize = info.blksize ?? 0;
    this.blocks = info.blocks ?? 0;
    this.atimeMs = ms(info.atime);
    this.mtimeMs = ms(info.mtime);
    this.ctimeMs = ms(info.ctime);
    this.birthtimeMs = ms(info.birthtime);
  }

  get atime(): Date {
    return new Date(this.atimeMs);
  }
  get mtime(): Date {
    return new Date(this.mtimeMs);
  }
  get ctime(): Date {
    return new Date(this.ctimeMs);
  }
  get birthtime(): Date {
    return new Date(this.birthtimeMs);
  }
  isFile(): boolean {
    return this.#info.isFile;
  }
  isDirectory(): boolean {
    return this.#info.isDirectory;
  }
  isSymbolicLink(): boolean {
    return this.#info.isSymlink;
  }
  isFIFO(): boolean {
    return this.#info.isFifo ?? (this.mode & S_IFMT) === 0o010000;
  }
  isSocket(): boolean {
    return this.#info.isSocket ?? (this.mode & S_IFMT) === 0o140000;
  }
  isCharacterDevice(): boolean {
    return this.#info.isCharDevice ?? (this.mode & S_IFMT) === 0o020000;
  }
  isBlockDevice(): boolean {
    return this.#info.isBlockDevice ?? (this.mode & S_IFMT) === 0o060000;
  }
}

type Options = { throwIfNoEntry?: boolean; bigint?: boolean } | undefined;

/** The calls replaced, in `node:fs` form. */
export interface StatCalls {
  lstatSync: typeof nodeFs.lstatSync;
  statSync: typeof nodeFs.statSync;
  fstatSync: typeof nodeFs.fstatSync;
}

/**
 * `node:fs`'s status calls, under Deno answered by Deno's own: a path's
 * through `Deno.lstatSync`/`Deno.statSync`, a descriptor's (on Linux, when
 * the process may read `/proc/self/fd`) through
 * `Deno.statSync("/proc/self/fd/N")`, which the kernel answers for the
 * open file itself. A `bigint` status, and any call that fails,
 * goes to `node:fs` (so errors keep its form).
 *
 * @param slow `node:fs`'s own calls.
 */
export function fastStat(slow: StatCalls): StatCalls {
  const deno = (globalThis as { Deno?: DenoFs }).Deno;
  if (
    !deno || typeof deno.lstatSync !== "function" ||
    typeof deno.statSync !== "function"
  ) return slow;
  const byPath = (
    call: (path: string) => DenoInfo,
    fallback: (path: string, options?: Options) => unknown,
  ) =>
  (path: unknown, options?: Options): unknown => {
    if (typeof path === "string" && !options?.bigint) {
      try {
        return new Status(call(path));
      } catch (error) {
        // Nothing there, and the caller asked for no error: answered here,
        // without building `node:fs`'s error as well.
        if (options?.throwIfNoEntry === false && errnoOf(error) === "ENOENT") {
          return undefined;
        }
        // node:fs answers it again, with its own error.
      }
    }
    return fallback(path as string, options);
  };
  const byFd = procFdReadable(deno);
  return {
    lstatSync: byPath(
      (p) => deno.lstatSync(p),
      slow.lstatSync as (p: string, o?: Options) => unknown,
    ) as typeof nodeFs.lstatSync,
    statSync: byPath(
      (p) => deno.statSync(p),
      slow.statSync as (p: string, o?: Options) => unknown,
    ) as typeof nodeFs.statSync,
    fstatSync: ((fd: number, options?: Options): unknown => {
      if (byFd && Number.isInteger(fd) && fd >= 0 && !options?.bigint) {
        try {
          return new Status(deno.statSync(`/proc/self/fd/${fd}`));
        } catch {
          // node:fs answers it again, with its own error.
        }
      }
      return (slow.fstatSync as (fd: number, o?: Options) => unknown)(
        fd,
        options,
      );
    }) as typeof nodeFs.fstatSync,
  };
}
