/**
 * Exact string replacement in a workspace file (the `str_replace` edit format).
 *
 * @module
 */
import type { PatchOutcome, WorkspacePort } from "./_ports.ts";

/** One replacement request. */
export interface StrReplaceRequest {
  path: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
  session: string;
}

/** Applies the replacement (placeholder until the workspace lands). */
export function strReplaceInWorkspace(
  _workspace: WorkspacePort,
  _request: StrReplaceRequest,
): Promise<PatchOutcome> {
  return Promise.reject(new Error("not yet available"));
}
