/**
 * Files on disk under one root (docs/workspace.md): anchored reads that the
 * session remembers, and patches validated against the live files and
 * committed all-or-nothing.
 *
 * Every write — a patch, a whole-file write, an undo — runs the one write
 * transaction of `_transaction.ts`: resolve (`src/fs/resolve.ts`) → lock
 * (`_locking.ts`) → load (`src/fs/load.ts`) → plan through `patch/`
 * (`_plan.ts`) → check → commit (`src/commit/commit.ts`, the history entry
 * in the same journal) → record (`src/records/update.ts`); each kind of
 * write adds only its planner. History is listed in
 * `src/history/entries.ts`. This
 * file holds the public type and the wiring.
 *
 * The steps stand on the layers below them, each in its own folder:
 * `fs/` (confinement inside the root, pinned folders, race-proof opens
 * and reads), `lock/` (holder-identity lock files with leases),
 * `stream/` (windowed reads and the one-pass rewrite of huge files),
 * `commit/` (staging beside the target, the journal, installing and
 * recovery) and `records/` (the session's read records on disk).
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { lazy } from "../_internal/lazy.ts";
import type { Patch } from "../patch/types.ts";
import { Context } from "./_context.ts";
import { recover } from "../history/settle.ts";
import { readFile, readText, stat } from "../read/read.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { loadWhole } from "../fs/load.ts";
import type {
  EntryDetail,
  HistoryList,
  HistoryQuery,
  UndoOptions,
  UndoResult,
} from "../history/types.ts";
import type {
  FileList,
  FileRead,
  ListOptions,
  PatchOptions,
  PatchResult,
  PathInfo,
  ReadOptions,
  RecoveryReport,
  SearchOptions,
  SearchResult,
  TextRead,
  Workspace,
  WorkspaceOptions,
  WriteOptions,
  WriteResult,
} from "./types.ts";

export type * from "./types.ts";

// Patches, writes and the history load their steps on first use, so a
// read starts fast.
type Writing = typeof import("./_patch.ts") & typeof import("./_write.ts");
const loadPatch = lazy<typeof import("./_patch.ts")>(
  import.meta.url,
  "./_patch.ts",
);
const loadWrite = lazy<typeof import("./_write.ts")>(
  import.meta.url,
  "./_write.ts",
);
let writing: Promise<Writing> | undefined;
function loadWriting(): Promise<Writing> {
  return writing ??= Promise.all([loadPatch(), loadWrite()])
    .then(([p, w]) => ({ ...p, ...w }));
}
type History =
  & typeof import("../history/entries.ts")
  & typeof import("./_undo.ts");
const loadHistorySteps = lazy<typeof import("../history/entries.ts")>(
  import.meta.url,
  "../history/entries.ts",
);
const loadUndo = lazy<typeof import("./_undo.ts")>(
  import.meta.url,
  "./_undo.ts",
);
// Listings and searches walk the tree with their own steps.
const loadFind = lazy<typeof import("../read/find.ts")>(
  import.meta.url,
  "../read/find.ts",
);
let historySteps: Promise<History> | undefined;
function loadHistory(): Promise<History> {
  return historySteps ??= Promise.all([loadHistorySteps(), loadUndo()])
    .then(([h, u]) => ({ ...h, ...u }));
}

class FileWorkspace implements Workspace {
  private readonly ctx: Context;

  constructor(root: string, options: WorkspaceOptions) {
    this.ctx = new Context(root, options);
  }

  get root(): string {
    return this.ctx.root;
  }

  get stateDir(): string {
    return this.ctx.stateDir;
  }

  get session(): string {
    return this.ctx.session;
  }

  read(path: string, window: ReadOptions = {}): Promise<FileRead> {
    return readFile(this.ctx, path, window);
  }

  async list(options?: ListOptions): Promise<FileList> {
    return (await loadFind()).listFiles(this.ctx, options);
  }

  async search(options: SearchOptions): Promise<SearchResult> {
    return (await loadFind()).searchFiles(this.ctx, options);
  }

  async patch(
    input: Patch | string,
    options?: PatchOptions,
  ): Promise<PatchResult> {
    // The files' grammars load, and their text parses, while the write path does.
    this.ctx.syntax.prime(
      input,
      options?.check,
      (path, maxBytes) => this.current(path, maxBytes),
    );
    return (await loadWriting()).patchFiles(this.ctx, input, options);
  }

  /** A file's text as it stands, for a check to start from (null: none). */
  private async current(
    path: string,
    maxBytes: number,
  ): Promise<string | null> {
    const target = await resolveTarget(this.ctx, path, "read");
    if (!target.exists || (target.stat?.size ?? Infinity) > maxBytes) {
      return null;
    }
    return (await loadWhole(target)).text;
  }

  async write(
    path: string,
    content: string,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    return (await loadWriting()).writeFile(
      this.ctx,
      path,
      content,
      options,
      false,
    );
  }

  async create(
    path: string,
    content: string,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    return (await loadWriting()).createFile(this.ctx, path, content, options);
  }

  stat(path: string): Promise<PathInfo> {
    return stat(this.ctx, path);
  }

  readText(path: string, options: WriteOptions = {}): Promise<TextRead> {
    return readText(this.ctx, path, options);
  }

  async forgetSession(session: string): Promise<void> {
    await this.ctx.records.forget(checkSession(session));
  }

  recover(): Promise<RecoveryReport> {
    return recover(this.ctx);
  }

  async history(query?: HistoryQuery): Promise<HistoryList> {
    return (await loadHistory()).history(this.ctx, query);
  }

  async entry(id: string): Promise<EntryDetail> {
    return (await loadHistory()).entry(this.ctx, id);
  }

  async undo(id: string, options?: UndoOptions): Promise<UndoResult> {
    return (await loadHistory()).undo(this.ctx, id, options);
  }
}

/**
 * Opens the files under one root folder for anchored reads and patches.
 * Returns at once; recovery of a commit that a crash cut short runs before
 * the first operation.
 *
 * @param root The workspace root folder (must exist).
 * @param options Session, state folder, limits.
 * @returns The workspace.
 * @throws {NotFoundError} When the root does not exist or is not a folder.
 * @throws {TypeError} When an option is malformed (such as an unsafe session name).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { openWorkspace } from "./workspace.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-doc-"));
 * await writeFile(join(dir, "app.ts"), "const a = 1;\nconst b = 2;\n");
 * const ws = openWorkspace(dir, { stateDir: join(dir, ".hashline") });
 * const view = await ws.read("app.ts");
 * assert.equal(view.text, "1:8c|const a = 1;\n2:a1|const b = 2;");
 * const result = await ws.patch({
 *   files: [{ path: "app.ts", ops: [{ op: "replace", start: "2:a1", lines: ["const b = 3;"] }] }],
 * });
 * assert.match(result.summary, /^Edited app\.ts \(\+1 -1\)/);
 * assert.equal(await readFile(join(dir, "app.ts"), "utf8"), "const a = 1;\nconst b = 3;\n");
 * await rm(dir, { recursive: true });
 * ```
 */
export function openWorkspace(
  root: string,
  options: WorkspaceOptions = {},
): Workspace {
  if (options === null || typeof options !== "object") {
    throw new TypeError("Cannot open workspace: options must be an object.");
  }
  return new FileWorkspace(root, options);
}
