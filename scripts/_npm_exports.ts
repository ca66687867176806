/**
 * The npm package's `exports`, derived from deno.json's: every JSR subpath
 * becomes the same npm subpath, its `.ts` module compiled to `dist/` as
 * `.js` beside a `.d.ts`. The build writes them into package.json and the
 * package tests check that the two never drift apart.
 *
 * @module
 */

/** One npm subpath: types first, as TypeScript wants. */
export interface NpmExport {
  types: string;
  default: string;
}

/** The npm `exports` map (plus `./package.json` for tools that read it). */
export type NpmExports = Record<string, NpmExport | string>;

/** Where the build puts compiled modules. */
export const DIST = "dist";

/** The compiled path of a source module, `./src/a.ts` → `./dist/src/a.js` (or `.d.ts`). */
export function distPath(source: string, kind: "js" | "dts"): string {
  if (!/^\.\/.+\.ts$/.test(source)) {
    throw new TypeError(
      `deno.json exports must name relative .ts modules, got ${
        JSON.stringify(source)
      }.`,
    );
  }
  const bare = source.slice(2, -3);
  return `./${DIST}/${bare}${kind === "js" ? ".js" : ".d.ts"}`;
}

/**
 * The npm `exports` for deno.json's `exports` (a string for `.` alone, or a
 * map of subpaths).
 *
 * @param denoExports The `exports` field of deno.json.
 * @returns The npm `exports` field.
 * @throws {TypeError} When an entry is not a relative `.ts` module.
 */
export function npmExportsFor(
  denoExports: string | Record<string, string>,
): NpmExports {
  const entries = typeof denoExports === "string"
    ? { ".": denoExports }
    : denoExports;
  const out: NpmExports = {};
  for (const [subpath, source] of Object.entries(entries)) {
    out[subpath] = {
      types: distPath(source, "dts"),
      default: distPath(source, "js"),
    };
  }
  out["./package.json"] = "./package.json";
  return out;
}

/** The source modules deno.json exports: the build's entry points. */
export function entryModules(
  denoExports: string | Record<string, string>,
): string[] {
  return typeof denoExports === "string"
    ? [denoExports]
    : Object.values(denoExports);
}
