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

/**
 * Descriptions of the patch-op fields, which the patch schema leaves bare:
 * filled into generated tool schemas so a model sees every field explained.
 */
const OP_FIELD_DOCS: Record<string, string> = {
  op:
    "The operation: replace, delete, insert_after, insert_before, append or prepend.",
  start:
    'Anchor "LINE:HH" of the first line of the range, copied from the latest read.',
  end:
    'Anchor "LINE:HH" of the last line of the range (default: the start line).',
  anchor: 'Anchor "LINE:HH" of the line to insert next to.',
  lines: "The exact new lines, without any LINE:HH| prefix; [] for none.",
  literal: 'Write lines that really begin like "12:a3|" as they are.',
  path: "File path relative to the workspace root, e.g. src/app.ts.",
  ops: 'Operations on that file, every line named by its anchor "LINE:HH".',
  files: "Every file of the patch: [{ path, ops }, …].",
};

/**
 * Generates the JSON Schema of a tool's input (`io: "input"`: optional and
 * defaulted fields are not required) or output, without the `$schema` key
 * and the safe-integer bounds that only add noise to a model's prompt, and
 * with every patch-op field described.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: "input" | "output" = "input",
): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
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
    if (key === "properties" && value !== null && typeof value === "object") {
      const props: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(value)) {
        const pruned = prune(sub) as Record<string, unknown>;
        const doc = OP_FIELD_DOCS[name];
        props[name] = doc && pruned && typeof pruned === "object" &&
            !("description" in pruned)
          ? { description: doc, ...pruned }
          : pruned;
      }
      out[key] = props;
      continue;
    }
    out[key] = prune(value);
  }
  return out;
}
