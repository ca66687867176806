/**
 * One file, one name per patch (docs/patch-format.md "Rules between the
 * parts"): a patch with file operations or moves that names one real file
 * under two spellings (the file and a symlink to it, or a path through a
 * folder link such as `d -> .`) is refused before any lock is taken, since
 * its parts would stage two commits of the same file.
 *
 * @module
 */
import type { Target } from "../fs/confine.ts";
import { type Problem, refusal } from "./problems.ts";
import type { Patch } from "./types.ts";

/**
 * Refuses two spellings of one file among the paths a patch names.
 * Spellings are compared by the real path each resolves to; a rename
 * onto its own file under another spelling (a case- or
 * normalization-only rename on a file system that folds them) is let
 * through.
 *
 * @param targets Every path the patch names, by the spelling it keeps.
 * @param patch The patch, its paths in those spellings.
 * @throws {PatchRefusedError} `OVERLAP`, naming both spellings.
 */
export function refuseTwoSpellings(
  targets: ReadonlyMap<string, Target>,
  patch: Patch,
): void {
  const renames = new Set(
    patch.files.filter((f) => f.rename !== undefined).map((f) =>
      `${f.path}\n${f.rename}`
    ),
  );
  const first = new Map<string, string>();
  const problems: Problem[] = [];
  for (const [key, t] of targets) {
    // The real path, not the inode: hard links are names of their own,
    // each replaced alone (docs/safety.md "Hard links").
    const id = t.real;
    const other = first.get(id);
    if (other === undefined) {
      first.set(id, key);
      continue;
    }
    if (renames.has(`${other}\n${key}`) || renames.has(`${key}\n${other}`)) {
      continue;
    }
    problems.push({
      code: "OVERLAP",
      path: key,
      message:
        `"${key}" and "${other}" name the same file (through a symlink or a linked folder). Name each file by one path in a patch, then resend.`,
    });
  }
  if (problems.length > 0) throw refusal(problems);
}
