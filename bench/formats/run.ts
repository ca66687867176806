/**
 * One run of the edit-format benchmark: sources → tasks → fixes in every
 * format → token counts → every fix applied by every tool after every drift
 * kind, scored. Everything follows from the seed and the installed package
 * versions; nothing is timed.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as prettier from "prettier";
import { foldHash, formatHashlines, lineHash32 } from "../../mod.ts";
import { toLines } from "./_lines.ts";
import { hashlineApi } from "./_hashline_api.ts";
import {
  createAppliers,
  gnuPatchVersion,
  hasGnuPatch,
  leanPatchText,
  type PeerApplier,
  peerApplier,
} from "./appliers.ts";
import {
  COST_ROWS,
  type CostRow,
  leanFromHashlines,
  libraryLeanRead,
  outlineAndBlock,
  probeReadForms,
  type ReadForms,
  type TaskCost,
  toolDefinitionTokens,
} from "./cost.ts";
import {
  PEER_NAME,
  peerCall,
  peerOps,
  peerPatch,
  peerUnavailable,
} from "./peer.ts";
import { type Outcome, scoreDrift } from "./checker.ts";
import {
  type BrokenTally,
  checkBrokenFixes,
  emptyBrokenTally,
} from "./broken.ts";
import { createChecker } from "../../src/check/mod.ts";
import { drift, DRIFT_KINDS, type Drifted, type DriftKind } from "./drift.ts";
import { buildFix, type Fix, type FormatName, FORMATS } from "./fixes.ts";
import type { MutationKind } from "./mutations.ts";
import type { PackageUse } from "./sources.ts";
import { loadTasks, type Task } from "./tasks.ts";
import {
  createTokenCounter,
  type TokenizerName,
  TOKENIZERS,
} from "./tokens.ts";

/** Sizes and switches of a run. */
export interface RunOptions {
  /** Seed of every choice (default 1). */
  seed?: number;
  /** Tasks per mutation kind (default 20). */
  perKind?: number;
  /** Files taken from each package (default 12). */
  filesPerPackage?: number;
  /** The `node_modules` folder holding the source packages. */
  nodeModules: string;
  /** Only these mutation kinds (default all; for reduced runs). */
  kinds?: readonly MutationKind[];
  /** Run GNU patch when it is installed (default true). */
  gnuPatch?: boolean;
  /** Run the peer (`@oh-my-pi/hashline` under Bun) when it can run here (default true). */
  peer?: boolean;
  /** Progress lines (to stderr in the CLI). */
  log?: (line: string) => void;
}

/** Token counts of one payload. */
export type Counts = Record<TokenizerName, { bare: number; wrapped: number }>;

/** One task as reported. */
export interface TaskRow {
  /** Task id. */
  id: string;
  /** Mutation kind. */
  kind: MutationKind;
  /** File path. */
  path: string;
  /** Lines of the file. */
  lines: number;
  /** Output tokens of the fix, per format. */
  tokens: Record<FormatName, Counts>;
  /** Tokens of one whole-file read: plain, `LINE:HH|`, `cat -n`, lean `LINE|`, the peer's. */
  read: Record<
    TokenizerName,
    {
      plain: number;
      hashline: number;
      catN: number;
      lean: number;
      peer: number | null;
    }
  >;
  /** Output tokens of the peer's fix (`[PATH#TAG]` + `PUT`/`CUT`), when it ran. */
  peerTokens: Counts | null;
  /** One read (of the file as read) and one edit call, per per-task row. */
  costs: Record<TokenizerName, Record<CostRow, TaskCost>>;
}

/** One applied fix. */
export interface Trial {
  /** Task id. */
  task: string;
  /** Mutation kind. */
  kind: MutationKind;
  /** Drift kind. */
  drift: DriftKind;
  /** Applier id. */
  applier: string;
  /** Score. */
  outcome: Outcome;
  /**
   * Present when CORRECT only with the fix's own new lines in the style they
   * were written in (the `reformat` drift; see `restyledOnly`).
   */
  restyled?: true;
}

