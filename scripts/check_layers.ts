/**
 * Checks the import graph of `src/` (read from `deno info --json`): no
 * import cycle, and no import up the layers of {@link LAYERS}, where
 * `_runtime/`, `_internal/` and `errors.ts` may be imported by anyone and
 * import only each other. Type-only and dynamic imports count too: a type
 * that points up the layers couples them as much as a value does. Prints
 * the layer diagram, then every offending import, and exits 1 when there is
 * one. ARCHITECTURE.md shows the same diagram between
 * `<!-- layers:begin -->` and `<!-- layers:end -->`: a run fails when that
 * block differs, and `--write` rewrites it.
 *
 * Usage:
 *   deno run -A scripts/check_layers.ts            print the diagram, check the graph and ARCHITECTURE.md
 *   deno run -A scripts/check_layers.ts --check    the same
 *   deno run -A scripts/check_layers.ts --write    rewrite ARCHITECTURE.md's block, then check the graph
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root. */
export const ROOT: string = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
);

/** One import, with modules named as `src/…` paths, `node:…` or `npm:<package>`. */
export interface ImportEdge {
  /** The importing module. */
  from: string;
  /** The imported module. */
  to: string;
  /** True when only types are imported (`import type`, or the type side of `@ts-types`). */
  typeOnly: boolean;
  /** True for `import()`. */
  dynamic: boolean;
}

/** One rule broken, as a sentence. */
export interface Violation {
  /** The offending import (for a cycle, the import that closes it). */
  edge: ImportEdge;
  /** What is wrong and what to do. */
  message: string;
}

/**
 * The layers of `src/`, top first: a folder may import its own row and the
 * rows below it. The diagram printed here and shown in ARCHITECTURE.md is
 * drawn from this list.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli", "http", "mcp", "adapters"],
  ["tools"],
  ["workspace", "store"],
  ["read"],
  ["check", "history", "records", "result"],
  ["block", "stream"],
  ["patch"],
  ["commit"],
  ["lock"],
  ["fs"],
  ["anchor"],
  ["hash"],
];

/** Layer rank of each top folder of `src/`; an import may point to an equal or lower rank. */
const RANKS: Record<string, number> = Object.fromEntries(
  LAYERS.flatMap((row, i) => row.map((folder) => [folder, LAYERS.length - i])),
);

/**
 * The layer diagram: one row per layer, top first, arrows pointing down.
 *
 * @returns The diagram as text, ending in a newline.
 */
export function layerDiagram(): string {
  const rows = LAYERS.map((row) => row.map((f) => `${f}/`).join("  "));
  return [
    ...rows.flatMap((row, i) => i === 0 ? [row] : ["  ↓", row]),
    "",
    "_runtime/, _internal/ and errors.ts: imported by any layer, import only each other",
  ].join("\n") + "\n";
}

const BEGIN = "<!-- layers:begin -->";
const END = "<!-- layers:end -->";

/**
 * `text` with the block between the layer markers replaced by the diagram,
 * or undefined when `text` has no such block.
 *
 * @param text A Markdown file such as ARCHITECTURE.md.
 * @returns The updated text, or undefined.
 */
export function withDiagram(text: string): string | undefined {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END, start);
  if (start < 0 || end < 0) return undefined;
  return `${
    text.slice(0, start)
  }${BEGIN}\n\n\`\`\`text\n${layerDiagram()}\`\`\`\n\n${text.slice(end)}`;
}

/** Modules anyone may import; they import only each other. */
const SHARED = /^src\/(_runtime\/|_internal\/|errors\.ts$)/;

interface DenoInfo {
  modules: {
    specifier: string;
    kind?: string;
    dependencies?: {
      code?: { specifier: string };
      type?: { specifier: string };
      isDynamic?: boolean;
    }[];
  }[];
  redirects: Record<string, string>;
}

