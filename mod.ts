/**
 * hashline: anchored reads and all-or-nothing patches for AI coding agents.
 *
 * A read shows every line as `LINE:HH|content`, where `HH` folds an FNV-1a
 * hash of the line to two hex digits. A patch names lines by those anchors;
 * before anything is written the file is re-hashed, and a patch with any
 * stale anchor is refused whole with every problem listed. A
 * content-addressed revision store keeps sources under `sha256:` refs and
 * short `p_` handles. One tool registry serves HTTP, MCP and any agent
 * framework.
 *
 * Subpaths: `./hash`, `./patch`, `./workspace`, `./store`, `./tools`,
 * `./app`, `./server`, `./mcp`, `./cli`, `./edge`, `./ai-sdk`, `./openai`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyPatch, formatHashlines, lineHash } from "./mod.ts";
 *
 * const content = "def greet(name):\n    return name\n";
 * assert.equal(lineHash("def greet(name):"), "fb");
 * const view = formatHashlines(content);
 * assert.equal(view.text.split("\n")[0], "1:fb|def greet(name):");
 * const next = applyPatch(content, "= 2:" + lineHash("    return name") + "\n~    return f\"hello {name}\"");
 * assert.equal(next, "def greet(name):\n    return f\"hello {name}\"\n");
 * ```
 *
 * @module
 */

export {
  createLineScanner,
  foldHash,
  type HashEngine,
  hashEngine,
  hashLines,
  hashLines32,
  type LineBatch,
  lineHash,
  lineHash32,
  type LineScanner,
  scanLines,
} from "./src/hash/mod.ts";
export {
  formatAnchor,
  formatHashlines,
  type FormatOptions,
  type HashlineView,
  parseAnchor,
  splitLines,
} from "./src/anchor/mod.ts";
export {
  applyHashlineEdit,
  applyPatch,
  detectDialect,
  type DialectFile,
  type DialectHunk,
  type DialectName,
  type DialectPatch,
  editContent,
  type EditOutcome,
  type FilePatch,
  formatPatchText,
  type HashlineEdit,
  type HashlineEditResult,
  type HunkRow,
  parsePatch,
  type Patch,
  type PatchOp,
  PatchOpSchema,
  PatchSchema,
  type PatchShape,
  type ShapeResult,
  validateOps,
} from "./src/patch/mod.ts";
export { applyBlockPatch } from "./src/check/apply_blocks.ts";
export {
  type BlockAnswer,
  type BlockExpansion,
  type BlockMiss,
  type BlockSource,
  type BlockSpan,
  expandBlocks,
  isBlockAnchor,
  MAX_BLOCK_DEPTH,
  type NodeCursor,
  type NodePoint,
  resolveBlock,
  type StepBudget,
  type SyntaxNode,
} from "./src/block/mod.ts";
export {
  type FileList,
  type FileRead,
  type ListOptions,
  openWorkspace,
  type PatchOptions,
  type PatchResult,
  type ReadOptions,
  type SearchFile,
  type SearchOptions,
  type SearchResult,
  type Workspace,
  type WorkspaceOptions,
} from "./src/workspace/mod.ts";
export {
  createMemoryStore,
  type EditResult,
  openFileStore,
  openPostgresStore,
  type PutResult,
  type RevisionEntry,
  type RevisionStore,
  type SourceRead,
  type StringEdit,
} from "./src/store/mod.ts";
export {
  createToolRegistry,
  type EditFormat,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolRegistry,
  type ToolResult,
} from "./src/tools/mod.ts";
export {
  type AppOptions,
  createApp,
  type HashlineApp,
} from "./src/http/app.ts";
export { type ServerOptions, startServer } from "./src/http/server.ts";
export {
  BinaryContentError,
  DeniedError,
  EditRefusedError,
  ERROR_ADVICE,
  ERROR_CODES,
  type ErrorCode,
  HashlineError,
  IntegrityError,
  NoSpaceError,
  NotAFileError,
  NotFoundError,
  OutsideRootError,
  PatchRefusedError,
  PermissionError,
  type Problem,
  TooLargeError,
} from "./src/errors.ts";
