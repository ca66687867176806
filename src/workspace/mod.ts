/**
 * Files on disk under one root folder (docs/workspace.md): anchored reads
 * remembered per session, patches validated against the live files and
 * committed to every file or to none, huge files streamed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { openWorkspace } from "./mod.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-doc-"));
 * await writeFile(join(dir, "notes.txt"), "one\ntwo\n");
 * const ws = openWorkspace(dir, { stateDir: join(dir, ".hashline") });
 * assert.equal((await ws.read("notes.txt")).totalLines, 2);
 * await assert.rejects(ws.read("../outside.txt"), { code: "OUTSIDE_ROOT" });
 * await rm(dir, { recursive: true });
 * ```
 *
 * @module
 */

export {
  type FileEdit,
  type FileList,
  type FileRead,
  type ListOptions,
  openWorkspace,
  type PatchOptions,
  type PatchResult,
  type PathInfo,
  type ReadOptions,
  type RecoveryReport,
  type SearchFile,
  type SearchOptions,
  type SearchResult,
  type TextRead,
  type Workspace,
  type WorkspaceOptions,
  type WriteOptions,
  type WriteResult,
} from "./workspace.ts";
// The dialect a result names (docs/patch-format.md#other-dialects).
export type { DialectName } from "../patch/dialects/types.ts";
// The syntax check's option and answer, which the options and results name.
export type { CheckMode, SyntaxCheck, SyntaxIssue } from "../check/mod.ts";
// The types of ws.history, ws.entry and ws.undo.
export type {
  Door,
  EntryDetail,
  EntryFile,
  HistoryEntry,
  HistoryList,
  HistoryQuery,
  UndoOptions,
  UndoResult,
} from "../history/mod.ts";
