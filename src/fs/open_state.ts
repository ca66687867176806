/**
 * Opening a file of the state folder where it stands (docs/workspace.md
 * "State folder"): a state folder may come with the repository, so a name
 * in it may hold a symlink or a FIFO put there on purpose. The open never
 * follows a symlink at the name (it fails with `ELOOP`) and never waits on
 * a FIFO; the caller then checks with `fstat` what it opened.
 *
 * @module
 */
import { constants, openSync } from "../_runtime/fs.ts";

const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const UPDATE = constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Opens an existing file of the state folder without following a symlink
 * at its name and without blocking.
 *
 * @param path The state file.
 * @param update Open it to write in place too (default: to read only).
 * @returns The descriptor; the caller closes it.
 * @throws The file system's error: `ENOENT` when there is none, `ELOOP`
 *   when the name holds a symlink.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closeSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { openStateFile } from "./open_state.ts";
 *
 * const dir = mkdtempSync(join(tmpdir(), "hashline-open-state-"));
 * writeFileSync(join(dir, "next"), "{}");
 * closeSync(openStateFile(join(dir, "next")));
 * symlinkSync(join(dir, "next"), join(dir, "link"));
 * assert.throws(
 *   () => openStateFile(join(dir, "link")),
 *   (e: unknown) => (e as { code?: string }).code === "ELOOP",
 * );
 * ```
 */
export function openStateFile(path: string, update = false): number {
  return openSync(path, update ? UPDATE : READ);
}
