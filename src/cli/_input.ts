/**
 * Reading a command's input: a named file (resolved against the caller's
 * folder) or, only when the name is `-`, standard input. Input is decoded
 * strictly: bytes that are not UTF-8 text are refused, never replaced.
 *
 * @module
 */
import { readFile, stat } from "../_runtime/fs.ts";
import { sourceText } from "../store/_utf8.ts";
import type { CliContext } from "./_context.ts";

function errno(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Reads the input a command names, as text.
 *
 * @param ctx The command's context.
 * @param name A path relative to the caller's folder, or `-` for standard input.
 * @param what What the input is, for messages (`the patch`).
 * @returns The text.
 * @throws {TypeError} When the file does not exist or is a folder.
 * @throws {BinaryContentError} When the bytes are not UTF-8 text.
 */
export async function readInput(
  ctx: CliContext,
  name: string,
  what: string,
): Promise<string> {
  if (name === "-") {
    return sourceText(await ctx.stdin(), `Standard input (${what})`);
  }
  const path = ctx.path(name);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = errno(error);
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new TypeError(
        `Cannot read ${what} from "${name}": there is no such file (looked for ${path}).`,
      );
    }
    if (code === "EISDIR") {
      throw new TypeError(
        `Cannot read ${what} from "${name}": it is a folder; name a file, or - for standard input.`,
      );
    }
    throw error;
  }
  return sourceText(bytes, `The file "${name}" (${what})`);
}

/**
 * The size of a file, or undefined when there is none (or it cannot be seen).
 *
 * @param path An absolute path.
 * @returns Its size in bytes.
 */
export async function fileSize(path: string): Promise<number | undefined> {
  try {
    const s = await stat(path);
    return s.isFile() ? s.size : undefined;
  } catch {
    return undefined;
  }
}
