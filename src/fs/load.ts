/**
 * Loading (docs/workspace.md): a file read whole and decoded as text, with
 * the identity it had. Files past the streaming threshold are loaded
 * by one scanning pass instead (`src/stream/patch.ts`).
 *
 * @module
 */
import type { FileIdentity, Target } from "./confine.ts";
import { readWhole } from "./io.ts";
import { fileText } from "./text.ts";

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
