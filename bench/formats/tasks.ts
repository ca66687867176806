/**
 * Tasks: a real source file with one mechanical bug, and the fix that
 * restores the original. Picked per kind from every file's candidates,
 * spread over the files, in an order that follows from the seed.
 *
 * @module
 */
import { createRng, deriveSeed } from "./_rng.ts";
import {
  applyMutation,
  findMutations,
  type Mutation,
  MUTATION_KINDS,
  type MutationKind,
} from "./mutations.ts";
import { loadSources, type SourceFile, type SourceSet } from "./sources.ts";

/** Lines that must stand above the changed region (room for drift above it). */
export const MARGIN_ABOVE = 12;
/** Lines that must stand below it (diff context never reaches the end of file). */
export const MARGIN_BELOW = 5;

/** One task. */
export interface Task {
  /** `kind-NN`. */
  id: string;
  /** Mutation kind. */
  kind: MutationKind;
  /** Path of the file (`package/…`). */
  path: string;
  /** The file as published (what the fix must restore). */
  original: string;
  /** The file with the bug (what the editor reads). */
  buggy: string;
  /** What the mutation did. */
  note: string;
}

/**
 * Builds `perKind` tasks of every kind (fewer when a kind has fewer
 * candidates), taking candidates from the files in turn.
 *
 * @param files The source files.
 * @param options `seed`, `perKind`, and `kinds` to build only some kinds.
 * @returns Tasks, grouped by kind in {@link MUTATION_KINDS} order.
 */
export function buildTasks(
  files: readonly SourceFile[],
  options: { seed: number; perKind: number; kinds?: readonly MutationKind[] },
): Task[] {
  const byKind = new Map<MutationKind, Map<number, Mutation[]>>();
  for (const k of MUTATION_KINDS) byKind.set(k, new Map());
  files.forEach((file, fi) => {
    const lines = file.lines;
    for (const m of findMutations(file.path, file.text, options.kinds)) {
      if (m.firstLine < MARGIN_ABOVE || m.lastLine >= lines - MARGIN_BELOW) {
        continue;
      }
      const perFile = byKind.get(m.kind)!;
      const list = perFile.get(fi);
      if (list) list.push(m);
      else perFile.set(fi, [m]);
    }
  });
  const tasks: Task[] = [];
  for (const kind of MUTATION_KINDS) {
    if (options.kinds && !options.kinds.includes(kind)) continue;
    const rng = createRng(deriveSeed(options.seed, "tasks", kind));
    const perFile = byKind.get(kind)!;
    const order = rng.shuffle([...perFile.keys()].sort((a, b) => a - b));
    const queues = order.map((fi) => ({
      fi,
      list: rng.shuffle(perFile.get(fi)!),
    }));
    const seen = new Set<string>();
    let n = 0;
    while (n < options.perKind && queues.some((q) => q.list.length > 0)) {
      for (const q of queues) {
        if (n >= options.perKind) break;
        const m = q.list.shift();
        if (!m) continue;
        const file = files[q.fi];
        const buggy = applyMutation(file.text, m);
        const key = `${file.path}\u0000${buggy}`;
        if (buggy === file.text || seen.has(key)) continue;
        seen.add(key);
        n++;
        tasks.push({
          id: `${kind}-${String(n).padStart(2, "0")}`,
          kind,
          path: file.path,
          original: file.text,
          buggy,
          note: m.note,
        });
      }
    }
  }
  return tasks;
}

/**
 * Loads the source files of the installed packages and builds the tasks
 * from them: what every runner of the formats bench starts with.
 *
 * @param options Where `node_modules` is, the seed, files per package,
 *   tasks per kind, and optionally which kinds.
 * @returns The sources and their tasks.
 */
export async function loadTasks(options: {
  nodeModules: string;
  seed: number;
  filesPerPackage: number;
  perKind: number;
  kinds?: readonly MutationKind[];
}): Promise<{ sources: SourceSet; tasks: Task[] }> {
  const sources = await loadSources({
    nodeModules: options.nodeModules,
    seed: options.seed,
    filesPerPackage: options.filesPerPackage,
  });
  const tasks = buildTasks(sources.files, {
    seed: options.seed,
    perKind: options.perKind,
    kinds: options.kinds,
  });
  return { sources, tasks };
}
