/**
 * Configuration from the environment, read through whatever the runtime
 * offers (`process.env` in Node, Bun and Deno, `Deno.env` otherwise) without
 * importing `node:process`, so that modules which only read a setting (the
 * hash engine's `HASHLINE_ENGINE`) load on edge runtimes that have no
 * `node:*` modules at all.
 *
 * @module
 */

/** The parts of the runtime globals read here, declared structurally. */
interface EnvGlobals {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env?: { get(name: string): string | undefined } };
}

/**
 * Reads an environment variable.
 *
 * @param name The variable's name.
 * @returns Its value; undefined when it is unset, when this runtime has no
 *   environment (edge platforms), or when reading it is not permitted.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getEnv } from "./config.ts";
 * assert.equal(getEnv("HASHLINE_SURELY_UNSET_VARIABLE"), undefined);
 * ```
 */
export function getEnv(name: string): string | undefined {
  const globals = globalThis as EnvGlobals;
  try {
    const env = globals.process?.env;
    if (env) return env[name];
    return globals.Deno?.env?.get(name);
  } catch {
    // Deno without --allow-env throws rather than answering.
    return undefined;
  }
}
