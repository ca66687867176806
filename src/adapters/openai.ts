/**
 * The tool registry in OpenAI's function-tool JSON, for the Chat Completions
 * API (`{ type: "function", function: { name, description, parameters } }`)
 * and the Responses API (`{ type: "function", name, description,
 * parameters }`), with `runToolCall`, which executes a tool call the model
 * made and gives back the message to append. Plain JSON in and out: no
 * OpenAI package is needed, and any client (or a compatible server) works.
 * The schemas are in strict mode (`strict: true`) unless asked otherwise:
 * every field is required and the optional ones take `null`, which the
 * tools read as absent.
 *
 * @example
 * ```ts ignore
 * import OpenAI from "openai";
 * import { createToolRegistry, openWorkspace } from "@hashline/kit";
 * import { openAiTools } from "@hashline/kit/openai";
 *
 * const hashline = openAiTools(createToolRegistry({ workspace: openWorkspace(".") }));
 * const messages = [{ role: "system", content: hashline.system }, { role: "user", content: "…" }];
 * const reply = await new OpenAI().chat.completions.create({ model, messages, tools: hashline.chatTools });
 * for (const call of reply.choices[0].message.tool_calls ?? []) {
 *   messages.push(await hashline.runToolCall(call));
 * }
 * ```
 *
 * @module
 */
import type { ToolRegistry, ToolResult } from "../tools/mod.ts";
import { strictSchema } from "./_strict_schema.ts";

/** A function tool for the Chat Completions API. */
export interface ChatCompletionsTool {
  /** Always `"function"`. */
  type: "function";
  /** The function the model may call. */
  function: {
    /** The tool's name. */
    name: string;
    /** What the tool does, for the model. */
    description: string;
    /** JSON Schema of the arguments. */
    parameters: Record<string, unknown>;
    /** Strict mode: the arguments always match `parameters` (default true). */
    strict: boolean;
  };
}

/** A function tool for the Responses API. */
export interface ResponsesTool {
  /** Always `"function"`. */
  type: "function";
  /** The tool's name. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Strict mode: the arguments always match `parameters` (default true). */
  strict: boolean;
}

/** A tool call from a Chat Completions assistant message (`message.tool_calls[i]`). */
export interface ChatCompletionsToolCall {
  /** The call's id, echoed by the answer's `tool_call_id`. */
  id: string;
  /** Always `"function"`. */
  type: "function";
  /** The tool called and its arguments as a JSON string. */
  function: { name: string; arguments: string };
}

/** A tool call from a Responses output item. */
export interface ResponsesToolCall {
  /** Always `"function_call"`. */
  type: "function_call";
  /** The call's id, echoed by the answer's `call_id`. */
  call_id: string;
  /** The tool called. */
  name: string;
  /** Its arguments, as a JSON string. */
  arguments: string;
}

/** The Chat Completions message answering a tool call. */
export interface ChatCompletionsToolMessage {
  /** Always `"tool"`. */
  role: "tool";
  /** The id of the call it answers. */
  tool_call_id: string;
  /** The tool's answer, as the model reads it. */
  content: string;
}

/** The Responses input item answering a tool call. */
export interface ResponsesToolOutput {
  /** Always `"function_call_output"`. */
  type: "function_call_output";
  /** The id of the call it answers. */
  call_id: string;
  /** The tool's answer, as the model reads it. */
  output: string;
}

/** Options of {@link openAiTools}. */
export interface OpenAiToolsOptions {
  /** Session whose reads count for every call (default: the registry's own). */
  session?: string;
  /**
   * Strict mode (default true): schemas with every object closed, every
   * field required and the optional ones nullable, sent with
   * `strict: true`. False sends the registry's schemas as they are, with
   * `strict: false`.
   */
  strict?: boolean;
}

