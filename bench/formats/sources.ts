/**
 * The code the benchmark edits: TypeScript and JavaScript sources shipped in
 * well-known npm packages (installed as dev dependencies), so the tasks run
 * on code this project did not write.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createRng, deriveSeed } from "./_rng.ts";

/** Where a package keeps readable sources. */
export interface PackageSpec {
  /** npm name. */
  name: string;
  /** Folders inside the package holding unminified sources. */
  dirs: string[];
}

/** The packages the tasks come from. */
export const PACKAGES: readonly PackageSpec[] = [
  { name: "rxjs", dirs: ["src/internal"] },
  { name: "immer", dirs: ["src"] },
  {
    name: "preact",
    dirs: ["src", "hooks/src", "compat/src", "debug/src", "jsx-runtime/src"],
  },
  { name: "execa", dirs: ["lib"] },
];

/** Smallest and largest file (in lines) a task may come from. */
export const MIN_LINES = 100;
/** See {@link MIN_LINES}. */
export const MAX_LINES = 1500;

/** One source file. */
export interface SourceFile {
  /** `package/relative/path` (also the path used in every edit). */
  path: string;
  /** Package name. */
  pkg: string;
  /** The file's text (LF line ends). */
  text: string;
  /** Number of lines. */
  lines: number;
}

/** A package as used in a run. */
export interface PackageUse {
  /** npm name. */
  name: string;
  /** Installed version. */
  version: string;
  /** Files of 100–1500 lines found. */
  eligible: number;
  /** Files picked. */
  picked: number;
}

/** The sources of one run. */
export interface SourceSet {
  /** Per package: version and file counts. */
  packages: PackageUse[];
  /** Picked files, sorted by path. */
  files: SourceFile[];
}

async function walk(dir: string, rel: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(join(dir, rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) await walk(dir, path, out);
    else if (/\.(ts|js)$/.test(e.name) && !e.name.endsWith(".d.ts")) {
      out.push(path);
    }
  }
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * Loads the source files of {@link PACKAGES} from a `node_modules` folder
 * and picks up to `filesPerPackage` of each (seeded).
 *
 * @param options `nodeModules` folder, `seed`, and `filesPerPackage`.
 * @returns The packages with their versions and the picked files.
 * @throws {Error} When a package is not installed.
 */
export async function loadSources(options: {
  nodeModules: string;
  seed: number;
  filesPerPackage: number;
}): Promise<SourceSet> {
  const packages: PackageUse[] = [];
  const files: SourceFile[] = [];
  for (const spec of PACKAGES) {
    const root = join(options.nodeModules, spec.name);
    let version: string;
    try {
      version = JSON.parse(await readFile(join(root, "package.json"), "utf8"))
        .version;
    } catch {
      throw new Error(
        `Cannot load the sources of ${spec.name}: it is not installed under ${options.nodeModules}; run npm install first.`,
      );
    }
    const found: string[] = [];
    for (const d of spec.dirs) await walk(root, d, found);
    found.sort();
    const eligible: SourceFile[] = [];
    for (const rel of found) {
      const text = await readFile(join(root, rel), "utf8");
      const lines = lineCount(text);
      if (text.includes("\r") || lines < MIN_LINES || lines > MAX_LINES) {
        continue;
      }
      eligible.push({
        path: `${spec.name}/${rel}`,
        pkg: spec.name,
        text,
        lines,
      });
    }
    const rng = createRng(deriveSeed(options.seed, "files", spec.name));
    const picked = rng.shuffle(eligible).slice(0, options.filesPerPackage);
    packages.push({
      name: spec.name,
      version,
      eligible: eligible.length,
      picked: picked.length,
    });
    files.push(...picked);
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { packages, files };
}
