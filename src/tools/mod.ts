/**
 * The tool registry that MCP, the HTTP app and agent frameworks share:
 * `read_file`, `edit_file`, `write_file` over a workspace, `source_put`,
 * `source_read`, `source_edit`, `source_patch` over a revision store, and
 * `source_export` with both. Each tool has a title, annotations, and input
 * and output JSON Schemas; calls never throw. `tools: ["files", "store",
 * "history"]` chooses the tool sets offered (default `files`, `store`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "./mod.ts";
 * const registry = createToolRegistry({ store: createMemoryStore() });
 * const put = await registry.call("source_put", { source: "a\nb\n" });
 * assert.ok(put.ok);
 * const view = await registry.call("source_read", { ref: put.data.handle as string, anchors: true });
 * assert.ok(view.ok && view.text.startsWith("1:"));
 * ```
 *
 * @module
 */
export { checkToolSets, createToolRegistry } from "./registry.ts";
export {
  DEFAULT_TOOL_SETS,
  EDIT_FORMATS,
  type EditFormat,
  type ElicitAnswer,
  type JsonSchema,
  type Lazy,
  type LogLevel,
  TOOL_SETS,
  type ToolAnnotations,
  type ToolCallOptions,
  type ToolClient,
  type ToolContext,
  type ToolDefinition,
  type ToolError,
  type ToolFailure,
  type ToolRegistry,
  type ToolResult,
  type ToolSetName,
  type ToolSuccess,
} from "./types.ts";
// The workspace a tool context holds, and the syntax check's option and
// answer its results name, as the workspace's own surface exports them.
export type {
  CheckMode,
  SyntaxCheck,
  SyntaxIssue,
  Workspace,
} from "../workspace/mod.ts";
export {
  MAX_STR_REPLACE_BYTES,
  strReplaceInWorkspace,
  type StrReplaceRequest,
  type StrReplaceResult,
} from "./str_replace.ts";
export { type ExportedRevision, exportToWorkspace } from "./export.ts";
