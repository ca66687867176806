/**
 * Export of a revision to a new file of the workspace. The bytes come from
 * the store (re-hashed against the ref on the way out) and go in through the
 * workspace's exclusive create, so the path is confined to the root by the
 * same checks as every other write, and an existing file is never
 * overwritten, even by a race.
 *
 * @module
 */
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";

/** What an export wrote. */
export interface ExportedRevision {
  /** The revision written (full ref). */
  ref: string;
  /** Root-relative path of the new file, with `/` separators. */
  path: string;
  /** Bytes written. */
  bytes: number;
}

/**
 * Writes a revision to a new file of the workspace.
 *
 * @param workspace Where the file goes.
 * @param store Where the revision is.
 * @param refOrHandle The revision.
 * @param path The new file, relative to the workspace root.
 * @param session Whose read record the new file enters.
 * @returns The full ref, the root-relative path and the bytes written.
 * @throws {NotFoundError} Unknown ref or handle.
 * @throws {EditRefusedError} `EXISTS` when a file is there (it is left as it was).
 * @throws {OutsideRootError} The path leads outside the root.
 * @throws {DeniedError} The path is under `.git/`, a `.hashline` folder, or a `deny` glob.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, readFile, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { openWorkspace } from "../workspace/mod.ts";
 * import { exportToWorkspace } from "./export.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-doc-"));
 * const store = createMemoryStore();
 * const { handle } = await store.put("one\n");
 * const ws = openWorkspace(dir, { persistSessions: false });
 * const out = await exportToWorkspace(ws, store, handle, "out/one.txt", "default");
 * assert.equal(out.path, "out/one.txt");
 * assert.equal(await readFile(join(dir, "out/one.txt"), "utf8"), "one\n");
 * await rm(dir, { recursive: true });
 * ```
 */
export async function exportToWorkspace(
  workspace: Workspace,
  store: RevisionStore,
  refOrHandle: string,
  path: string,
  session: string,
): Promise<ExportedRevision> {
  const { ref } = await store.resolve(refOrHandle);
  const source = await store.get(ref);
  const written = await workspace.create(path, source, { session });
  return {
    ref,
    path: written.path,
    bytes: new TextEncoder().encode(source).length,
  };
}
