/**
 * Writing a file of the state folder (docs/workspace.md "State folder"):
 * receipts, read records, journals, line indexes, the history's counter
 * and compacted log. A state folder may come with the repository, so a
 * name in it may hold a symlink, a hard link, a FIFO or a device put there
 * on purpose: the new content is written to a temporary created
 * exclusively (never through a symlink) and renamed over the name, which
 * replaces the name itself and never writes into what it held; a name
 * that holds anything but a lone regular file is left alone and reported.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeAllSync,
} from "../_runtime/fs.ts";
import { processId } from "../_runtime/process.ts";
import { errnoOf } from "../_internal/errno.ts";
import { HashlineError } from "../errors.ts";

/**
 * A state file left alone because of what stands at its name (code
 * `NOT_A_FILE`): a cache or record skips it with a warning; a journal that
 * cannot be written refuses its commit, nothing written.
 */
export class StateFileSkipped extends HashlineError {
  /**
   * Creates the error.
   *
   * @param message Names the file and what stands there.
   */
  constructor(message: string) {
    super("NOT_A_FILE", message);
    this.name = "StateFileSkipped";
  }
}

/** What stands at a name that is not a lone regular file, or null. */
function oddity(st: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  nlink: number;
}): string | null {
  if (st.isSymbolicLink()) return "a symlink";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isDirectory()) return "a folder";
  if (!st.isFile()) return "a device";
  if (st.nlink > 1) return `a file with ${st.nlink} hard links`;
  return null;
}

/**
 * Why hashline may not write its state into `folder`, or null when it may
 * (a real folder, or none yet).
 *
 * @param folder A folder of the state folder.
 * @returns A sentence naming the folder and what it is, or null.
 */
export function folderRefusal(folder: string): string | null {
  // A folder not made yet is the common case: no error is built for it.
  const d = lstatSync(folder, { throwIfNoEntry: false });
  if (d !== undefined && (d.isSymbolicLink() || !d.isDirectory())) {
    return `${folder} is ${
      d.isSymbolicLink() ? "a symlink" : "not a folder"
    }; hashline does not write its state through it. Replace it with a folder.`;
  }
  return null;
}

/**
 * Makes the folder `folder` when it can (its parent must be there): a name
 * already taken is left as it is, for {@link folderRefusal} to judge, and
 * any other failure is left for the first write into the folder to meet.
 *
 * @param folder The folder to make.
 */
export function makeFolderHere(folder: string): void {
  try {
    mkdirSync(folder);
  } catch {
    // Taken already, or not possible now: judged or met later.
  }
}

/**
 * Why the file at `path` (or a folder of it) may not be written by
 * hashline, or null when it may: its folder, and every folder from `under`
 * down to it, is a real folder (not a symlink), and the name is free or
 * holds a lone regular file.
 *
 * @param path The state file.
 * @param under The outermost folder to check (default the file's own folder).
 * @returns A sentence naming the file or folder and what stands there, or null.
 */
export function stateFileRefusal(path: string, under?: string): string | null {
  const dir = dirname(path);
  const folders = [dir];
  if (under !== undefined) {
    const rel = relative(under, dir);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) {
      let cur = under;
      folders.unshift(under);
      for (const part of rel.split(sep).slice(0, -1)) {
        cur = join(cur, part);
        folders.push(cur);
      }
    }
  }
  for (const folder of folders) {
    const refused = folderRefusal(folder);
    if (refused !== null) return refused;
  }
  try {
    const what = oddity(lstatSync(path));
    if (what === null) return null;
    return `${path} is ${what}; hashline does not write over it. Remove it, and hashline writes its own file there again.`;
  } catch (error) {
    if (errnoOf(error) === "ENOENT") return null;
    throw error;
  }
}

/**
 * Writes a whole state file through a temporary beside it and a rename.
 *
 * @param path The state file (its folder must exist).
 * @param data The whole new content.
 * @param options `flush`: flush the temporary before the rename (the
 *   folder is the caller's to flush); `temp`: the temporary's path, beside
 *   `path`, where its owner's clean-up looks for it (default a random name);
 *   `under`: the outermost folder whose path to the file must hold no
 *   symlink (default the file's own folder).
 * @throws {StateFileSkipped} When the name, or its folder, holds something
 *   else than a regular file (or folder); nothing is written.
 * @throws The file system's error when the write fails; no temporary is left.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { StateFileSkipped, writeStateFile } from "./state_file.ts";
 *
 * const dir = mkdtempSync(join(tmpdir(), "hashline-state-file-"));
 * writeStateFile(join(dir, "a.json"), "{}");
 * assert.equal(readFileSync(join(dir, "a.json"), "utf8"), "{}");
 * writeFileSync(join(dir, "outside.txt"), "keep");
 * symlinkSync(join(dir, "outside.txt"), join(dir, "b.json"));
 * assert.throws(() => writeStateFile(join(dir, "b.json"), "{}"), StateFileSkipped);
 * assert.equal(readFileSync(join(dir, "outside.txt"), "utf8"), "keep");
 * ```
 */
export function writeStateFile(
  path: string,
  data: Uint8Array | string,
  options: { flush?: boolean; temp?: string; under?: string } = {},
): void {
  const refused = stateFileRefusal(path, options.under);
  if (refused !== null) throw new StateFileSkipped(refused);
  writeThroughTemp(
    path,
    typeof data === "string" ? new TextEncoder().encode(data) : data,
    options,
  );
}

/**
 * Replaces the file at `path` with `bytes` through a temporary beside it:
 * the temporary is created exclusively and never through a symlink, so
 * nothing planted at its name is written into, and the rename replaces the
 * name itself. Unlike {@link writeStateFile}, it does not look at what
 * stands at `path` first: for a name nothing else may claim (a blob named
 * by its content's sha-256).
 *
 * @param path The file (its folder must exist).
 * @param bytes The whole new content.
 * @param options `flush`: flush the temporary before the rename (the
 *   folder is the caller's to flush); `temp`: the temporary's path, beside
 *   `path` (default a hidden name with the process id and a random part);
 *   `mode`: the new file's permission bits (default `0o644`).
 * @throws The file system's error when the write fails; no temporary is left.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { writeThroughTemp } from "./state_file.ts";
 *
 * const dir = mkdtempSync(join(tmpdir(), "hashline-through-temp-"));
 * writeThroughTemp(join(dir, "blob"), new TextEncoder().encode("text"), {
 *   flush: true,
 *   mode: 0o600,
 * });
 * assert.equal(readFileSync(join(dir, "blob"), "utf8"), "text");
 * assert.deepEqual(readdirSync(dir), ["blob"]);
 * ```
 */
export function writeThroughTemp(
  path: string,
  bytes: Uint8Array,
  options: { flush?: boolean; temp?: string; mode?: number } = {},
): void {
  const tmp = options.temp ??
    `${dirname(path)}/.${basename(path).slice(0, 120)}.${processId()}-${
      Math.random().toString(36).slice(2, 10)
    }.tmp`;
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL |
      constants.O_NOFOLLOW,
    options.mode ?? 0o644,
  );
  try {
    try {
      writeAllSync(fd, bytes);
      if (options.flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // Never made, or gone: the write's own error is the one to report.
    }
    throw error;
  }
}