/** Names a resolved specifier as `src/…`, `node:…`, `npm:<package>` or a repository path. */
function nameOf(specifier: string): string {
  if (specifier.startsWith("node:")) return specifier;
  if (specifier.startsWith("npm:")) {
    const bare = specifier.slice(4).replace(/^\//, "");
    const parts = bare.split("/");
    const name = bare.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
    return `npm:${name.replace(/(.)@.*$/, "$1")}`;
  }
  if (specifier.startsWith("file:")) {
    const file = fileURLToPath(specifier);
    const inModules = file.split(`${path.sep}node_modules${path.sep}`);
    if (inModules.length > 1) {
      const parts = inModules[inModules.length - 1].split(path.sep);
      return `npm:${
        parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]
      }`;
    }
    return path.relative(ROOT, file).split(path.sep).join("/");
  }
  return specifier;
}

/**
 * Reads the import graph of the given modules (paths relative to the
 * repository root) with `deno info --json`, in one call.
 *
 * @param files Root modules, e.g. `["src/hash/mod.ts"]`.
 * @returns Every import reachable from them, npm packages as leaves.
 * @throws {Error} When `deno info` fails or reports a module it cannot load.
 */
export function readGraph(files: string[]): ImportEdge[] {
  const dir = mkdtempSync(path.join(tmpdir(), "hashline-layers-"));
  try {
    const rootFile = path.join(dir, "roots.ts");
    writeFileSync(
      rootFile,
      files.map((f) =>
        `import ${JSON.stringify(pathToFileURL(path.join(ROOT, f)).href)};\n`
      ).join(""),
    );
    const deno = path.join(ROOT, "node_modules", ".bin", "deno");
    const run = spawnSync(deno, [
      "info",
      "--json",
      "--config",
      path.join(ROOT, "deno.json"),
      rootFile,
    ], { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) {
      throw new Error(
        `deno info failed (${run.error?.message ?? `exit ${run.status}`}): ${
          run.stderr ?? ""
        }`,
      );
    }
    const info = JSON.parse(run.stdout) as DenoInfo;
    const resolve = (s: string): string => info.redirects[s] ?? s;
    const edges: ImportEdge[] = [];
    for (const m of info.modules) {
      const from = m.specifier === pathToFileURL(rootFile).href
        ? undefined
        : nameOf(m.specifier);
      if (from === undefined) continue;
      const err = (m as { error?: string }).error;
      if (err) throw new Error(`deno info cannot load ${from}: ${err}`);
      for (const d of m.dependencies ?? []) {
        const dynamic = d.isDynamic === true;
        if (d.code) {
          edges.push({
            from,
            to: nameOf(resolve(d.code.specifier)),
            typeOnly: false,
            dynamic,
          });
        }
        if (d.type && d.type.specifier !== d.code?.specifier) {
          edges.push({
            from,
            to: nameOf(resolve(d.type.specifier)),
            typeOnly: true,
            dynamic,
          });
        }
      }
    }
    return edges;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every `.ts` module under `src/` (tests excluded), as repository paths. */
export function sourceFiles(dir = "src"): string[] {
  const out: string[] = [];
  for (
    const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })
  ) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
      out.push(rel);
    }
  }
  return out.sort();
}

/**
 * The modules loaded when `root` is imported: static imports of code,
 * followed transitively (type-only and dynamic imports are not loaded).
 *
 * @param edges The graph, from {@link readGraph}.
 * @param root A module such as `src/hash/mod.ts`.
 * @returns The names of every module loaded, `root` included.
 */
export function loadedBy(edges: ImportEdge[], root: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.typeOnly || e.dynamic) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  const seen = new Set([root]);
  const todo = [root];
  while (todo.length > 0) {
    for (const to of next.get(todo.pop()!) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        todo.push(to);
      }
    }
  }
  return seen;
}

/**
 * The modules Deno builds before `root` runs: static imports of code and
 * `import()` calls it can analyze, followed transitively. A module loaded
 * through `src/_internal/lazy.ts` is built only when it is first imported.
 *
 * @param edges The graph, from {@link readGraph}.
 * @param root A module such as `src/cli/main.ts`.
 * @returns The names of every module built, `root` included.
 */
export function builtBy(edges: ImportEdge[], root: string): Set<string> {
  return loadedBy(edges.map((e) => ({ ...e, dynamic: false })), root);
}

function describeEdge(e: ImportEdge): string {
  const how = e.typeOnly ? " (types)" : e.dynamic ? " (dynamic)" : "";
  return `${e.from} → ${e.to}${how}`;
}

/** Where a `src/` module sits: its rank, "shared", or undefined when no layer holds it. */
function placeOf(module: string): number | "shared" | undefined {
  if (SHARED.test(module)) return "shared";
  const folder = /^src\/([^/]+)\//.exec(module)?.[1];
  return folder === undefined ? undefined : RANKS[folder];
}

