/**
 * The one place a module is imported through a specifier held in a
 * variable. Deno builds the module graph of every literal `import()` before
 * a program starts, so a CLI `read` would pay for the write path, the
 * history, the checker and every command family it never runs; a specifier
 * in a variable is built only when it is first imported. Callers name the
 * module's type with `typeof import("…")`, which keeps it in the type check
 * and in the import graph `scripts/check_layers.ts` reads.
 *
 * The boundaries that pay for themselves are the CLI's command families and
 * the workspace's write path (patch, write, history, undo, locks, recovery,
 * streamed reads, the syntax checker). Every other lazy load is a literal
 * `import()`.
 *
 * The CLI's bundle (scripts/build_cli.ts) cannot follow a specifier in a
 * variable: its build hands each loader the module itself, as `load`.
 *
 * @module
 */

/**
 * Makes a loader that imports `specifier` (resolved against `base`, the
 * caller's `import.meta.url`) on its first call and hands every later call
 * the same module.
 *
 * @param base The importing module's `import.meta.url`.
 * @param specifier A relative `.ts` specifier, as a static import would write it.
 * @param load Loads the module instead; only the bundle's build writes it,
 *   since a literal `import()` here would have Deno build its graph at start.
 * @returns The loader; its promise rejects when the module cannot be loaded.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lazy } from "./lazy.ts";
 *
 * const loadBytes = lazy<typeof import("./bytes.ts")>(
 *   import.meta.url,
 *   "./bytes.ts",
 * );
 * assert.equal(await loadBytes(), await loadBytes());
 * ```
 */
export function lazy<T>(
  base: string,
  specifier: string,
  load?: () => Promise<unknown>,
): () => Promise<T> {
  let loading: Promise<T> | undefined;
  if (load) return () => loading ??= load() as Promise<T>;
  const path = fromHere(new URL(specifier, base));
  // A template that starts with "./": JSR and the npm build (which turns
  // `.ts` into `.js`) see a relative import and leave it be, and Deno, which
  // would build the graph of every module in this folder, finds only the
  // small helpers beside this one.
  return () => loading ??= import(`./${path}`) as Promise<T>;
}

/** The path from this module's folder to `target` (same origin). */
function fromHere(target: URL): string {
  const here = new URL(".", import.meta.url).pathname.split("/").slice(0, -1);
  const there = target.pathname.split("/");
  let shared = 0;
  while (
    shared < here.length && shared < there.length - 1 &&
    here[shared] === there[shared]
  ) shared++;
  return "../".repeat(here.length - shared) + there.slice(shared).join("/");
}
