/**
 * Files of installed npm packages (optional peers such as tree-sitter
 * grammars), found the way Node resolves a bare specifier from this module.
 * Deno, Bun and Node all provide `node:module`'s `createRequire`; on a
 * runtime without it (edge platforms) every lookup answers null, so callers
 * treat the package as not installed.
 *
 * @module
 */
import { readFile } from "node:fs/promises";

type Resolve = (specifier: string) => string;

let resolver: Promise<Resolve | null> | undefined;

function loadResolver(): Promise<Resolve | null> {
  return resolver ??= import("node:module").then(
    (m) => {
      const require = m.createRequire(import.meta.url);
      return (specifier: string) => require.resolve(specifier);
    },
    () => null,
  );
}

/**
 * Reads a file of an installed package.
 *
 * @param specifier A bare specifier naming the file, e.g.
 *   `"tree-sitter-json/tree-sitter-json.wasm"`.
 * @returns Its bytes, or null when the package (or the file) is not installed
 *   or this runtime cannot resolve packages.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readPackageFile } from "./packages.ts";
 * assert.equal(await readPackageFile("surely-not-installed-pkg/x.wasm"), null);
 * ```
 */
export async function readPackageFile(
  specifier: string,
): Promise<Uint8Array | null> {
  const resolve = await loadResolver();
  if (!resolve) return null;
  let path: string;
  try {
    path = resolve(specifier);
  } catch {
    return null;
  }
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    return null;
  }
}
