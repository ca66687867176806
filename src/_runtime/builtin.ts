/**
 * A Node built-in module, where the runtime hands one out synchronously
 * (`process.getBuiltinModule`: Node 20.16 and later, Bun, Deno), else null
 * (edge platforms, older Node). There is no `import()` here and no `node:`
 * specifier, so JSR and bundlers have nothing they cannot analyze, and an
 * edge bundle neither pulls the module in nor fails to resolve it; callers
 * fall back to a Web API when the answer is null.
 *
 * @module
 */

interface BuiltinHost {
  process?: { getBuiltinModule?: (id: string) => unknown };
}

/**
 * The built-in module `id` (without the `node:` prefix), or null when this
 * runtime has none to give.
 *
 * @param id The module's name, e.g. `crypto`.
 * @returns The module, typed as the caller declares it, or null.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { builtinModule } from "./builtin.ts";
 *
 * const path = builtinModule<{ sep: string }>("path");
 * assert.ok(path === null || typeof path.sep === "string");
 * assert.equal(builtinModule("no-such-builtin"), null);
 * ```
 */
export function builtinModule<T>(id: string): T | null {
  const get = (globalThis as BuiltinHost).process?.getBuiltinModule;
  if (typeof get !== "function") return null;
  try {
    return (get(id) as T | undefined) ?? null;
  } catch {
    // Deno and Bun throw for a name they do not know, Node answers undefined.
    return null;
  }
}
