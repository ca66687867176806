/**
 * Export of a revision to a new file inside the workspace root.
 *
 * @module
 */
import type { ExportResult, RevisionStore } from "../store/types.ts";
import type { WorkspacePort } from "./_ports.ts";

/** Writes the revision to a new file (placeholder until the workspace lands). */
export function exportToWorkspace(
  _workspace: WorkspacePort,
  _store: RevisionStore,
  _ref: string,
  _path: string,
  _session: string,
): Promise<ExportResult> {
  return Promise.reject(new Error("not yet available"));
}
