/**
 * One file with its history entry, the entry its journal (docs/workspace.md
 * "Writing"): staged like a one-file commit (flushed in the worker pool
 * meanwhile), then the entry is appended to the log naming the target, the
 * temporary and its inode; the rename waits for both flushes. A crash
 * before the append leaves only a temporary; after it and before the
 * rename, a record whose temporary is still there, which recovery voids;
 * after the rename, the edit with its entry. A check that fails before the
 * rename voids the record.
 *
 * Content held in memory (up to {@link LOGGED_FINISH_MAX}) on a host whose
 * boot the kernel names (Linux) is answered for at its rename, with one
 * round of flushes instead of two: the record also names the digests of
 * the content staged and of the content replaced, and the folder is
 * flushed beside the temporary and the log, so the temporary's name is
 * kept too. If the host stops before the folder holding the rename reaches
 * the disk, the restart may bring back the old file and the temporary;
 * recovery then finishes the commit from them (`recoverLogged`,
 * src/commit/recover.ts).
 *
 * @module
 */
import { bootIdExact } from "../_runtime/host.ts";
import { sha256Hex } from "../_internal/sha256.ts";
import { mapFsError } from "../_internal/errno.ts";
import type { CommitPath, Landed, LoggedRecord } from "./contract.ts";
import type { PendingEntry } from "./types.ts";
import { flushFolder, flushFolderNow, type OpenTemp } from "./flush.ts";
import { checkIdentity, install, recheck } from "./install.ts";
import { pinSide, removeQuietly, type Staged, stageOne } from "./stage.ts";

/** The largest content a logged commit answers for before its rename is flushed (hashing more costs more than the flush). */
const LOGGED_FINISH_MAX = 1024 * 1024;

/** The commit of one file whose history record is its journal. */
export const logged: CommitPath<LoggedRecord> = {
  temps: "one",
  backups: false,
  async run(
    { root, sides: [side], step, history, alongside },
  ): Promise<Landed> {
    const s: Staged = pinSide(root, side);
    let handedOff = false;
    try {
      handedOff = await commitLogged(s, step, history, alongside);
      await step("done");
    } finally {
      if (!handedOff) s.pin.close();
    }
    return () => {};
  },
};

/** The logged commit of `s` up to its rename; whether its pin went to the folder's flush. */
async function commitLogged(
  s: Staged,
  step: (name: string) => Promise<void>,
  history: LoggedRecord,
  alongside: () => Promise<void>,
): Promise<boolean> {
  const display = s.entry.target.display;
  let newIno: number | null = null;
  let temp: OpenTemp | null = null;
  let pending: PendingEntry | null = null;
  let folder: Promise<void> | null = null;
  try {
    const digests = await finishDigests(s);
    ({ ino: newIno, temp } = await stageOne(s));
    await step("temp-0");
    await step("staged");
    // Appended before the temporary's flush starts: the history lock's file
    // is made and removed before the file system is busy flushing, and the
    // flushes then run side by side, beside the last checks.
    pending = await history.appendPending({
      target: s.entry.target.real,
      temp: s.temp,
      newIno,
      ...digests,
    });
    temp?.flush();
    if (digests.after !== undefined) folder = flushFolder(s.pin);
    await step("history");
    await alongside();
    recheck(s);
    await step("checked");
    await temp?.flushed();
    await pending.flushed;
    await folder;
    await temp?.close();
    checkIdentity(s);
    install(s);
  } catch (error) {
    await temp?.close();
    // Its handle is the pin's, which the caller closes.
    await folder;
    let cancelled = true;
    if (pending) {
      try {
        await pending.cancel();
      } catch {
        // The temporary stays: once this process is gone, recovery finds
        // it beside its never-renamed target and voids the entry.
        cancelled = false;
      }
    }
    if (cancelled) removeQuietly(s.pin, s.temp);
    throw mapFsError(error, `Cannot write "${display}"`);
  }
  await step("rename-0");
  // Without the digests the answer waits for the rename to be flushed.
  return folder ? false : flushFolderNow(s.pin);
}

/**
 * The digests a logged commit's record names so that recovery after a
 * restart can finish it; none (the answer then waits for a second flush)
 * for content not held in memory, content larger than
 * {@link LOGGED_FINISH_MAX}, or a host without the kernel's boot id.
 */
async function finishDigests(
  s: Staged,
): Promise<{ after?: string; before?: string | null }> {
  const { bytes, old, target } = s.entry;
  if (!bytes || !bootIdExact()) return {};
  if (target.exists && !old) return {};
  if (bytes.length + (old?.length ?? 0) > LOGGED_FINISH_MAX) return {};
  const [after, before] = await Promise.all([
    sha256Hex(bytes),
    old ? sha256Hex(old) : null,
  ]);
  return { after, before };
}