/** Everything a run measured. */
export interface RunResult {
  /** The options used. */
  seed: number;
  /** Tasks per kind asked for. */
  perKind: number;
  /** Files per package asked for. */
  filesPerPackage: number;
  /** Packages with versions and file counts. */
  packages: PackageUse[];
  /** Files tasks came from. */
  files: number;
  /** Tasks. */
  tasks: TaskRow[];
  /** The appliers in table order. */
  appliers: {
    id: string;
    label: string;
    format: FormatName;
    semantics: string;
  }[];
  /** Every trial. */
  trials: Trial[];
  /** Drifts skipped (prettier could not parse the file), per kind. */
  skipped: Partial<Record<DriftKind, number>>;
  /** Anchored lines whose text changed under a drift, and how many the 2-hex fold alone would have passed. */
  fold: {
    changed: number;
    foldMatched: number;
    foldOnlyWrong: number;
    recordWrong: number;
  };
  /** The drift-free broken-fix column: the syntax check on correct and broken fixes. */
  brokenFix: BrokenTally;
  /** What this build honours (`rebase`), and tools left out. */
  notes: string[];
  /** Read forms this build offers (probed). */
  readForms: ReadForms;
  /** Tool definitions charged to each per-task row, per tokenizer. */
  toolDefs: Record<CostRow, Record<TokenizerName, number>>;
  /** The peer's version, or why it did not run. */
  peer: { version: string } | { skipped: string };
  /** Tool and library versions that shape the numbers. */
  versions: Record<string, string>;
}

async function packageVersion(
  nodeModules: string,
  name: string,
): Promise<string> {
  try {
    return JSON.parse(
      await readFile(join(nodeModules, name, "package.json"), "utf8"),
    ).version;
  } catch {
    return "unknown";
  }
}

/** Tasks in flight at once. */
const CONCURRENCY = 4;

function catN(lines: readonly string[]): string {
  return lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n");
}

/** Line numbers (0-based, in the read) whose text the fix's anchors vouch for. */
function anchoredLines(fix: Fix): number[] {
  const { start, deleteCount } = fix.hunk;
  if (deleteCount === 0) return [start > 0 ? start - 1 : 0];
  return Array.from({ length: deleteCount }, (_, i) => start + i);
}

/**
 * Runs the benchmark.
 *
 * @param options Sizes, the seed and the source folder.
 * @returns What was measured.
 */
