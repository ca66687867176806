/**
 * The content half of the last check before a rename (docs/workspace.md
 * "Writing"): the target, read again through the folder the rename goes
 * through, still holds exactly the bytes the new content was built from.
 *
 * The file is compared a chunk at a time through one reused buffer, never
 * read whole: for a big file a second whole copy beside the one the commit
 * already holds would double what the commit keeps in memory at its last
 * step (tests/commit/still_holds.test.ts).
 *
 * @module
 */
import { basename } from "node:path";
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readSync,
} from "../_runtime/fs.ts";
import type { Target } from "../fs/confine.ts";
import { borrowBuffer, returnBuffer, sameBytes } from "../fs/io.ts";
import type { Pin } from "../fs/pin.ts";

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW |
  constants.O_NONBLOCK;

/**
 * Whether the file at `target`, opened through `pin` without following a
 * symlink, is still the file validated (same device and inode) and holds
 * exactly `bytes`; false, never an error, when it cannot be opened or read.
 *
 * @param target The checked target (its `stat` names the file validated).
 * @param bytes The content it must hold.
 * @param pin The target's folder, pinned by the commit.
 * @returns Whether it holds them.
 */
export function stillHolds(
  target: Target,
  bytes: Uint8Array,
  pin: Pin,
): boolean {
  let fd: number;
  try {
    fd = openSync(pin.path(basename(target.real)), READ_FLAGS);
  } catch {
    return false;
  }
  const chunk = borrowBuffer();
  try {
    const st = fstatSync(fd);
    const want = target.stat;
    if (!st.isFile() || st.size !== bytes.length) return false;
    if (want && (st.dev !== want.dev || st.ino !== want.ino)) return false;
    let at = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      // The end of the file, or bytes past the length expected (it grew
      // since its status was taken).
      if (n === 0) return at === bytes.length;
      if (at + n > bytes.length) return false;
      if (!sameBytes(chunk.subarray(0, n), bytes.subarray(at, at + n))) {
        return false;
      }
      at += n;
    }
  } catch {
    return false;
  } finally {
    returnBuffer(chunk);
    closeSync(fd);
  }
}
