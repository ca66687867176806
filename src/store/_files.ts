/**
 * Export to and import from files outside the store.
 *
 * @module
 */
import { resolve } from "node:path";
import { open, readFile, stat, unlink } from "../_runtime/fs.ts";
import { EditRefusedError, NotFoundError, TooLargeError } from "../errors.ts";
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
 * Reads a file as source text for the store.
 *
 * @param filePath The file.
 * @returns Its text.
 * @throws {NotFoundError} No such file.
 * @throws {TypeError} Not a regular file.
 * @throws {TooLargeError} Over 1 MiB.
 * @throws {BinaryContentError} Not UTF-8 text.
 */
export async function readSourceFile(filePath: unknown): Promise<string> {
  const path = checkPath(filePath);
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new NotFoundError(`Cannot import ${path}: no such file.`);
    }
    throw e;
  }
  if (!info.isFile()) {
    throw new TypeError(`Cannot import ${path}: it is not a regular file.`);
  }
  if (info.size > MAX_SOURCE_BYTES) {
    throw new TooLargeError(
      `${path} is ${info.size} bytes; the store takes at most ${MAX_SOURCE_BYTES} bytes (1 MiB) per source. Edit it in place with a hashline patch instead.`,
    );
  }
  const bytes = new Uint8Array(await readFile(path));
  if (bytes.length > MAX_SOURCE_BYTES) {
    throw new TooLargeError(
      `${path} is ${bytes.length} bytes; the store takes at most ${MAX_SOURCE_BYTES} bytes (1 MiB) per source.`,
    );
  }
  return sourceText(bytes, path);
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
