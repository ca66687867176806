/**
 * The tool registry that MCP, the HTTP app and agent frameworks share: tool
 * definitions (name, description, JSON Schema generated from zod, handler)
 * over a workspace and a revision store, and a system-prompt snippet that
 * teaches a model the edit format in use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "./tools.ts";
 * const registry = createToolRegistry({ store: createMemoryStore() });
 * const put = await registry.call("source_put", { source: "a\nb\n" });
 * assert.ok(put.ok);
 * ```
 *
 * @module
 */
import type { Problem } from "../errors.ts";
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { buildRegistry } from "./_tool_defs.ts";

/** How `edit_file` edits: anchored hashline patches, or exact string replacement. */
export type EditFormat = "hashline" | "str_replace";

export type { Workspace };

/** What the tools work on. Tools whose backing is absent are left out of the registry. */
export interface ToolContext {
  /** Files on disk (`read_file`, `edit_file`, `write_file`, and with a store `source_export`). */
  workspace?: Workspace;
  /** Revision store (`source_put`, `source_read`, `source_edit`, `source_patch`, `source_export`). */
  store?: RevisionStore;
  /** Edit format (default `"hashline"`). */
  editFormat?: EditFormat;
  /** Session whose reads count, when a call names none (default `"default"`). */
  session?: string;
}

/** Per-call options. */
export interface ToolCallOptions {
  /** Session whose reads count for this call (e.g. an MCP session id). */
  session?: string;
}

/** What a failed call reports. */
export interface ToolError {
  /** Stable upper-snake code (`BAD_INPUT`, `STALE_ANCHOR`, `NOT_READ`, `NO_MATCH`, `UNKNOWN_TOOL`, …). */
  code: string;
  /** A sentence the model can act on. */
  message: string;
  /** Every problem of a refused patch. */
  problems?: Problem[];
}

/** A call that did what was asked: `text` for the model, `data` for programs. */
export interface ToolSuccess {
  ok: true;
  text: string;
  data: unknown;
}

/** A call that was refused or had bad input; nothing was written. */
export interface ToolFailure {
  ok: false;
  error: ToolError;
}

/** The outcome of a tool call; calls never throw. */
export type ToolResult = ToolSuccess | ToolFailure;

/** One tool, in the shape MCP and model APIs expect. */
export interface ToolDefinition {
  /** Tool name (`read_file`, `edit_file`, …). */
  name: string;
  /** Instructions for the model. */
  description: string;
  /** JSON Schema (an object schema) of the input. */
  inputSchema: Record<string, unknown>;
  /** Runs the tool; never throws — refusals and bad input come back as `ok: false`. */
  handler(input: unknown, call?: ToolCallOptions): Promise<ToolResult>;
}

/** The tools over one workspace and store. */
export interface ToolRegistry {
  /** Tool definitions, in a stable order. */
  tools: ToolDefinition[];
  /** The edit format in use. */
  editFormat: EditFormat;
  /** A system-prompt snippet that teaches a model the tools and the edit format. */
  systemPrompt: string;
  /** The tool of that name, if present. */
  get(name: string): ToolDefinition | undefined;
  /** Calls a tool by name; an unknown name is an `UNKNOWN_TOOL` failure, never a throw. */
  call(
    name: string,
    input: unknown,
    call?: ToolCallOptions,
  ): Promise<ToolResult>;
}

/**
 * Creates the tool registry over a workspace and/or a revision store.
 *
 * @param context The workspace, the store, the edit format and the default session.
 * @returns The registry.
 * @throws {TypeError} When `editFormat` is neither `"hashline"` nor `"str_replace"`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "./tools.ts";
 * const registry = createToolRegistry({ store: createMemoryStore() });
 * assert.deepEqual(registry.tools.map((t) => t.name), [
 *   "source_put", "source_read", "source_edit", "source_patch",
 * ]);
 * const put = await registry.call("source_put", { source: "let a = 1;\n" });
 * assert.ok(put.ok);
 * const ref = (put.data as { handle: string }).handle;
 * const edit = await registry.call("source_edit", {
 *   ref, edits: [{ old_string: "a = 1", new_string: "a = 2" }],
 * });
 * assert.ok(edit.ok);
 * const bad = await registry.call("source_read", { ref: 7 });
 * assert.equal(bad.ok, false);
 * assert.equal(!bad.ok && bad.error.code, "BAD_INPUT");
 * ```
 */
export function createToolRegistry(context: ToolContext = {}): ToolRegistry {
  const editFormat = context.editFormat ?? "hashline";
  if (editFormat !== "hashline" && editFormat !== "str_replace") {
    throw new TypeError(
      `editFormat must be "hashline" or "str_replace", got ${
        JSON.stringify(editFormat)
      }.`,
    );
  }
  const { workspace, store } = context;
  return buildRegistry({
    workspace: workspace ? () => Promise.resolve(workspace) : undefined,
    store: store ? () => Promise.resolve(store) : undefined,
  }, { editFormat, session: context.session ?? "default" });
}
