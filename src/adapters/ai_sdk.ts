/**
 * The tool registry as a Vercel AI SDK tool set (`ai`, an optional peer
 * package): each registry tool becomes a `tool()` whose input schema is the
 * registry's JSON Schema (through `jsonSchema()`), whose `execute` runs the
 * registry handler, and whose model output is the handler's text (refusals
 * as error text, so the model sees the fresh anchors and can resend). The
 * system-prompt snippet comes along for `generateText({ system })`.
 *
 * @example
 * ```ts ignore
 * import { generateText, stepCountIs } from "ai";
 * import { createToolRegistry, openWorkspace } from "@hashline/kit";
 * import { aiSdkTools } from "@hashline/kit/ai-sdk";
 *
 * const registry = createToolRegistry({ workspace: openWorkspace(".") });
 * const { tools, system } = aiSdkTools(registry);
 * const result = await generateText({
 *   model, tools, system, stopWhen: stepCountIs(8),
 *   prompt: "Rename greet to welcome in src/app.ts.",
 * });
 * ```
 *
 * @module
 */
import { jsonSchema, tool, type ToolSet } from "ai";
import type { ToolRegistry, ToolResult } from "../tools/mod.ts";

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Session whose reads count for every call (default: the registry's own). */
  session?: string;
}

/** What {@link aiSdkTools} gives: the tool set and the system prompt to pass beside it. */
export interface AiSdkTools {
  /** One AI SDK tool per registry tool, keyed by tool name; each call's output is the registry's {@link ToolResult}. */
  tools: ToolSet;
  /** The registry's system-prompt snippet for the edit format in use. */
  system: string;
}

type ModelOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string };

/** What the model is shown of a tool result: the text, or the refusal as error text. */
function toModelOutput(result: ToolResult): ModelOutput {
  return result.ok
    ? { type: "text", value: result.text }
    : { type: "error-text", value: result.error.message };
}

/**
 * The registry's tools as an AI SDK tool set, with its system prompt.
 *
 * @param registry A registry from `createToolRegistry` (its `editFormat` decides the edit tool and the prompt).
 * @param options The session the calls read and edit in.
 * @returns `{ tools, system }` for `generateText` / `streamText`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "../tools/mod.ts";
 * import { aiSdkTools } from "./ai_sdk.ts";
 * const { tools, system } = aiSdkTools(createToolRegistry({ store: createMemoryStore() }));
 * assert.ok("source_put" in tools);
 * assert.match(system, /source_put/);
 * ```
 */
export function aiSdkTools(
  registry: ToolRegistry,
  options: AiSdkToolsOptions = {},
): AiSdkTools {
  const call = options.session === undefined
    ? undefined
    : { session: options.session };
  const tools: ToolSet = {};
  for (const definition of registry.tools) {
    tools[definition.name] = tool<unknown, ToolResult>({
      description: definition.description,
      inputSchema: jsonSchema<unknown>(definition.inputSchema),
      execute: (input: unknown): Promise<ToolResult> =>
        definition.handler(input, call),
      toModelOutput: ({ output }) => toModelOutput(output),
    });
  }
  return { tools, system: registry.systemPrompt };
}
