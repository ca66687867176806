/**
 * A tool's input JSON Schema rewritten for OpenAI's strict mode: every
 * object closed (`additionalProperties: false`) with every property
 * required, the optional ones nullable, and only the keywords strict mode
 * takes. The registry treats a `null` field as absent, so a strict call
 * means what the same call without those keys means.
 *
 * @module
 */

type Node = Record<string, unknown>;

/** Keywords kept; bounds and lengths are dropped (validation still applies them). */
const KEPT = new Set([
  "type",
  "description",
  "enum",
  "const",
  "items",
  "anyOf",
  "oneOf",
  "$ref",
]);

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The schema that also takes `null`. */
function nullable(schema: Node): Node {
  const out: Node = { ...schema };
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    return out;
  }
  if (Array.isArray(out.type)) {
    if (!out.type.includes("null")) out.type = [...out.type, "null"];
    return out;
  }
  if (Array.isArray(out.anyOf)) {
    out.anyOf = [...out.anyOf, { type: "null" }];
    return out;
  }
  // A $ref (or a const): offered beside null, the description kept outside.
  const { description, ...rest } = out;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { type: "null" }],
  };
}

function strictNode(node: unknown, at: string): Node {
  if (!isNode(node)) {
    throw new TypeError(`Cannot make ${at} strict: it is not a schema.`);
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) continue;
    if (key === "items") out.items = strictNode(value, `${at}.items`);
    else if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      // Strict mode has no oneOf; nested, anyOf takes the same branches.
      out.anyOf = value.map((v, i) => strictNode(v, `${at}.${key}[${i}]`));
    } else out[key] = value;
  }
  if (node.type === "object" || isNode(node.properties)) {
    const props = isNode(node.properties) ? node.properties : {};
    const required = new Set(
      Array.isArray(node.required) ? node.required as string[] : [],
    );
    const properties: Node = {};
    for (const [name, sub] of Object.entries(props)) {
      const strict = strictNode(sub, `${at}.properties.${name}`);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.type = "object";
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (
    out.type === undefined && out.$ref === undefined &&
    out.anyOf === undefined && out.enum === undefined && out.const === undefined
  ) {
    throw new TypeError(
      `Cannot make ${at} strict: it accepts anything, which strict mode does not allow.`,
    );
  }
  return out;
}

/**
 * Rewrites a tool's input schema for OpenAI's strict mode.
 *
 * @param schema The registry's input JSON Schema (an object schema).
 * @returns A new schema: root object, every object closed with every
 *   property required and optional ones nullable, `$defs` rewritten the
 *   same way, no `oneOf`, no bounds or lengths.
 * @throws {TypeError} When the root is not an object schema, or a part of
 *   it accepts anything.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { strictSchema } from "./_strict_schema.ts";
 * assert.deepEqual(
 *   strictSchema({
 *     type: "object",
 *     properties: { path: { type: "string" }, limit: { type: "integer", minimum: 1 } },
 *     required: ["path"],
 *   }),
 *   {
 *     type: "object",
 *     properties: { path: { type: "string" }, limit: { type: ["integer", "null"] } },
 *     required: ["path", "limit"],
 *     additionalProperties: false,
 *   },
 * );
 * ```
 */
export function strictSchema(schema: Record<string, unknown>): Node {
  if (schema.type !== "object" || "anyOf" in schema || "oneOf" in schema) {
    throw new TypeError(
      "Cannot make a tool schema strict: its root must be a plain object schema.",
    );
  }
  const out = strictNode(schema, "$");
  if (isNode(schema.$defs)) {
    const defs: Node = {};
    for (const [name, def] of Object.entries(schema.$defs)) {
      defs[name] = strictNode(def, `$.$defs.${name}`);
    }
    out.$defs = defs;
  }
  return out;
}
