/**
 * Validation of JSON input against zod schemas, with messages that name the
 * field so a model can fix its call, and JSON Schema generation for tool
 * definitions.
 *
 * @module
 */
import * as z from "zod";
import type { JsonSchema } from "./types.ts";

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
    // zod leaves the input off its issues: a missing field is the type
    // error that received undefined; any other names what was sent.
    const text = issue.code === "invalid_type" &&
        / received undefined$/.test(issue.message)
      ? `missing (expected ${issue.expected})`
      : issue.message.replace(/^Invalid input: /, "");
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

const SHOWN = new WeakMap<object, JsonSchema>();

/**
 * Marks a schema to be shown to models as `json` instead of what zod would
 * generate from it: validation still takes every shape the schema accepts,
 * while the advertised schema names only the one a model should send.
 *
 * @param schema What validation accepts.
 * @param json What the tool's JSON Schema shows in its place.
 * @returns The same schema.
 */
export function showAs<T extends z.ZodType>(schema: T, json: JsonSchema): T {
  SHOWN.set(schema, json);
  return schema;
}

/**
 * The input with every object property whose value is `null` left out, at
 * any depth, so a call in OpenAI's strict mode (every key present, unused
 * ones `null`) means the same as one that omits them. Array items are kept
 * as they are: a `null` line is still refused.
 *
 * @param value A tool's JSON input.
 * @returns The same value without null properties.
 */
export function dropNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullFields);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v !== null) out[key] = dropNullFields(v);
  }
  return out;
}

/**
 * Generates the JSON Schema of a tool's input (`io: "input"`: optional and
 * defaulted fields are not required) or output, without the `$schema` key,
 * the safe-integer bounds and the `minLength`/`minItems` that only add
 * tokens to a model's prompt (validation still applies them); a
 * schema marked with {@link showAs} is shown as marked, and one with a
 * meta `id` is defined once under `$defs` and referenced.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: "input" | "output" = "input",
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const shown = SHOWN.get(ctx.zodSchema);
      if (!shown) return;
      for (const key of Object.keys(ctx.jsonSchema)) {
        delete (ctx.jsonSchema as Record<string, unknown>)[key];
      }
      Object.assign(ctx.jsonSchema, structuredClone(shown));
    },
  }) as JsonSchema;
  delete json.$schema;
  return prune(json, io) as JsonSchema;
}

// Besides dropping what only costs a model tokens, spells two things the way
// every client dialect reads them: an open object's extra properties as
// `true` (zod writes the equivalent `{}`), and, in outputs, a nullable value
// as `anyOf` branches of one type each rather than a `type` array.
function prune(node: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(node)) return node.map((item) => prune(item, io));
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER) ||
      // Validation names these when broken; a model gains little from them.
      key === "minLength" || key === "minItems"
    ) continue;
    if (
      key === "additionalProperties" && value !== null &&
      typeof value === "object" && Object.keys(value).length === 0
    ) {
      out[key] = true;
      continue;
    }
    if (key === "type" && Array.isArray(value) && io === "output") {
      out.anyOf = value.map((type) => ({ type }));
      continue;
    }
    out[key] = prune(value, io);
  }
  return out;
}
