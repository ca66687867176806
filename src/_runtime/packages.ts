/**
 * Files of installed npm packages (optional peers such as tree-sitter
 * grammars). A file is looked for first in the `node_modules` folders above
 * this module, the folders Node's resolution of a bare specifier would try
 * first; only when none holds it is the runtime's own resolution asked
 * (`node:module`'s `createRequire`, which also knows Deno's global npm cache
 * and Yarn's Plug'n'Play). Loading `node:module` costs a CLI process more
 * than the few reads the walk takes. On a runtime without either (edge
 * platforms) every lookup answers null, so callers treat the package as not
 * installed.
 *
 * @module
 */
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinModule } from "./builtin.ts";

type Resolve = (specifier: string) => string;

let resolver: Resolve | null | undefined;

function loadResolver(): Resolve | null {
  if (resolver !== undefined) return resolver;
  const createRequire = builtinModule<{
    createRequire?: (from: string) => { resolve(specifier: string): string };
  }>("module")?.createRequire;
  if (typeof createRequire !== "function") return resolver = null;
  const require = createRequire(import.meta.url);
  return resolver = (specifier: string) => require.resolve(specifier);
}

/** This module's folder on disk, or null when it was not loaded from a file. */
function here(): string | null {
  const url = new URL(".", import.meta.url);
  return url.protocol === "file:" ? fileURLToPath(url) : null;
}

/** The `node_modules` folders Node's resolution tries from `start`, nearest first. */
function nodeModulesFolders(start: string): string[] {
  const out: string[] = [];
  for (let dir = start;; dir = dirname(dir)) {
    if (basename(dir) !== "node_modules") out.push(join(dir, "node_modules"));
    if (dirname(dir) === dir) return out;
  }
}

/** A package name and a path inside it, without `.` or `..` segments. */
const PACKAGE_FILE =
  /^(@[^/\\]+\/)?[^/\\@.][^/\\]*(\/(?!\.\.?(\/|$))[^/\\]+)+$/;

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function readIfThere(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch {
    return null;
  }
}

/**
 * Reads a file of an installed package.
 *
 * @param specifier A bare specifier naming the file, e.g.
 *   `"tree-sitter-json/tree-sitter-json.wasm"`.
 * @returns Its bytes, or null when the package (or the file) is not installed,
 *   this runtime cannot resolve packages, or `specifier` is not a package name
 *   followed by a path inside the package (no `.` or `..` segments).
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
  if (!PACKAGE_FILE.test(specifier)) return null;
  const start = here();
  if (start !== null) {
    const name = specifier.split("/", specifier.startsWith("@") ? 2 : 1)
      .join("/");
    for (const folder of nodeModulesFolders(start)) {
      const bytes = await readIfThere(join(folder, specifier));
      if (bytes) return bytes;
      // The nearest copy of the package is the one Node would load: when
      // the file is not at that path there, its exports may name another.
      if (await isFolder(join(folder, name))) break;
    }
  }
  const resolve = loadResolver();
  if (!resolve) return null;
  let path: string;
  try {
    path = resolve(specifier);
  } catch {
    return null;
  }
  return await readIfThere(path);
}
