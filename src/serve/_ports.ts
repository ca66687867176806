/**
 * The narrow views of a workspace and a revision store that the serving
 * layer uses. Declared structurally so the tool registry and the HTTP app
 * accept the real objects and any stand-in with the same methods.
 *
 * @module
 */
import type { Patch, PatchOp } from "../patch/types.ts";

/** A window of a file as anchored lines. */
export interface FileView {
  path: string;
  text: string;
  totalLines: number;
  startLine: number;
  endLine: number;
  nextOffset: number | null;
}

/** One file of a patch result. */
export interface PatchedFile {
  path: string;
  added: number;
  removed: number;
  created?: boolean;
  anchors?: string;
  diff?: string;
}

/** What a workspace patch reports. */
export interface PatchOutcome {
  dryRun: boolean;
  files: PatchedFile[];
  summary: string;
}

/** Files on disk under one root (see `openWorkspace`). */
export interface WorkspacePort {
  read(
    path: string,
    options?: { offset?: number; limit?: number; session?: string },
  ): Promise<FileView>;
  patch(
    patch: Patch | string | object,
    options?: { dryRun?: boolean; session?: string },
  ): Promise<PatchOutcome>;
  write(
    path: string,
    content: string,
    options?: { session?: string },
  ): Promise<unknown>;
}

/** A ref and its short handle. */
export interface RevisionId {
  ref: string;
  handle: string;
}

/** A bounded window of a stored source. */
export interface SourceWindow {
  found: boolean;
  code: string;
  offset: number;
  nextOffset: number | null;
  totalChars: number;
}

/** A new revision made by an edit or a patch. */
export interface RevisionEdit extends RevisionId {
  parentRef: string;
  diff: string;
  diffTruncated: boolean;
}

/** One string replacement of a source edit. */
export interface SourceEdit {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** Content-addressed sources (see `openFileStore`, `createMemoryStore`). */
export interface StorePort {
  put(source: string): RevisionId | Promise<RevisionId>;
  get(refOrHandle: string): string | Promise<string>;
  resolve(refOrHandle: string): RevisionId | Promise<RevisionId>;
  source(
    refOrHandle: string,
    options?: { query?: string; offset?: number; limit?: number },
  ): SourceWindow | Promise<SourceWindow>;
  edit(
    refOrHandle: string,
    edits: SourceEdit[],
  ): RevisionEdit | Promise<RevisionEdit>;
  patch(
    refOrHandle: string,
    patch: PatchOp[] | Patch | string,
  ): RevisionEdit | Promise<RevisionEdit>;
  exportTo(
    refOrHandle: string,
    filePath: string,
  ):
    | { path: string; ref: string; bytes: number }
    | Promise<{ path: string; ref: string; bytes: number }>;
}
