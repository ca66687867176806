/**
 * Flushing a folder's entries, so that a name just made or renamed in it
 * survives a power cut (docs/safety.md, "Durability"). Best effort: some
 * platforms cannot open or flush a folder, and there the rename or link is
 * still atomic and the file itself was flushed.
 *
 * @module
 */
import { closeSync, constants, fsyncSync, openSync } from "../_runtime/fs.ts";

/**
 * Flushes the folder at `dir`; a failure to open or flush it is ignored.
 *
 * @param dir The folder.
 */
export function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // This platform cannot open or flush a folder (see the module doc).
  }
}
