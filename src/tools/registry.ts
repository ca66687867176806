/**
 * The tool registry that MCP, the HTTP app and agent frameworks share: tool
 * definitions (name, title, description, input and output JSON Schemas
 * generated from zod, annotations, handler) over a workspace and a revision
 * store, and a system-prompt snippet that teaches a model the edit format in
 * use. It is the only way a registry is built.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { checkMode } from "../check/modes.ts";
import { anchorForm } from "../anchor/lean.ts";
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { checkExtraTools } from "./extra_tools.ts";
import { fileTools } from "./_file_tools.ts";
import { findTools } from "./_find_tools.ts";
import { historyTools } from "./_history_tools.ts";
import {
  PROMPT_HASHLINE,
  PROMPT_STORE,
  PROMPT_STR_REPLACE,
} from "./_prompts.ts";
import { storeTools } from "./_store_tools.ts";
import {
  DEFAULT_TOOL_SETS,
  EDIT_FORMATS,
  type EditFormat,
  type Lazy,
  TOOL_SETS,
  type ToolCallOptions,
  type ToolContext,
  type ToolDefinition,
  type ToolRegistry,
  type ToolResult,
  type ToolSetName,
} from "./types.ts";

/** A getter that opens the object once, and again after a failed attempt. */
function resolver<T>(value: Lazy<T>): { get(): Promise<T>; opened(): boolean } {
  if (typeof value !== "function") {
    return { get: () => Promise.resolve(value), opened: () => true };
  }
  const open = value as () => Promise<T>;
  let pending: Promise<T> | undefined;
  return {
    get() {
      pending ??= open();
      pending.catch(() => (pending = undefined));
      return pending;
    },
    opened: () => pending !== undefined,
  };
}

/** Checks the edit format, naming the ones there are. */
function checkEditFormat(value: unknown): EditFormat {
  if (!EDIT_FORMATS.includes(value as EditFormat)) {
    throw new TypeError(
      `editFormat must be ${
        EDIT_FORMATS.map((f) => JSON.stringify(f)).join(" or ")
      }, got ${JSON.stringify(value)}.`,
    );
  }
  return value as EditFormat;
}

/**
 * Checks the tool sets, naming the ones there are.
 *
 * @param value The sets asked for (`undefined`: the default `files`, `store`).
 * @returns The sets, each once, in the order their tools are listed.
 * @throws {TypeError} Not a list, an empty list, or a name that is not a set.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkToolSets } from "./registry.ts";
 * assert.deepEqual(checkToolSets(["store", "files"]), ["files", "store"]);
 * assert.throws(() => checkToolSets(["file"]), /Unknown tool set "file"/);
 * ```
 */
export function checkToolSets(value: unknown): ToolSetName[] {
  if (value === undefined) return [...DEFAULT_TOOL_SETS];
  const known = TOOL_SETS.map((t) => JSON.stringify(t)).join(", ");
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(
      `tools must list one or more tool sets of ${known}, got ${
        JSON.stringify(value)
      }.`,
    );
  }
  for (const name of value) {
    if (!TOOL_SETS.includes(name)) {
      throw new TypeError(
        `Unknown tool set ${
          JSON.stringify(name)
        }: the tool sets are ${known} (e.g. tools: ["files", "store"], or --tools files,store).`,
      );
    }
  }
  return TOOL_SETS.filter((t) => value.includes(t));
}

/**
 * Creates the tool registry over a workspace and/or a revision store.
 *
 * @param context The workspace and store (each an object, or a function that
 *   opens it on first use), the tool sets to offer, the edit format, the
 *   default session and the default of `rebase`.
 * @returns The registry.
 * @throws {TypeError} When `editFormat` is neither `"hashline"` nor
 *   `"str_replace"`, `tools` names an unknown set, `session` is not a safe
 *   name, `rebase` is not a boolean, or a tool of `extraTools` is malformed
 *   or takes a name already used.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "./registry.ts";
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
 * assert.throws(() => createToolRegistry({ editFormat: "sed" as "hashline" }), TypeError);
 * const files = createToolRegistry({ store: createMemoryStore(), tools: ["files"] });
 * assert.deepEqual(files.tools, []);
 * ```
 */
export function createToolRegistry(context: ToolContext = {}): ToolRegistry {
  if (context === null || typeof context !== "object") {
    throw new TypeError(
      "createToolRegistry needs an object such as { workspace, store }.",
    );
  }
  const editFormat = checkEditFormat(context.editFormat ?? "hashline");
  const toolSets = checkToolSets(context.tools);
  const session = context.session ?? "default";
  checkSession(session);
  const anchors = anchorForm(context.anchors);
  if (anchors === "lean" && editFormat !== "hashline") {
    throw new TypeError(
      `anchors: "lean" needs the hashline edit format: str_replace edits copy text, not line numbers. Leave anchors out or use editFormat "hashline".`,
    );
  }
  const rebase = context.rebase ?? false;
  if (typeof rebase !== "boolean") {
    throw new TypeError(`rebase must be true or false, got ${String(rebase)}.`);
  }
  // Unset, each edit falls back to its workspace's or store's own default.
  const check = context.check === undefined
    ? undefined
    : checkMode(context.check);
  const sessionOf = (call?: ToolCallOptions): string =>
    typeof call?.session === "string" && call.session !== ""
      ? call.session
      : session;
  const ws = context.workspace === undefined
    ? undefined
    : resolver<Workspace>(context.workspace);
  const st = context.store === undefined
    ? undefined
    : resolver<RevisionStore>(context.store);

  const files = ws !== undefined && toolSets.includes("files");
  const store = st !== undefined && toolSets.includes("store");
  const tools: ToolDefinition[] = [];
  if (ws && files) {
    tools.push(
      ...fileTools({
        workspace: ws.get,
        editFormat,
        rebase,
        check,
        sessionOf,
        anchors,
      }),
      ...findTools({ workspace: ws.get, editFormat, sessionOf }),
    );
  }
  if (st && store) {
    tools.push(
      ...storeTools({
        store: st.get,
        workspace: ws?.get,
        check,
        sessionOf,
      }),
    );
  }
  if (ws && toolSets.includes("history")) {
    tools.push(...historyTools({ workspace: ws.get, sessionOf }));
  }
  tools.push(
    ...checkExtraTools(context.extraTools, tools.map((t) => t.name)),
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prompt = [
    files
      ? (editFormat === "hashline" ? PROMPT_HASHLINE : PROMPT_STR_REPLACE)
      : "",
    store ? PROMPT_STORE : "",
  ].filter(Boolean).join("\n\n");

  return {
    tools,
    editFormat,
    toolSets,
    systemPrompt: prompt,
    get: (name: string) => byName.get(name),
    call(
      name: string,
      input: unknown,
      call?: ToolCallOptions,
    ): Promise<ToolResult> {
      const tool = byName.get(name);
      if (!tool) {
        return Promise.resolve({
          ok: false,
          error: {
            code: "UNKNOWN_TOOL",
            message: `No tool named "${name}". Available tools: ${
              tools.map((t) => t.name).join(", ") || "none"
            }.`,
          },
        });
      }
      return tool.handler(input, call);
    },
    async endSession(name: string): Promise<void> {
      // A workspace never opened holds no records to free.
      if (!ws || !ws.opened()) return;
      await (await ws.get()).forgetSession(name);
    },
  };
}