/** The registry in OpenAI's shapes. */
export interface OpenAiTools {
  /** Tools for `chat.completions.create({ tools })`. */
  chatTools: ChatCompletionsTool[];
  /** Tools for `responses.create({ tools })`. */
  responsesTools: ResponsesTool[];
  /** The registry's system-prompt snippet for the edit format in use. */
  system: string;
  /**
   * Runs a Chat Completions tool call and gives the `role: "tool"` message
   * to append. Never throws: bad JSON arguments, an unknown tool and
   * refusals come back as the message's text, for the model to act on.
   */
  runToolCall(
    call: ChatCompletionsToolCall,
  ): Promise<ChatCompletionsToolMessage>;
  /** Runs a Responses `function_call` item and gives its `function_call_output` item. */
  runToolCall(call: ResponsesToolCall): Promise<ResponsesToolOutput>;
  /** Runs a call of either API and gives the full registry result (for programs that want `data`). */
  callTool(
    call: ChatCompletionsToolCall | ResponsesToolCall,
  ): Promise<ToolResult>;
}

/** What the model reads back: the text, or the refusal with its code. */
function resultText(result: ToolResult): string {
  return result.ok
    ? result.text
    : `Error ${result.error.code}: ${result.error.message}`;
}

/**
 * The registry's tools in OpenAI's function-tool JSON, with a runner for
 * the calls the model makes.
 *
 * @param registry A registry from `createToolRegistry` (its `editFormat` decides the edit tool and the prompt).
 * @param options The session the calls read and edit in, and strict mode.
 * @returns Tools for both APIs, the system prompt, and `runToolCall`.
 * @throws {TypeError} When `strict` is not a boolean.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "../tools/mod.ts";
 * import { openAiTools } from "./openai.ts";
 * const openai = openAiTools(createToolRegistry({ store: createMemoryStore() }));
 * assert.equal(openai.chatTools[0].function.name, "source_put");
 * assert.equal(openai.chatTools[0].function.strict, true);
 * assert.equal(openai.chatTools[0].function.parameters.additionalProperties, false);
 * const reply = await openai.runToolCall({
 *   id: "call_1", type: "function",
 *   function: { name: "source_put", arguments: '{"source":"a\\n"}' },
 * });
 * assert.equal(reply.tool_call_id, "call_1");
 * assert.match(reply.content, /^Stored as p_/);
 * ```
 */
export function openAiTools(
  registry: ToolRegistry,
  options: OpenAiToolsOptions = {},
): OpenAiTools {
  const session = options.session === undefined
    ? undefined
    : { session: options.session };
  const strict = options.strict ?? true;
  if (typeof strict !== "boolean") {
    throw new TypeError(`strict must be true or false, got ${String(strict)}.`);
  }
  const shown = registry.tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: strict ? strictSchema(t.inputSchema) : t.inputSchema,
  }));

  const callTool = async (
    call: ChatCompletionsToolCall | ResponsesToolCall,
  ): Promise<ToolResult> => {
    const { name, args } = "function" in call
      ? { name: call.function.name, args: call.function.arguments }
      : { name: call.name, args: call.arguments };
    let input: unknown;
    try {
      input = args === "" ? {} : JSON.parse(args);
    } catch (error) {
      return {
        ok: false,
        error: {
          code: "BAD_INPUT",
          message: `The arguments of ${name} are not valid JSON (${
            (error as Error).message
          }); send them again as one JSON object.`,
        },
      };
    }
    return await registry.call(name, input, session);
  };

  async function runToolCall(
    call: ChatCompletionsToolCall,
  ): Promise<ChatCompletionsToolMessage>;
  async function runToolCall(
    call: ResponsesToolCall,
  ): Promise<ResponsesToolOutput>;
  async function runToolCall(
    call: ChatCompletionsToolCall | ResponsesToolCall,
  ): Promise<ChatCompletionsToolMessage | ResponsesToolOutput> {
    const text = resultText(await callTool(call));
    return "function" in call
      ? { role: "tool", tool_call_id: call.id, content: text }
      : { type: "function_call_output", call_id: call.call_id, output: text };
  }

  return {
    chatTools: shown.map((t) => ({
      type: "function",
      function: { ...t, strict },
    })),
    responsesTools: shown.map((t) => ({ type: "function", ...t, strict })),
    system: registry.systemPrompt,
    runToolCall,
    callTool,
  };
}
