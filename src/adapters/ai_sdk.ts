/**
 * The tool registry as a Vercel AI SDK tool set, built without importing
 * `ai`: each registry tool becomes an object of the shape `tool()` makes,
 * whose input schema is a Standard Schema carrying the registry's JSON
 * Schema, whose `execute` runs the registry handler, and whose model output is the handler's text (refusals
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
import type { ToolRegistry, ToolResult } from "../tools/mod.ts";

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Session whose reads count for every call (default: the registry's own). */
  session?: string;
}

/**
 * A tool's input schema in the Standard Schema form the AI SDK accepts: the
 * registry's JSON Schema behind `~standard.jsonSchema`, and a `validate`
 * that passes input through (the registry handler checks it and refuses bad
 * input to the model).
 */
export interface AiSdkInputSchema {
  /** The Standard Schema interface (version 1) with its JSON Schema side. */
  readonly "~standard": {
    /** Standard Schema version. */
    readonly version: 1;
    /** Who made the schema: `"hashline"`. */
    readonly vendor: string;
    /** Accepts any input; the registry handler validates it. */
    readonly validate: (value: unknown) => { value: unknown };
    /** The registry's JSON Schema, a fresh copy on every call. */
    readonly jsonSchema: {
      /** The schema of the input the model sends. */
      readonly input: (options: { target: string }) => Record<string, unknown>;
      /** The same schema (the input is passed through unchanged). */
      readonly output: (options: { target: string }) => Record<string, unknown>;
    };
  };
}

/** What the model is shown of a tool result: its text, or the refusal as error text. */
export type AiSdkModelOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string };

/** One registry tool in the shape of an AI SDK `tool()`. */
export interface AiSdkTool {
  /** The registry tool's description. */
  description: string;
  /** The registry tool's input schema. */
  inputSchema: AiSdkInputSchema;
  /**
   * Runs the registry handler; refusals come back as `{ ok: false }`, never
   * thrown. The AI SDK's call options (second argument) are not used.
   */
  execute: (input: unknown, options?: unknown) => Promise<ToolResult>;
  /** Turns the handler's result into what the model reads. */
  toModelOutput: (options: { output: ToolResult }) => AiSdkModelOutput;
}

/** What {@link aiSdkTools} gives: the tool set and the system prompt to pass beside it. */
export interface AiSdkTools {
  /** One AI SDK tool per registry tool, keyed by tool name; pass it as `tools` to `generateText` or `streamText`. */
  tools: Record<string, AiSdkTool>;
  /** The registry's system-prompt snippet for the edit format in use. */
  system: string;
}

/** What the model is shown of a tool result: the text, or the refusal as error text. */
function toModelOutput(result: ToolResult): AiSdkModelOutput {
  return result.ok
    ? { type: "text", value: result.text }
    : { type: "error-text", value: result.error.message };
}

/** The registry's JSON Schema as a Standard Schema with a JSON Schema side. */
function inputSchemaOf(schema: unknown): AiSdkInputSchema {
  // A fresh copy each time: the AI SDK edits the schema it is given in place.
  const copy = () => structuredClone(schema) as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: "hashline",
      validate: (value) => ({ value }),
      jsonSchema: { input: copy, output: copy },
    },
  };
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
  const tools: Record<string, AiSdkTool> = {};
  for (const definition of registry.tools) {
    tools[definition.name] = {
      description: definition.description,
      inputSchema: inputSchemaOf(definition.inputSchema),
      execute: (input) => definition.handler(input, call),
      toModelOutput: ({ output }) => toModelOutput(output),
    };
  }
  return { tools, system: registry.systemPrompt };
}
