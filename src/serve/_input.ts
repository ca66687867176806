/**
 * Validation of JSON input against zod schemas, with messages that name the
 * field so a model can fix its call, and JSON Schema generation for tool
 * definitions.
 *
 * @module
 */
import { z } from "zod";

/**
 * Parses `value` with `schema`, or throws a `TypeError` naming every field
 * that is wrong (`Field "ops[0].start": expected string, received number.`).
 */
export function parseInput<T>(
  schema: z.ZodType<T>,
  value: unknown,
  what: string,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const parts = result.error.issues.slice(0, 8).map((issue) => {
    const field = fieldName(issue.path);
    const text = issue.message.replace(/^Invalid input: /, "");
    return field ? `field "${field}": ${text}` : text;
  });
  throw new TypeError(`Invalid ${what}: ${parts.join("; ")}.`);
}

/** `["files", 0, "ops"]` → `files[0].ops`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** A JSON Schema object for a tool's input, as MCP and model APIs expect it. */
export type JsonSchema = Record<string, unknown>;

/**
 * Generates the JSON Schema of what a caller may send (input side: optional
 * and defaulted fields are not required), without the `$schema` key and the
 * safe-integer bounds that only add noise to a model's prompt.
 */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchema;
  delete json.$schema;
  return prune(json) as JsonSchema;
}

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER)
    ) continue;
    out[key] = prune(value);
  }
  return out;
}
