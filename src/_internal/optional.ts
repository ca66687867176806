/**
 * Loading an optional peer package (the MCP server SDK, `postgres`,
 * `@hono/node-server`, `ai`) only when the feature that needs it is used,
 * and turning "module not found" into a sentence that names the package to
 * install and the feature that wanted it.
 *
 * @module
 */

/** Thrown when an optional package a feature needs is not installed. */
export class MissingPackageError extends Error {
  /** The npm name of the package to install. */
  readonly packageName: string;

  /**
   * @param packageName The npm name of the missing package.
   * @param feature What needed it, e.g. `openPostgresStore`.
   * @param cause The loader's own error.
   */
  constructor(packageName: string, feature: string, cause: unknown) {
    super(
      `${feature} needs the optional package "${packageName}", which is not installed: run \`npm install ${packageName}\` (or \`bun add ${packageName}\`, \`deno add npm:${packageName}\`) and try again.`,
      { cause },
    );
    this.name = "MissingPackageError";
    this.packageName = packageName;
  }
}

/** Whether `error` says that `packageName` could not be resolved (Node, Bun and Deno word it differently). */
export function isMissingPackage(
  error: unknown,
  packageName: string,
): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  const message = error.message;
  if (!message.includes(packageName)) return false;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND" ||
    /cannot find (package|module)|could not find|not found|failed to resolve|unable to resolve/i
      .test(message);
}

/**
 * Runs `loader` (a dynamic `import()` with a literal specifier, so bundlers
 * and `deno info` still see the edge) and maps a missing package to a
 * {@link MissingPackageError}.
 *
 * @param packageName The npm name the loader imports.
 * @param feature What needs it, for the error message.
 * @param loader The dynamic import.
 * @returns The loaded module.
 * @throws {MissingPackageError} When the package is not installed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadOptional, MissingPackageError } from "./optional.ts";
 * const missing = loadOptional("left-pad-nowhere", "the demo", () =>
 *   Promise.reject(new Error('Cannot find package "left-pad-nowhere"')));
 * await assert.rejects(missing, MissingPackageError);
 * ```
 */
export async function loadOptional<T>(
  packageName: string,
  feature: string,
  loader: () => Promise<T>,
): Promise<T> {
  try {
    return await loader();
  } catch (error) {
    if (isMissingPackage(error, packageName)) {
      throw new MissingPackageError(packageName, feature, error);
    }
    throw error;
  }
}
