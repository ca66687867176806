/**
 * The one place that touches the file system API of the host runtime.
 * Deno, Bun and Node all provide `node:fs`; keeping the import here means a
 * runtime without it only loses the modules that need files.
 *
 * @module
 */
export * from "node:fs/promises";
// Structural, so declarations that name a handle need no runtime type package.
export type { FileHandle, FileStatus } from "./file_handle.ts";
import { writeSync } from "node:fs";
export {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsync,
  fsyncSync,
  linkSync,
  lstatSync,
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
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";

/** Writes all of `bytes` to `fd` at its current offset (one write may take only part). */
export function writeAllSync(fd: number, bytes: Uint8Array): void {
  let at = 0;
  while (at < bytes.length) {
    at += writeSync(fd, bytes, at, bytes.length - at);
  }
}
