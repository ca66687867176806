/**
 * Loading (docs/workspace.md): a file read whole and decoded as text, with
 * the identity it had, and the check right before a rename that it still
 * holds exactly those bytes. Files past the streaming threshold are loaded
 * by one scanning pass instead (`_stream_patch.ts`).
 *
 * @module
 */
import type { FileHandle } from "../_runtime/fs.ts";
import type { FileIdentity, Target } from "./_confine.ts";
import { readWhole, sameBytes } from "./_io.ts";
import type { Pin } from "./_pin.ts";
import { fileText } from "./_text.ts";

/** A file loaded whole. */
export interface Loaded {
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its identity when read. */
  id: FileIdentity;
  /** Its text (BOM kept as U+FEFF). */
  text: string;
}

/**
 * Reads a whole file and decodes it as text.
 *
 * @throws {BinaryContentError} When it is not UTF-8 text.
 */
export async function loadWhole(target: Target): Promise<Loaded> {
  const { bytes, id } = await readWhole(target);
  return { bytes, id, text: fileText(target.display, bytes) };
}

/** Whether the file, read through `pin`, still holds exactly `bytes`. */
export async function stillHolds(
  target: Target,
  bytes: Uint8Array,
  pin: Pin,
): Promise<boolean> {
  try {
    return sameBytes((await readWhole(target, pin)).bytes, bytes);
  } catch {
    return false;
  }
}

/** Writes all of `bytes` to an open file. */
export async function writeAll(
  handle: FileHandle,
  bytes: Uint8Array,
): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
    at += bytesWritten;
  }
}
