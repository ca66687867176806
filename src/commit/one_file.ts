/**
 * One file without a history entry (docs/workspace.md "Writing"): its new
 * content staged in a temporary beside it, flushed and given the old
 * file's mode, then renamed over the target right after a last check that
 * the target is still the version validated; the folder is flushed. No
 * journal: a crash leaves the old file and at most a temporary, which the
 * next writer of that file removes.
 *
 * @module
 */
import { mapFsError } from "../_internal/errno.ts";
import type { CommitPath, Landed } from "./contract.ts";
import { flushFolderNow, type OpenTemp } from "./flush.ts";
import { checkIdentity, install, recheck } from "./install.ts";
import { pinSide, removeQuietly, type Staged, stageOne } from "./stage.ts";

/** The commit of one file that no history entry goes with. */
export const oneFile: CommitPath<undefined> = {
  temps: "one",
  backups: false,
  async run({ root, sides: [side], step, alongside }): Promise<Landed> {
    const s: Staged = pinSide(root, side);
    let handedOff = false;
    try {
      // Content held in memory is flushed in the worker pool while the last
      // checks run; the rename waits for the flush.
      let temp: OpenTemp | null = null;
      try {
        // An undo of a creation removes its target: nothing to stage.
        ({ temp } = await stageOne(s));
        temp?.flush();
        await step("temp-0");
        await step("staged");
        await alongside();
        recheck(s);
        await step("checked");
        if (temp) {
          await temp.flushed();
          await temp.close();
          // Checked again after the wait, right before the rename.
          checkIdentity(s);
        }
        install(s);
      } catch (error) {
        await temp?.close();
        removeQuietly(s.pin, s.temp);
        throw mapFsError(error, `Cannot write "${s.entry.target.display}"`);
      }
      await step("rename-0");
      handedOff = flushFolderNow(s.pin);
      await step("done");
    } finally {
      if (!handedOff) s.pin.close();
    }
    return () => {};
  },
};