/**
 * The imports that point up the layers, leave `src/`, or come from a
 * module no layer holds.
 *
 * @param edges The graph, from {@link readGraph}.
 * @returns One violation per offending import, in graph order.
 */
export function layerViolations(edges: ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  const seenPlaceless = new Set<string>();
  for (const e of edges) {
    if (!e.from.startsWith("src/")) continue;
    const from = placeOf(e.from);
    if (from === undefined) {
      if (!seenPlaceless.has(e.from)) {
        seenPlaceless.add(e.from);
        out.push({
          edge: e,
          message:
            `${e.from} is in no layer: move it into a layer's folder, or add its folder to RANKS in scripts/check_layers.ts.`,
        });
      }
      continue;
    }
    if (e.to.startsWith("node:") || e.to.startsWith("npm:")) continue;
    if (!e.to.startsWith("src/")) {
      out.push({
        edge: e,
        message: `${
          describeEdge(e)
        }: a module of src/ imports a file outside src/, which the published package does not hold.`,
      });
      continue;
    }
    const to = placeOf(e.to);
    if (to === "shared" || to === undefined) continue;
    if (from === "shared") {
      out.push({
        edge: e,
        message: `${
          describeEdge(e)
        }: _runtime/, _internal/ and errors.ts are imported by every layer, so they may import only each other.`,
      });
    } else if (to > from) {
      out.push({
        edge: e,
        message: `${describeEdge(e)}: ${e.from.split("/")[1]}/ may not import ${
          e.to.split("/")[1]
        }/, which sits above it; move what both need down to the lower layer.`,
      });
    }
  }
  return out;
}

/**
 * The import cycles among `src/` modules, each as the list of modules
 * around it (strongly connected components of more than one module, or a
 * module importing itself).
 *
 * @param edges The graph, from {@link readGraph}.
 * @returns One entry per cycle, each starting at its alphabetically first module.
 */
export function importCycles(edges: ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!e.from.startsWith("src/") || !e.to.startsWith("src/")) continue;
    if (!next.has(e.from)) next.set(e.from, new Set());
    next.get(e.from)!.add(e.to);
  }
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: [string, Iterator<string>][] = [];
    const open = (v: string): void => {
      index.set(v, counter);
      low.set(v, counter++);
      stack.push(v);
      onStack.add(v);
      work.push([v, (next.get(v) ?? new Set<string>()).values()]);
    };
    open(start);
    while (work.length > 0) {
      const [v, it] = work[work.length - 1];
      const step = it.next();
      if (!step.done) {
        const w = step.value;
        if (!index.has(w)) open(w);
        else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || next.get(v)?.has(v)) {
          out.push(component.sort());
        }
      }
    }
  }
  return out;
}

function main(): void {
  console.log(layerDiagram());
  const files = sourceFiles();
  const edges = readGraph(files);
  const problems = layerViolations(edges).map((v) => v.message);
  const doc = path.join(ROOT, "ARCHITECTURE.md");
  if (existsSync(doc)) {
    const text = readFileSync(doc, "utf8");
    const wanted = withDiagram(text);
    if (wanted === undefined) {
      problems.push(
        `ARCHITECTURE.md has no ${BEGIN} … ${END} block: add the two markers where the layer diagram belongs and run \`deno run -A scripts/check_layers.ts --write\`.`,
      );
    } else if (wanted !== text) {
      if (process.argv.includes("--write")) {
        writeFileSync(doc, wanted);
        console.log("ARCHITECTURE.md: layer diagram rewritten.");
      } else {
        problems.push(
          "ARCHITECTURE.md's layer diagram differs from scripts/check_layers.ts: run `deno run -A scripts/check_layers.ts --write`.",
        );
      }
    }
  }
  for (const cycle of importCycles(edges)) {
    problems.push(
      `Import cycle among ${
        cycle.join(", ")
      }: break it by moving what they share into one module the others import.`,
    );
  }
  if (problems.length > 0) {
    console.error(
      `The import graph of src/ breaks ${problems.length} rule(s):\n- ${
        problems.join("\n- ")
      }`,
    );
    process.exit(1);
  }
  console.log(
    `layers: ${files.length} modules, ${
      edges.filter((e) => e.from.startsWith("src/")).length
    } imports; no cycle, no import up the layers.`,
  );
}

if (import.meta.main) main();
