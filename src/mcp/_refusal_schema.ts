/**
 * The output schema a tool is listed with over MCP: its own result, or a
 * refusal `{ ok: false, error: { code, message, problems? } }` (docs/mcp.md
 * "Sessions"). Some clients (the MCP Inspector) check an `isError` result's
 * `structuredContent` against the schema too, so the refusal is part of it.
 *
 * @module
 */
import { ERROR_CODES } from "../errors.ts";
import type { JsonSchema } from "../tools/types.ts";

/** The structured form of a refusal. */
const REFUSAL: JsonSchema = {
  type: "object",
  properties: {
    ok: { const: false },
    error: {
      type: "object",
      properties: {
        code: { type: "string", enum: Object.values(ERROR_CODES) },
        message: { type: "string" },
        problems: { type: "array", items: { type: "object" } },
      },
      required: ["code", "message"],
    },
  },
  required: ["ok", "error"],
  additionalProperties: false,
};

// Keys that must stay at the root for references inside the schema to resolve.
const ROOT_KEYS = ["$schema", "$defs", "definitions", "$id"];

/**
 * A tool's output schema, widened to admit its refusals.
 *
 * @param schema The tool's own output schema (an object schema).
 * @returns An object schema: the result, or a refusal.
 */
export function withRefusal(schema: JsonSchema): JsonSchema {
  const root: JsonSchema = { type: "object" };
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ROOT_KEYS.includes(key)) root[key] = value;
    else result[key] = value;
  }
  root.anyOf = [result, REFUSAL];
  return root;
}
