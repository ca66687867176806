/**
 * Writing files all-or-nothing, through pinned folders (docs/workspace.md
 * "Writing"): {@link commitFiles} picks one commit path for its input and
 * runs it. Each path has its own file behind one contract (`contract.ts`):
 *
 * - `one_file.ts`: one file, no history entry; no journal;
 * - `logged.ts`: one file whose history record is its journal;
 * - `journaled.ts`: one file with its entry, journaled (an undo that removes
 *   the file it made);
 * - `many.ts`: several files, or folders to make or tidy, journaled.
 *
 * @module
 */
import { basename } from "node:path";
import { processId } from "../_runtime/process.ts";
import type { Confinement } from "../fs/confine.ts";
import type {
  CommitHooks,
  CommitJob,
  CommitPath,
  CommitRecord,
  Landed,
} from "./contract.ts";
import { journaled } from "./journaled.ts";
import { logged } from "./logged.ts";
import { many } from "./many.ts";
import { oneFile } from "./one_file.ts";
import {
  foldersToMake,
  randomId,
  type Side,
  sideName,
  type StageEntry,
} from "./stage.ts";

export type { CommitHooks, CommitRecord, Landed } from "./contract.ts";
export type { StageEntry } from "./stage.ts";
export { commitsFlushed } from "./flush.ts";

/**
 * Names of the steps of a commit of several files (existing marks the files
 * that already exist; history, that an entry is committed with them), in
 * order; a one-file commit has the steps `temp-0`, `staged`, `checked`,
 * `rename-0`, `done`, and with history `history` (its entry appended, as
 * its journal) between `staged` and `checked`. A commit that makes folders
 * (a file in a missing folder) takes the steps of a commit of several
 * files, whose journal names the folders before they are made.
 *
 * @param existing Whether each file exists before the commit.
 * @param history Whether a history entry is committed with them.
 * @returns The step names, in order.
 */
export function commitSteps(existing: boolean[], history = false): string[] {
  if (existing.length === 1 && !history) {
    return ["temp-0", "staged", "checked", "rename-0", "done"];
  }
  if (existing.length === 1) {
    return ["temp-0", "staged", "history", "checked", "rename-0", "done"];
  }
  const steps = ["journal-staging"];
  existing.forEach((_, i) => steps.push(`temp-${i}`));
  steps.push("staged", "checked");
  existing.forEach((e, i) => e && steps.push(`backup-${i}`));
  steps.push("journal-committing");
  existing.forEach((_, i) => steps.push(`rename-${i}`));
  if (history) steps.push("history");
  steps.push("renamed", "cleaned", "done");
  return steps;
}

/**
 * Writes every entry's new content to its target, all or none. The caller
 * holds the files' locks.
 *
 * @param stateDir The state folder (the journal of a journaled commit goes in `journal/`).
 * @param confinement The root the targets lie under.
 * @param entries The files.
 * @param hooks Test seams run after each step.
 * @param history The history entry to commit with them.
 * @param alongside Work to run before any target is replaced: a one-file
 *   commit runs it while the new content flushes, others before they
 *   start. When it throws, nothing is written and the error is the commit's.
 * @param tidy Folders (real paths) to remove when empty once the commit
 *   landed; the commit is then journaled, and its journal kept until the
 *   caller, its locks released, runs what this returns.
 * @returns What removes `tidy`'s empty folders and then the journal (a
 *   no-op without `tidy`).
 * @throws {PatchRefusedError} `CHANGED` when a file changed since it was validated.
 */
export async function commitFiles(
  stateDir: string,
  confinement: Confinement,
  entries: StageEntry[],
  hooks: CommitHooks = {},
  history?: CommitRecord,
  alongside: () => Promise<void> = async () => {},
  tidy: string[] = [],
): Promise<Landed> {
  const root = confinement.rootRef;
  const targets = entries.map((e) => e.target.real);
  const common = {
    stateDir,
    root,
    id: randomId(),
    step: async (name: string): Promise<void> => {
      await hooks.afterStep?.(name, targets);
    },
    alongside,
    dirs: foldersToMake(root, entries),
    tidy,
  };
  const run = <H>(path: CommitPath<H>, record: H): Promise<Landed> => {
    const job: CommitJob<H> = {
      ...common,
      sides: sidesOf(entries, path, common.id),
      history: record,
    };
    return path.run(job);
  };
  if (entries.length > 1 || common.dirs.length > 0 || tidy.length > 0) {
    return await run(many, history);
  }
  if (!history) return await run(oneFile, undefined);
  const appendPending = history.appendPending;
  if (appendPending && !entries[0].remove) {
    return await run(logged, {
      appendPending: (commit) => appendPending.call(history, commit),
    });
  }
  return await run(journaled, history);
}

/** Each entry with the names its path gives its temporary and backup. */
function sidesOf(
  entries: readonly StageEntry[],
  path: Pick<CommitPath<never>, "temps" | "backups">,
  id: string,
): Side[] {
  const pid = processId();
  return entries.map((entry) => {
    const name = basename(entry.target.real);
    return {
      entry,
      name,
      temp: sideName(name, pid, id, path.temps),
      backup: path.backups && entry.target.exists
        ? sideName(name, pid, id, "old")
        : null,
    };
  });
}