export async function runFormatsBench(options: RunOptions): Promise<RunResult> {
  const seed = options.seed ?? 1;
  const perKind = options.perKind ?? 20;
  const filesPerPackage = options.filesPerPackage ?? 12;
  const log = options.log ?? (() => {});
  const { sources, tasks } = await loadTasks({
    nodeModules: options.nodeModules,
    seed,
    filesPerPackage,
    perKind,
    kinds: options.kinds,
  });
  log(`${sources.files.length} files, ${tasks.length} tasks`);

  const api = hashlineApi();
  const notes: string[] = [];
  if (!api.rebase) {
    notes.push(
      `This build's in-memory patch call (\`${api.via}\`) does not apply \`rebase: true\` yet, so its row with rebase on equals the row with it off.`,
    );
  }
  const gnu = (options.gnuPatch ?? true) && hasGnuPatch();
  if (!gnu) {
    notes.push("GNU `patch` is not installed here: its row is left out.");
  }
  const readForms = await probeReadForms();
  if (!readForms.leanOps) {
    notes.push(
      "lean ops: n/a in this build (no bare-number ops after a lean read); lean reads are counted in the form docs/reads.md fixes (`LINE|content`).",
    );
  }
  if (!readForms.outline) {
    notes.push(
      "outline reads: n/a in this build (`read(path, { outline: true })` returns the whole file).",
    );
  }
  const peerWhy = (options.peer ?? true) ? peerUnavailable() : "not selected";
  const peer: PeerApplier | undefined = peerWhy === undefined
    ? peerApplier()
    : undefined;
  if (peerWhy !== undefined) {
    notes.push(`${PEER_NAME} left out: ${peerWhy}.`);
  }
  const appliers = createAppliers(api, {
    gnuPatch: gnu,
    peer,
    leanOps: readForms.leanOps,
  });
  const counter = createTokenCounter();
  const toolDefs = toolDefinitionTokens(counter);
  const formatted = new Map<string, Promise<string>>();
  const reformat = (path: string, text: string): Promise<string> => {
    let p = formatted.get(text);
    if (!p) {
      p = prettier.format(text, { filepath: path });
      formatted.set(text, p);
    }
    return p;
  };

  const skipped: Partial<Record<DriftKind, number>> = {};
  const checker = createChecker();
  const brokenFix = emptyBrokenTally();
  const fold = { changed: 0, foldMatched: 0, foldOnlyWrong: 0, recordWrong: 0 };
  // Per-task costs: every read is of the file as read (the buggy one).
  const addCosts = async (
    row: TaskRow,
    task: Task,
    fix: Fix,
  ): Promise<void> => {
    const lines = toLines(task.buggy);
    const hashView = formatHashlines(task.buggy, { limit: 100_000 }).text;
    const leanView = readForms.leanRead
      ? (await libraryLeanRead(task.buggy, task.path)) ??
        leanFromHashlines(hashView)
      : leanFromHashlines(hashView);
    const { start, deleteCount } = fix.hunk;
    const first = deleteCount > 0 ? start + 1 : Math.max(1, start);
    const last = deleteCount > 0 ? start + deleteCount : first;
    const outline = readForms.outline
      ? await outlineAndBlock(task.buggy, task.path, first, last)
      : null;
    const peerRead = peer?.reads.get(task.id);
    const peerEdit = peerRead === undefined
      ? undefined
      : peerPatch(peerRead.header, peerOps(fix.hunk));
    if (peerRead !== undefined && peerEdit !== undefined) {
      row.peerTokens = {} as Counts;
      for (const t of TOKENIZERS) {
        row.peerTokens[t] = {
          bare: counter.count(t, peerEdit),
          wrapped: counter.count(t, peerCall(peerEdit)),
        };
        row.read[t].peer = counter.count(t, peerRead.read);
      }
    }
    const leanEdit = JSON.stringify({
      name: "edit_file",
      arguments: { patch: leanPatchText(fix.hashlineText) },
    });
    for (const t of TOKENIZERS) {
      const c = (s: string): number => counter.count(t, s);
      const costs = {} as Record<CostRow, TaskCost>;
      costs.hashline = {
        read: c(hashView),
        edit: row.tokens.hashline_text[t].wrapped,
      };
      costs.hashline_lean = { read: c(leanView), edit: c(leanEdit) };
      costs.hashline_outline = outline === null ? null : {
        read: c(outline.outline) + c(outline.block),
        edit: row.tokens.hashline_text[t].wrapped,
      };
      costs.str_replace = {
        read: c(catN(lines)),
        edit: row.tokens.str_replace[t].wrapped,
      };
      costs.peer = peerRead === undefined || row.peerTokens === null
        ? null
        : { read: c(peerRead.read), edit: row.peerTokens[t].wrapped };
      for (const k of COST_ROWS) costs[k] ??= null;
      row.costs[t] = costs;
    }
  };

  const runTask = async (
    task: Task,
  ): Promise<{ row: TaskRow; trials: Trial[] }> => {
    const fix = buildFix(task);
    const tokens = {} as Record<FormatName, Counts>;
    for (const f of FORMATS) {
      const p = fix.payloads[f];
      tokens[f] = {} as Counts;
      for (const t of TOKENIZERS) {
        tokens[f][t] = {
          bare: counter.count(t, p.bare),
          wrapped: counter.count(t, p.wrapped),
        };
      }
    }
    const origLines = toLines(task.original);
    const views = {
      plain: task.original,
      hashline: formatHashlines(task.original, { limit: 100_000 }).text,
      catN: catN(origLines),
    };
    const read = {} as TaskRow["read"];
    for (const t of TOKENIZERS) {
      read[t] = {
        plain: counter.count(t, views.plain),
        hashline: counter.count(t, views.hashline),
        catN: counter.count(t, views.catN),
        lean: counter.count(t, leanFromHashlines(views.hashline)),
        peer: null,
      };
    }
    const row: TaskRow = {
      id: task.id,
      kind: task.kind,
      path: task.path,
      lines: origLines.length,
      tokens,
      read,
      peerTokens: null,
      costs: {} as TaskRow["costs"],
    };

    await checkBrokenFixes(checker, task, fix.hunk, brokenFix);
    const readLines = toLines(task.buggy);
    const drifts: Drifted[] = [];
    for (const kind of DRIFT_KINDS) {
      const d = await drift(task, fix.hunk, kind, { seed, reformat });
      if (d) drifts.push(d);
      else skipped[kind] = (skipped[kind] ?? 0) + 1;
    }
    formatted.delete(task.buggy);
    // A task's trials run concurrently: the workspace and GNU patch spend
    // their time waiting on the disk, and no trial sees another's files.
    const outcomes = await Promise.all(
      drifts.map((d) =>
        Promise.all(
          appliers.map(async (a) =>
            scoreDrift(await a.apply({ task, fix, disk: d.content }), d)
          ),
        )
      ),
    );
    const trials: Trial[] = [];
    drifts.forEach((d, di) => {
      const diskLines = d.content.split("\n").map((l) => l.replace(/\r$/, ""));
      for (const i of anchoredLines(fix)) {
        const now = diskLines[i];
        if (now === undefined || now === readLines[i]) continue;
        fold.changed++;
        if (foldHash(lineHash32(now)) === foldHash(lineHash32(readLines[i]))) {
          fold.foldMatched++;
        }
      }
      appliers.forEach((a, ai) => {
        const { outcome, restyled } = outcomes[di][ai];
        trials.push({
          task: task.id,
          kind: task.kind,
          drift: d.kind,
          applier: a.id,
          outcome,
          ...(restyled ? { restyled } : {}),
        });
        if (a.id === "hashline_fold" && outcome === "WRONG") {
          fold.foldOnlyWrong++;
        }
        if (a.id === "hashline_record" && outcome === "WRONG") {
          fold.recordWrong++;
        }
      });
    });
    await addCosts(row, task, fix);
    return { row, trials };
  };

  const results: { row: TaskRow; trials: Trial[] }[] = new Array(tasks.length);
  let next = 0;
  let done = 0;
  try {
    const worker = async (): Promise<void> => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await runTask(tasks[i]);
        if (++done % 25 === 0) log(`${done}/${tasks.length} tasks`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    for (const a of appliers) await a.close();
  }
  const rows = results.map((r) => r.row);
  const trials = results.flatMap((r) => r.trials);
  const outcomesOf = (id: string): string =>
    trials.filter((t) => t.applier === id).map((t) => t.outcome).join();
  if (
    outcomesOf("hashline_workspace") === outcomesOf("hashline_workspace_rebase")
  ) {
    notes.push(
      "The workspace gave the same outcome with rebase on as with it off in every trial: this build's `patch` does not take `rebase` yet.",
    );
  }
  if (peer) {
    const missed = trials.filter((t) =>
      t.applier === peer.id && t.drift === "none" && t.outcome !== "CORRECT"
    );
    if (missed.length > 0) {
      notes.push(
        `${PEER_NAME} missed ${missed.length} no-drift trial(s): ${
          missed.map((t) => `${t.task} ${t.outcome}`).join(", ")
        }.`,
      );
    }
  }
  const versions: Record<string, string> = {};
  for (
    const name of [
      "typescript",
      "prettier",
      "gpt-tokenizer",
      "@anthropic-ai/tokenizer",
      "diff",
    ]
  ) {
    versions[name] = await packageVersion(options.nodeModules, name);
  }
  if (gnu) versions["GNU patch"] = gnuPatchVersion();
  if (peer?.version()) versions[PEER_NAME] = peer.version()!;
  return {
    seed,
    perKind,
    filesPerPackage,
    packages: sources.packages,
    files: new Set(tasks.map((t) => t.path)).size,
    tasks: rows,
    appliers: appliers.map(({ id, label, format, semantics }) => ({
      id,
      label,
      format,
      semantics,
    })),
    trials,
    skipped,
    fold,
    brokenFix,
    notes,
    versions,
    readForms,
    toolDefs,
    peer: peer?.version() !== undefined
      ? { version: peer.version()! }
      : { skipped: peerWhy ?? "the driver gave no version" },
  };
}
