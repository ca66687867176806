/**
 * Export of a revision to a new file inside the workspace root: the path is
 * checked by the workspace's own confinement, and the store creates the file
 * exclusively, so an existing file is never overwritten, even by a race.
 *
 * @module
 */
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { EditRefusedError, HashlineError, NotFoundError } from "../errors.ts";
import type { ExportResult, RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";

/**
 * Writes a revision to a new file of the workspace.
 *
 * @returns The store's result with `path` relative to the workspace root.
 * @throws {OutsideRootError} The path leads outside the root.
 * @throws {EditRefusedError} `EXISTS` when the file exists (it is left as it was).
 * @throws {NotFoundError} Unknown ref or handle.
 */
export async function exportToWorkspace(
  workspace: Workspace,
  store: RevisionStore,
  ref: string,
  path: string,
  session: string,
): Promise<ExportResult> {
  await store.resolve(ref);
  let exists = true;
  try {
    // A read whose window starts past any real file's end is refused before
    // anything is recorded: it only asks the workspace whether the path is
    // inside the root and whether a file is there.
    await workspace.read(path, {
      offset: Number.MAX_SAFE_INTEGER,
      limit: 1,
      session,
    });
  } catch (error) {
    if (error instanceof NotFoundError) exists = false;
    else if (error instanceof HashlineError && error.code === "OUTSIDE_ROOT") {
      throw error;
    } else if (error instanceof TypeError) throw error;
  }
  if (exists) {
    throw new EditRefusedError(
      `${path} already exists; export never overwrites a file. Choose a new path, or edit the existing file instead.`,
      "EXISTS",
    );
  }
  const target = isAbsolute(path) ? path : join(workspace.root, path);
  const { mkdir } = await import("../_runtime/fs.ts");
  try {
    await mkdir(dirname(target), { recursive: true });
  } catch {
    throw new NotFoundError(
      `Cannot create ${path}: a folder on the way is a file.`,
    );
  }
  const result = await store.exportTo(ref, target);
  const rel = relative(workspace.root, result.path);
  return {
    ...result,
    path: rel && !rel.startsWith("..") && !isAbsolute(rel)
      ? rel.split(sep).join("/")
      : result.path,
  };
}
