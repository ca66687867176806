import type { z } from "zod";

function pathText(path: readonly PropertyKey[], root: string): string {
  let out = root;
  for (const key of path) {
    out += typeof key === "number"
      ? `[${key}]`
      : `${out ? "." : ""}${String(key)}`;
  }
  return out || "patch";
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value).slice(0, 40);
  return typeof value;
}

/**
 * Checks `value` against `schema`, turning zod's issues into one TypeError
 * whose message names each offending field, e.g. `files[0].ops[1].lines`.
 */
export function checkShape<T>(
  schema: z.ZodType<T>,
  value: unknown,
  root: string,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const parts = result.error.issues.slice(0, 5).map((issue) => {
    const where = pathText(issue.path, root);
    const got = valueAt(value, issue.path);
    switch (issue.code) {
      case "invalid_type":
        return got === undefined
          ? `${where} is missing (expected ${issue.expected})`
          : `${where} must be ${issue.expected}, got ${describe(got)}`;
      case "unrecognized_keys":
        return `${where} has unknown field${issue.keys.length > 1 ? "s" : ""} ${
          issue.keys.map((k) => JSON.stringify(k)).join(", ")
        }`;
      default:
        return `${where}: ${issue.message} (got ${describe(got)})`;
    }
  });
  const more = result.error.issues.length > 5
    ? ` (and ${result.error.issues.length - 5} more)`
    : "";
  return fail(`Invalid patch: ${parts.join("; ")}${more}.`);
}

function fail(message: string): never {
  throw new TypeError(message);
}
