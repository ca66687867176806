/**
 * Builds the command line's bundle (docs/cli.md, "Start-up"): `build/cli/`,
 * which `bin/hashline` runs instead of `src/cli/main.ts` while no file under
 * `src/` (nor `deno.json`) is newer than it.
 *
 * Run from source, a CLI `read` loads about 60 modules, and Deno pays for
 * each one it resolves, reads and instantiates; bundled, the same read loads
 * two files: `main.js` and the `core` chunk, which holds every module the
 * `files` commands (read, patch, write, ls, grep) load at start. The write
 * path, the other command families, the checker and every module that
 * imports an npm package stay in chunks of their own, loaded on first need
 * as from source. npm packages are not bundled: Deno resolves them through
 * `deno.json` as it does for the source.
 *
 * Two rewrites make this work, both on the bundle's copy only:
 * - a `lazy()` loader (src/_internal/lazy.ts) gets its module as a literal
 *   `import()` the bundler can follow, or as a static import when the module
 *   is in the core chunk anyway;
 * - every `import()` between chunks is written with a computed specifier, so
 *   Deno does not read every chunk before the program starts (it builds the
 *   graph of each literal `import()` up front).
 *
 * Usage:
 *   deno run -A scripts/build_cli.ts [--out DIR] [--if-possible]
 *
 * `--out` writes elsewhere than `build/cli` (the tests build their own);
 * `--if-possible` (the `prepare` step of `npm ci`) warns instead of failing,
 * and `bin/hashline` then runs the source.
 *
 * @module
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";
import { type ModuleInfo, type Plugin, rollup } from "rollup";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRY = join(root, "src", "cli", "main.ts");
/** The modules whose static imports make up the core chunk: `main` and the `files` family. */
const CORE_ROOTS = [ENTRY, join(root, "src", "cli", "_files.ts")];
/** A loader as src/_internal/lazy.ts documents it: `lazy<T>(import.meta.url, "./x.ts")`. */
const LAZY = /\blazy<([^>]*?)>\(\s*import\.meta\.url,\s*("[^"]+"),?\s*\)/gs;
/** A `lazy<` call in code, matched or not (the build refuses one it cannot rewrite). */
const LAZY_CALL = /^(?!\s*(?:\*|\/\/)).*\blazy</gm;

/** Whether `id` is a runtime module or an npm package, which stay outside the bundle. */
function isExternal(id: string): boolean {
  return !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0");
}

/**
 * The rewrite of one source module: each loader gets its module's import,
 * static when `inCore` says the module is in the core chunk.
 */
async function rewrite(
  code: string,
  id: string,
  inCore: (abs: string) => boolean,
): Promise<string> {
  const head: string[] = [];
  let found = 0;
  let text = code.replace(LAZY, (_all, type: string, spec: string) => {
    found++;
    const target = resolve(dirname(id), JSON.parse(spec));
    if (inCore(target)) {
      const name = `__hashline_core_${head.length}`;
      head.push(`import * as ${name} from ${spec};`);
      return `lazy<${type}>(import.meta.url, ${spec}, () => Promise.resolve(${name}))`;
    }
    return `lazy<${type}>(import.meta.url, ${spec}, () => import(${spec}))`;
  });
  const calls = (code.match(LAZY_CALL) ?? []).length -
    (id.endsWith("/_internal/lazy.ts") ? 1 : 0);
  if (found !== calls) {
    throw new Error(
      `${
        relative(root, id)
      }: ${calls} lazy() calls, ${found} in the form lazy<T>(import.meta.url, "./x.ts"); write each in that form.`,
    );
  }
  if (head.length > 0) text = head.join("\n") + "\n" + text;
  const out = await transform(text, {
    loader: "ts",
    format: "esm",
    target: "esnext",
    sourcefile: id,
  });
  return out.code;
}

function plugin(inCore: (abs: string) => boolean): Plugin {
  return {
    name: "hashline-cli",
    transform(code, id) {
      return id.endsWith(".ts") ? rewrite(code, id, inCore) : null;
    },
    renderDynamicImport() {
      return { left: "import(String(", right: "))" };
    },
  };
}

/** The module graph with every loader's module as a dynamic import. */
async function graph(): Promise<Map<string, ModuleInfo>> {
  const infos = new Map<string, ModuleInfo>();
  const grab: Plugin = {
    name: "graph",
    buildEnd() {
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info) infos.set(id, info);
      }
    },
  };
  const b = await rollup({
    input: ENTRY,
    external: isExternal,
    plugins: [plugin(() => false), grab],
    onwarn: () => {},
  });
  await b.close();
  return infos;
}

/** The static closure of the core roots; refuses one that imports an npm package. */
function coreOf(infos: Map<string, ModuleInfo>): Set<string> {
  const core = new Set<string>();
  const visit = (id: string, from: string) => {
    if (core.has(id)) return;
    const info = infos.get(id);
    if (!info || info.isExternal) {
      if (!id.startsWith("node:")) {
        throw new Error(
          `${
            relative(root, from)
          } imports ${id} at start: every CLI read would load it. Load it lazily (src/_internal/lazy.ts).`,
        );
      }
      return;
    }
    core.add(id);
    for (const dep of info.importedIds) visit(dep, id);
  };
  for (const r of CORE_ROOTS) visit(r, r);
  return core;
}

/** Builds the bundle into `out`, replacing what is there only once complete. */
export async function buildCli(out: string): Promise<{ files: number }> {
  const core = coreOf(await graph());
  const bundle = await rollup({
    input: ENTRY,
    external: isExternal,
    plugins: [plugin((abs) => core.has(abs))],
    onwarn(warning, warn) {
      if (warning.code !== "CIRCULAR_DEPENDENCY") warn(warning);
    },
  });
  const staging = `${out}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const written = await bundle.write({
      dir: staging,
      format: "es",
      entryFileNames: "main.js",
      chunkFileNames: "[name]-[hash].js",
      manualChunks: (id) => core.has(id) && id !== ENTRY ? "core" : undefined,
    });
    mkdirSync(dirname(out), { recursive: true });
    // A launcher that finds no bundle runs the source: the old one goes
    // first, and the new one is never seen half written.
    const old = `${out}.${process.pid}.old`;
    if (existsSync(out)) renameSync(out, old);
    renameSync(staging, out);
    rmSync(old, { recursive: true, force: true });
    return { files: written.output.length };
  } finally {
    await bundle.close();
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const out = at >= 0 ? resolve(args[at + 1]) : join(root, "build", "cli");
  try {
    const { files } = await buildCli(out);
    console.log(`build_cli: ${relative(root, out) || out} (${files} files)`);
  } catch (error) {
    if (!args.includes("--if-possible")) throw error;
    console.warn(
      `build_cli: no bundle (${
        (error as Error).message
      }); bin/hashline runs the source.`,
    );
  }
}
