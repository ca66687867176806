/**
 * The one place that touches the file system API of the host runtime.
 * Deno, Bun and Node all provide `node:fs`; keeping the import here means a
 * runtime without it only loses the modules that need files.
 *
 * @module
 */
// Named, not `export *`: a bundler cannot see the names a star re-export of
// a runtime module brings (scripts/build_cli.ts).
export {
  link,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  utimes,
} from "node:fs/promises";
// Structural, so declarations that name a handle need no runtime type package.
export type { FileHandle, FileStatus } from "./file_handle.ts";
import * as nodeFs from "node:fs";
import { writeSync } from "node:fs";
import { fastStat } from "./fast_stat.ts";

const stat = fastStat({
  lstatSync: nodeFs.lstatSync,
  statSync: nodeFs.statSync,
  fstatSync: nodeFs.fstatSync,
});

/** `node:fs` `lstatSync` (under Deno, answered by Deno's own call: `fast_stat.ts`). */
export const lstatSync: typeof nodeFs.lstatSync = stat.lstatSync;
/** `node:fs` `statSync` (under Deno, answered by Deno's own call). */
export const statSync: typeof nodeFs.statSync = stat.statSync;
/** `node:fs` `fstatSync` (under Deno on Linux, by the status of `/proc/self/fd/N`). */
export const fstatSync: typeof nodeFs.fstatSync = stat.fstatSync;
export {
  close,
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fchmodSync,
  fchownSync,
  fsync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";

const timerTurnClose = "Deno" in globalThis;

/**
 * Closes a handle off the path to the answer: the last close of a file
 * already replaced or removed frees it, which a file system that discards
 * freed blocks makes slow (a tenth of a millisecond and more). Node closes
 * in its worker pool; Deno's asynchronous close runs at the next microtask
 * checkpoint, before the answer, so under Deno the close waits for a timer
 * turn of the event loop instead. A failure is ignored.
 *
 * @param fd The handle.
 */
export function closeLater(fd: number): void {
  if (!timerTurnClose) {
    nodeFs.close(fd, () => {});
    return;
  }
  setTimeout(() => {
    try {
      nodeFs.closeSync(fd);
    } catch {
      // Closed already.
    }
  }, 0);
}

/** Writes all of `bytes` to `fd` at its current offset (one write may take only part). */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    at += writeSync(fd, bytes, at, bytes.length - at);
  }
}
