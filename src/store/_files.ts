/**
 * Export to and import from files outside the store.
 *
 * @module
 */
import { resolve } from "node:path";
import { open, unlink } from "../_runtime/fs.ts";
import type { FileHandle } from "../_runtime/file_handle.ts";
import { IMPORT_OPEN_FLAGS } from "../_runtime/open.ts";
import { errnoOf, mapFsError } from "../_internal/errno.ts";
import {
  EditRefusedError,
  NotAFileError,
  NotFoundError,
  TooLargeError,
} from "../errors.ts";
import { MAX_SOURCE_BYTES } from "./limits.ts";
import { describe } from "./_ref.ts";
import { sourceText } from "./_utf8.ts";

/**
 * Writes bytes to a file that must not exist yet (exclusive create, then
 * flush), so an existing file is never touched.
 *
 * @param filePath Where to write.
 * @param bytes What to write.
 * @returns The absolute path written.
 * @throws {EditRefusedError} `EXISTS` when anything is at that path already.
 * @throws {NotFoundError} The folder does not exist.
 */
export async function writeNewFile(
  filePath: unknown,
  bytes: Uint8Array,
): Promise<string> {
  const path = checkPath(filePath);
  let handle;
  try {
    handle = await open(path, "wx", 0o644);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "EEXIST") {
      throw new EditRefusedError(
        `${path} already exists; export never overwrites a file. Choose a new path, or move the existing file away first.`,
        "EXISTS",
      );
    }
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new NotFoundError(
        `Cannot create ${path}: its folder does not exist.`,
      );
    }
    throw e;
  }
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => {});
    // The file is ours (created exclusively above); a half-written one must not stay.
    await unlink(path).catch(() => {});
    throw e;
  }
  await handle.close();
  return path;
}

/**
 * Reads a file as source text for the store, opened as the workspace opens
 * files: a symlink is not followed and a FIFO is not waited on; whether it
 * is a regular file, and its size, are judged on the opened handle, and the
 * bytes come through that same handle, never more than the limit (a file
 * swapped or grown after the check cannot make it load more).
 *
 * @param filePath The file.
 * @returns Its text.
 * @throws {NotFoundError} No such file.
 * @throws {NotAFileError} A symlink, folder, FIFO, device or socket.
 * @throws {TooLargeError} Over 1 MiB.
 * @throws {BinaryContentError} Not UTF-8 text.
 */
export async function readSourceFile(filePath: unknown): Promise<string> {
  const path = checkPath(filePath);
  const what = `Cannot import ${path}`;
  let handle: FileHandle;
  try {
    handle = await open(path, IMPORT_OPEN_FLAGS);
  } catch (e) {
    const code = errnoOf(e);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new NotFoundError(`${what}: no such file.`);
    }
    if (code === "ELOOP") {
      throw new NotAFileError(
        `${what}: it is a symbolic link, which import does not follow. Import the file it points to.`,
      );
    }
    throw mapFsError(e, what);
  }
  try {
    let info;
    try {
      info = await handle.stat();
    } catch (e) {
      throw mapFsError(e, what);
    }
    if (!info.isFile()) {
      throw new NotAFileError(
        `${what}: it is ${
          info.isDirectory()
            ? "a folder"
            : "not a regular file (a FIFO, device or socket)"
        }. Import a regular file.`,
      );
    }
    if (info.size > MAX_SOURCE_BYTES) {
      throw tooLarge(path, `${info.size} bytes`);
    }
    // The buffer never grows past one byte over the limit, which tells a
    // file that grew since the check; the stat'ed size is only a first guess.
    let bytes = new Uint8Array(info.size + 1);
    let got = 0;
    try {
      for (;;) {
        if (got === bytes.length) {
          if (got > MAX_SOURCE_BYTES) break;
          const grown = new Uint8Array(
            Math.min(bytes.length * 2 + 4096, MAX_SOURCE_BYTES + 1),
          );
          grown.set(bytes);
          bytes = grown;
        }
        const { bytesRead } = await handle.read(
          bytes,
          got,
          bytes.length - got,
          got,
        );
        if (bytesRead === 0) break;
        got += bytesRead;
      }
    } catch (e) {
      throw mapFsError(e, what);
    }
    if (got > MAX_SOURCE_BYTES) {
      throw tooLarge(
        path,
        `over ${MAX_SOURCE_BYTES} bytes (it grew while read)`,
      );
    }
    return sourceText(bytes.subarray(0, got), path);
  } finally {
    await handle.close().catch(() => {});
  }
}

function tooLarge(path: string, size: string): TooLargeError {
  return new TooLargeError(
    `${path} is ${size}; the store takes at most ${MAX_SOURCE_BYTES} bytes (1 MiB) per source. Edit it in place with a hashline patch instead.`,
  );
}

function checkPath(filePath: unknown): string {
  if (
    typeof filePath !== "string" || filePath === "" || filePath.includes("\0")
  ) {
    throw new TypeError(
      `filePath must be a non-empty path without NUL bytes, got ${
        typeof filePath === "string"
          ? JSON.stringify(filePath)
          : describe(filePath)
      }.`,
    );
  }
  return resolve(filePath);
}
