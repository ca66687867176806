/**
 * Opening history state (docs/history.md, "Damaged and hostile state"): the
 * log is opened without following a symlink and without blocking, and
 * refused at once when it is not a regular file; a failure on any history
 * file becomes a typed server-side error (`HISTORY`) naming the file, or
 * the errno's own code when the disk is full or out of descriptors.
 *
 * @module
 */
import { join } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  writeAllSync,
} from "../../_runtime/fs.ts";
import { errnoOf, mapFsError } from "../../_internal/errno.ts";
import { HashlineError } from "../../errors.ts";
import { lockHistory } from "../_lock.ts";

const encoder = new TextEncoder();

/** What a failure to write history state is refused as. */
export const KEEP = "Cannot keep the edit history";
/** What a failure to read history state is refused as. */
export const READ = "Cannot read the edit history";

/** A failure on history state as a typed server-side error naming the file. */
export function refuse(error: unknown, file: string, what: string): unknown {
  if (error instanceof HashlineError) return error;
  const code = errnoOf(error);
  if (
    code === "ENOSPC" || code === "EDQUOT" || code === "EMFILE" ||
    code === "ENFILE"
  ) return mapFsError(error, what);
  const why = code === "ELOOP"
    ? "is a symlink, not a regular file"
    : code === "EISDIR"
    ? "is a folder, not a regular file"
    : code === "ENOTDIR"
    ? "lies under something that is not a folder"
    : `could not be used (${
      code ?? (error instanceof Error ? error.message : String(error))
    })`;
  return new HashlineError(
    "HISTORY",
    `${what}: ${file} ${why}. Move it aside or fix it, then retry.`,
  );
}

/** Makes the history folder (and those above it), refusing as {@link refuse} does. */
export function ensureFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw refuse(error, dir, KEEP);
  }
}

/**
 * Opens the log at `file`, to append (made when missing) or to read: null
 * when reading and there is none; `HISTORY` when it is not a regular file.
 *
 * @returns The descriptor with the inode and size it had when opened.
 */
export function openLogFile(
  file: string,
  write: boolean,
): { fd: number; ino: number; size: number } | null {
  const flags =
    (write
      ? constants.O_RDWR | constants.O_CREAT | constants.O_APPEND
      : constants.O_RDONLY) | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const what = write ? KEEP : READ;
  let fd: number;
  try {
    fd = openSync(file, flags, 0o644);
  } catch (error) {
    if (!write && errnoOf(error) === "ENOENT") return null;
    throw refuse(error, file, what);
  }
  let opened: { fd: number; ino: number; size: number } | null = null;
  try {
    const st = fstatSync(fd);
    // A hard link planted at the log's name would have appends land in a
    // file outside the state folder (docs/workspace.md "State folder").
    if (st.isFile() && st.nlink === 1) {
      opened = { fd, ino: st.ino, size: st.size };
    }
  } catch {
    // Judged below as not regular.
  }
  if (opened === null) {
    closeSync(fd);
    throw new HashlineError(
      "HISTORY",
      `${what}: ${file} is not a regular file with one name (a FIFO, device, socket, folder or hard link). Move it aside, then retry.`,
    );
  }
  return opened;
}

/**
 * Writes a framed line at the end of the log at `fd`, `size` bytes long,
 * on a fresh line after a torn record (`cleanEnd`: the log is known to end
 * with a newline, so the last byte need not be read).
 *
 * @returns Where the line starts, its length and the bytes written.
 */
export function writeLine(
  fd: number,
  size: number,
  line: string,
  cleanEnd: boolean,
): { offset: number; length: number; written: number } {
  let prefix = "";
  if (size > 0 && !cleanEnd) {
    const last = new Uint8Array(1);
    readSync(fd, last, 0, 1, size - 1);
    // A torn last record: the new one starts on its own line.
    if (last[0] !== 10) prefix = "\n";
  }
  const bytes = encoder.encode(prefix + line);
  writeAllSync(fd, bytes);
  return {
    offset: size + prefix.length,
    length: bytes.length - prefix.length,
    written: bytes.length,
  };
}

/**
 * Takes the history lock of `dir`, making the folder first unless `made`
 * (or again, when it was removed since); a failure is refused as one to
 * keep the history, naming the lock file.
 *
 * @returns Releases the lock.
 */
export async function lockFolder(
  dir: string,
  made: boolean,
  before?: () => void,
): Promise<() => void> {
  if (!made) ensureFolder(dir);
  // Judged before the lock file is made inside the folder.
  before?.();
  try {
    try {
      return await lockHistory(dir);
    } catch (error) {
      // The folder was removed since this process made it: made again.
      if (errnoOf(error) !== "ENOENT") throw error;
      ensureFolder(dir);
      return await lockHistory(dir);
    }
  } catch (error) {
    throw refuse(error, join(dir, "lock"), KEEP);
  }
}
