/**
 * The tool registry that MCP, the HTTP app and agent frameworks share: tool
 * definitions (name, title, description, input and output JSON Schemas
 * generated from zod, annotations, handler) over a workspace and a revision
 * store, and a system-prompt snippet that teaches a model the edit format in
 * use. It is the only way a registry is built.
 *
 * @module
 */
import { isSessionName } from "../_internal/session.ts";
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { fileTools } from "./_file_tools.ts";
import {
  PROMPT_HASHLINE,
  PROMPT_STORE,
  PROMPT_STR_REPLACE,
} from "./_prompts.ts";
import { storeTools } from "./_store_tools.ts";
import {
  EDIT_FORMATS,
  type EditFormat,
  type Lazy,
  type ToolCallOptions,
  type ToolContext,
  type ToolDefinition,
  type ToolRegistry,
  type ToolResult,
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
 * Creates the tool registry over a workspace and/or a revision store.
 *
 * @param context The workspace and store (each an object, or a function that
 *   opens it on first use), the edit format, the default session and the
 *   default of `rebase`.
 * @returns The registry.
 * @throws {TypeError} When `editFormat` is neither `"hashline"` nor
 *   `"str_replace"`, `session` is not a safe name, or `rebase` is not a boolean.
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
 * ```
 */
export function createToolRegistry(context: ToolContext = {}): ToolRegistry {
  if (context === null || typeof context !== "object") {
    throw new TypeError(
      "createToolRegistry needs an object such as { workspace, store }.",
    );
  }
  const editFormat = checkEditFormat(context.editFormat ?? "hashline");
  const session = context.session ?? "default";
  if (!isSessionName(session)) {
    throw new TypeError(
      `session must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
        JSON.stringify(session)
      }.`,
    );
  }
  const rebase = context.rebase ?? false;
  if (typeof rebase !== "boolean") {
    throw new TypeError(`rebase must be true or false, got ${String(rebase)}.`);
  }
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

  const tools: ToolDefinition[] = [];
  if (ws) {
    tools.push(
      ...fileTools({ workspace: ws.get, editFormat, rebase, sessionOf }),
    );
  }
  if (st) {
    tools.push(
      ...storeTools({
        store: st.get,
        workspace: ws?.get,
        sessionOf,
      }),
    );
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  const prompt = [
    ws
      ? (editFormat === "hashline" ? PROMPT_HASHLINE : PROMPT_STR_REPLACE)
      : "",
    st ? PROMPT_STORE : "",
  ].filter(Boolean).join("\n\n");

  return {
    tools,
    editFormat,
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
