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
export {
  closeSync,
  constants,
  createReadStream,
  existsSync,
  fchmodSync,
  fchownSync,
  fstatSync,
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
