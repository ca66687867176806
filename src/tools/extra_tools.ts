/**
 * Tools of your own beside hashline's (`extraTools` on the registry, see
 * docs/mcp.md "Tools of your own"): checked once, when the registry is
 * built, so a tool that could not be listed or called is refused there and
 * not on a model's first call.
 *
 * @module
 */
import type { ToolDefinition } from "./types.ts";

/** What MCP allows in a tool name. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Checks tools of your own against each other and the registry's own.
 *
 * @param value The `extraTools` option (`undefined`: none).
 * @param taken The names of the registry's own tools.
 * @returns The tools, in the order given.
 * @throws {TypeError} Not a list, a tool without a valid name, description,
 *   object input schema or handler, or a name used twice.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkExtraTools } from "./extra_tools.ts";
 * const echo = {
 *   name: "echo", title: "Echo", description: "Says it back.",
 *   inputSchema: { type: "object" }, outputSchema: { type: "object" },
 *   annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
 *   handler: (input: unknown) => Promise.resolve({ ok: true as const, text: String(input), data: {} }),
 * };
 * assert.deepEqual(checkExtraTools([echo], []).map((t) => t.name), ["echo"]);
 * assert.throws(() => checkExtraTools([echo], ["echo"]), /already/);
 * ```
 */
export function checkExtraTools(
  value: unknown,
  taken: readonly string[],
): ToolDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new TypeError(
      `extraTools must be a list of tool definitions, got ${typeof value}.`,
    );
  }
  const names = new Set(taken);
  return value.map((tool: Partial<ToolDefinition> | null, i) => {
    const at = `extraTools[${i}]`;
    if (tool === null || typeof tool !== "object") {
      throw new TypeError(`${at} must be a tool definition object.`);
    }
    if (typeof tool.name !== "string" || !TOOL_NAME.test(tool.name)) {
      throw new TypeError(
        `${at}.name must be 1 to 128 letters, digits, "_", "-" or ".", got ${
          JSON.stringify(tool.name)
        }.`,
      );
    }
    if (names.has(tool.name)) {
      throw new TypeError(
        `${at}.name "${tool.name}" is already a tool of this registry: pick another name.`,
      );
    }
    names.add(tool.name);
    if (typeof tool.description !== "string") {
      throw new TypeError(`${at} ("${tool.name}") needs a description.`);
    }
    const schema = tool.inputSchema as { type?: unknown } | undefined;
    if (
      schema === null || typeof schema !== "object" || schema.type !== "object"
    ) {
      throw new TypeError(
        `${at} ("${tool.name}") needs an inputSchema of type "object".`,
      );
    }
    if (typeof tool.handler !== "function") {
      throw new TypeError(`${at} ("${tool.name}") needs a handler function.`);
    }
    const caps = tool.clientCapabilities;
    if (
      caps !== undefined &&
      (!Array.isArray(caps) || caps.some((c) => typeof c !== "string"))
    ) {
      throw new TypeError(
        `${at} ("${tool.name}").clientCapabilities must be a list of capability names such as ["elicitation"].`,
      );
    }
    return tool as ToolDefinition;
  });
}
