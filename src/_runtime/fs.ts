/**
 * The one place that touches the file system API of the host runtime.
 * Deno, Bun and Node all provide `node:fs`; keeping the import here means a
 * runtime without it only loses the modules that need files.
 *
 * @module
 */
export * from "node:fs/promises";
export {
  closeSync,
  constants,
  createReadStream,
  fsyncSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  writeSync,
} from "node:fs";
