/**
 * What a syntax check costs a patch: the same one-line patch of a 2,000-line
 * TypeScript file, applied through the workspace with `check: "off"` and
 * with `check: "warn"`, alternated run by run; prints the median of each and
 * their ratio (the target is ≤ 1.5×). Every checked patch writes new content,
 * so each one parses: the region the edit changed (docs/syntax-checks.md,
 * "Regions"), the cuts read from the tree of the content before; no receipt
 * is reused.
 *
 * Two files: real code (the first 1,945 lines of zod's `compile.ts`, cut at a
 * top-level `}`; zod is a dependency, so it is always installed), which the
 * target is about, and 2,000 lines of 250 one-screen functions side by side
 * (an incremental parse would step over every top-level node).
 *
 * Then the same as whole processes (`hashline patch --check off` against
 * the check on, `--cli-runs=N`, default 20), printed beside the in-process
 * ratio; where a cold process's check time goes (`--cold-runs=N`, default
 * 10: loading, the first full parse, and the CPU V8 spends beside it); and a
 * block op (`= L:HH*`) against the same edit as a range on a 2,000-line file.
 *
 * Usage:
 *   deno task bench:check [--runs=N] [--cli-runs=N] [--cold-runs=N]
 *
 * @module
 */
import { rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { foldHash, lineHash32 } from "../src/hash/mod.ts";
import { openWorkspace, type Workspace } from "../src/workspace/mod.ts";

const runs = Number(
  process.argv.find((a) => a.startsWith("--runs="))?.slice(7) ?? 200,
);
const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Real code: zod's compile.ts up to its last top-level `}` before line 2,000. */
async function realSource(): Promise<string> {
  const lines = (await readFile(
    join(REPO, "node_modules/zod/src/v4/core/compile.ts"),
    "utf8",
  )).split("\n");
  let end = 0;
  for (let i = 0; i < Math.min(lines.length, 2000); i++) {
    if (lines[i] === "}") end = i + 1;
  }
  return lines.slice(0, end).join("\n") + "\n";
}

function wideSource(lines: number): string {
  const out: string[] = ['import { strict as assert } from "node:assert";', ""];
  for (let i = 0; out.length < lines - 1; i++) {
    out.push(
      `export function f${i}(x: number, ys: readonly number[]): number {`,
      `  const total = ys.reduce((a, b) => a + b, 0) * ${i};`,
      `  if (x > total) {`,
      `    return x - total;`,
      `  }`,
      `  return { value: total, at: [x, ${i}] }.value;`,
      `}`,
      "",
    );
  }
  out.length = lines - 1;
  out.push("assert.ok(f1(1, [2]));");
  return out.join("\n") + "\n";
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Alternated checked and unchecked patches of line 1 of `text`; prints the medians. */
async function measure(
  ws: Workspace,
  dir: string,
  label: string,
  text: string,
): Promise<number> {
  const times: Record<"off" | "warn", number[]> = { off: [], warn: [] };
  const files = { off: `${label}-off.ts`, warn: `${label}-warn.ts` } as const;
  for (const name of Object.values(files)) {
    await writeFile(join(dir, name), text);
  }
  const first = text.slice(0, text.indexOf("\n"));
  let n = 0;
  const once = async (mode: "off" | "warn") => {
    const path = files[mode];
    const view = await ws.read(path, { limit: 1 });
    const bar = view.text.indexOf("|");
    const anchor = view.text.slice(0, bar);
    // A new line whose short hash differs from the old one's: the workspace
    // refuses an anchor that a same-hash replacement made ambiguous.
    const fold = (line: string) => foldHash(lineHash32(line));
    const old = fold(view.text.slice(bar + 1));
    let line: string;
    do {
      line = `${first} // ${n++}`;
    } while (fold(line) === old);
    const t0 = performance.now();
    const r = await ws.patch({
      files: [{ path, ops: [{ op: "replace", start: anchor, lines: [line] }] }],
    }, { check: mode });
    const ms = performance.now() - t0;
    if (mode === "warn" && r.checks[0]?.status !== "ok") {
      throw new Error(
        `expected a clean check, got ${JSON.stringify(r.checks)}`,
      );
    }
    return ms;
  };
  // Warm-up: loads web-tree-sitter and the grammar once, outside the measure.
  for (let i = 0; i < 5; i++) await once("warn"), await once("off");
  for (let i = 0; i < runs; i++) {
    const order: ("off" | "warn")[] = i % 2 === 0
      ? ["off", "warn"]
      : ["warn", "off"];
    for (const m of order) times[m].push(await once(m));
  }
  const off = median(times.off);
  const warn = median(times.warn);
  const ratio = warn / off;
  const pairs = median(times.warn.map((w, i) => w / times.off[i]));
  const lines = text.split("\n").length - 1;
  console.log(`${label} (${lines} lines, ${runs} alternated runs):`);
  console.log(`  unchecked median ${off.toFixed(2)} ms`);
  console.log(`  checked   median ${warn.toFixed(2)} ms`);
  console.log(
    `  ratio ${ratio.toFixed(2)}×; median of the run-by-run ratios ${
      pairs.toFixed(2)
    }×`,
  );
  return ratio;
}

const cliRuns = Number(
  process.argv.find((a) => a.startsWith("--cli-runs="))?.slice(11) ?? 20,
);

/**
 * Whole processes: `hashline patch --check off` against the default check,
 * alternated, each a one-line replace of line 1 of `text` (the session's
 * record, kept in the workspace's state folder, carries the anchor from one
 * patch to the next). A checked patch finds the receipt the one before it
 * left, so it parses the edit's region; a third kind of run removes the
 * receipts first, as for a file's first checked edit, and parses the whole
 * file cold. Returns the ratio of the medians of the first two.
 */
async function measureCli(dir: string, text: string): Promise<number> {
  const { spawnSync } = await import("node:child_process");
  const deno = join(REPO, "node_modules/.bin/deno");
  const main = join(REPO, "src/cli/main.ts");
  const files = {
    off: "cli-off.ts",
    warn: "cli-warn.ts",
    first: "cli-first.ts",
  } as const;
  type Mode = keyof typeof files;
  // The first-edit runs remove their receipts: they get a root (and so a
  // state folder) of their own.
  const rootOf = (mode: Mode) => mode === "first" ? join(dir, "first") : dir;
  const kinds = Object.keys(files) as Mode[];
  const lines = {} as Record<Mode, string>;
  for (const mode of kinds) {
    await mkdir(rootOf(mode), { recursive: true });
    await writeFile(join(rootOf(mode), files[mode]), text);
    lines[mode] = text.slice(0, text.indexOf("\n"));
    spawnSync(
      deno,
      ["run", "-A", main, "read", files[mode], "--limit", "1"],
      { cwd: rootOf(mode) },
    );
  }
  const fold = (line: string) => foldHash(lineHash32(line));
  const times: Record<Mode, number[]> = { off: [], warn: [], first: [] };
  let n = 0;
  const once = (mode: Mode) => {
    if (mode === "first") {
      rmSync(join(rootOf(mode), ".hashline", "checks"), {
        recursive: true,
        force: true,
      });
    }
    const old = lines[mode];
    let next: string;
    do next = `${text.slice(0, text.indexOf("\n"))} // ${n++}`; while (
      fold(next) === fold(old)
    );
    const hex = fold(old).toString(16).padStart(2, "0");
    const patch = `@@ ${files[mode]}\n= 1:${hex}\n~${next}\n`;
    const t0 = performance.now();
    const r = spawnSync(
      deno,
      [
        "run",
        "-A",
        main,
        "patch",
        "--check",
        mode === "off" ? "off" : "warn",
        "-",
      ],
      { cwd: rootOf(mode), input: patch },
    );
    const ms = performance.now() - t0;
    if (r.status !== 0) {
      throw new Error(`hashline patch failed: ${r.stderr}`);
    }
    lines[mode] = next;
    return ms;
  };
  for (const mode of kinds) once(mode);
  for (let i = 0; i < cliRuns; i++) {
    const order = [...kinds.slice(i % 3), ...kinds.slice(0, i % 3)];
    for (const m of order) times[m].push(once(m));
  }
  const off = median(times.off);
  const warn = median(times.warn);
  // Each pair ran back to back, so its ratio moves less with the machine's
  // load than the medians do.
  const pairs = median(times.warn.map((w, i) => w / times.off[i]));
  console.log(
    `CLI, whole processes (${cliRuns} alternated runs): --check off median ${
      off.toFixed(0)
    } ms, check on ${warn.toFixed(0)} ms; median of the run-by-run ratios ${
      pairs.toFixed(2)
    }×`,
  );
  const first = median(times.first);
  console.log(
    `CLI, a file's first checked edit (no receipt, whole file parsed cold): median ${
      first.toFixed(0)
    } ms, ${(first / off).toFixed(2)}× --check off`,
  );
  return warn / off;
}

/**
 * A block op against the same edit as a plain range, alternated, check off:
 * what resolving the block (one parse, incremental after the first) costs.
 */
async function measureBlock(ws: Workspace, dir: string): Promise<void> {
  const { outlineSample } = await import("./_outline_sample.ts");
  const text = outlineSample().text;
  const times: Record<"range" | "block", number[]> = { range: [], block: [] };
  const names = { range: "range.ts", block: "block.ts" } as const;
  for (const name of Object.values(names)) {
    await writeFile(join(dir, name), text);
    await ws.read(name);
  }
  // The method opening on `target` spans 21 lines; it is replaced by itself
  // with one line changed, so the next round finds the same shape.
  const all = text.split("\n");
  const target = all.findIndex((l) => l.includes("async method2(")) + 1;
  const end = target + 17;
  const anchor = (n: number, l: string) => `${n}:${fold2(l)}`;
  const fold2 = (l: string) =>
    foldHash(lineHash32(l)).toString(16).padStart(2, "0");
  const current = { range: all.slice(), block: all.slice() };
  let n = 0;
  const once = async (kind: "range" | "block") => {
    const lines = current[kind];
    const body = lines.slice(target - 1, end);
    body[1] = `    const key = \`\${id}:${n++}\`;`;
    const start = anchor(target, lines[target - 1]);
    const op = kind === "block"
      ? { op: "replace" as const, start: `${start}*`, lines: body }
      : {
        op: "replace" as const,
        start,
        end: anchor(end, lines[end - 1]),
        lines: body,
      };
    const t0 = performance.now();
    await ws.patch({ files: [{ path: names[kind], ops: [op] }] }, {
      check: "off",
    });
    const ms = performance.now() - t0;
    lines.splice(target - 1, body.length, ...body);
    return ms;
  };
  for (let i = 0; i < 3; i++) await once("block"), await once("range");
  for (let i = 0; i < Math.min(runs, 40); i++) {
    const order: ("range" | "block")[] = i % 2 === 0
      ? ["range", "block"]
      : ["block", "range"];
    for (const k of order) times[k].push(await once(k));
  }
  const r = median(times.range);
  const b = median(times.block);
  console.log(
    `block op vs range op, 2,000-line TypeScript file, check off (${
      Math.min(runs, 40)
    } alternated runs): range median ${r.toFixed(2)} ms, block ${
      b.toFixed(2)
    } ms (${(b / r).toFixed(2)}×)`,
  );
}

const coldRuns = Number(
  process.argv.find((a) => a.startsWith("--cold-runs="))?.slice(12) ?? 10,
);

/**
 * Where a cold process's check time goes: `_check_cold.ts` run `coldRuns`
 * times on `text`, printing the median of each step. The CPU figures count
 * every thread, so CPU above the parse's wall time is V8's optimizing tier
 * compiling the parser's hot functions beside it.
 */
async function measureCold(dir: string, text: string): Promise<void> {
  const { spawnSync } = await import("node:child_process");
  const deno = join(REPO, "node_modules/.bin/deno");
  const script = join(REPO, "bench/_check_cold.ts");
  const file = join(dir, "cold.ts");
  await writeFile(file, text);
  const steps: Record<string, number[]> = {};
  for (let i = 0; i <= coldRuns; i++) {
    const r = spawnSync(deno, ["run", "-A", script, file], { cwd: dir });
    if (r.status !== 0) throw new Error(`_check_cold.ts failed: ${r.stderr}`);
    // The first run fills Deno's caches; it is not counted.
    if (i === 0) continue;
    const figures = JSON.parse(String(r.stdout)) as Record<string, number>;
    for (const [k, v] of Object.entries(figures)) (steps[k] ??= []).push(v);
  }
  const m = (k: string) => median(steps[k]).toFixed(0);
  console.log(
    `cold process, one check (${coldRuns} runs, medians): engine modules ${
      m("modules")
    } ms, web-tree-sitter and grammar ${m("grammar")} ms, first full parse ${
      m("parse")
    } ms (CPU ${m("parseCpu")} ms during it, ${
      m("afterCpu")
    } ms in the 300 ms after)`,
  );
}

const dir = await mkdtemp(join(tmpdir(), "hashline-bench-check-"));
try {
  const ws = openWorkspace(dir, { stateDir: join(dir, ".hashline") });
  const source = await realSource();
  const real = await measure(ws, dir, "real code", source);
  await measure(ws, dir, "worst case", wideSource(2000));
  await measureBlock(ws, dir);
  await measureCold(dir, source);
  const cli = await measureCli(dir, source);
  console.log(
    `checked / unchecked patch of a 2,000-line TypeScript file: in process ${
      real.toFixed(2)
    }×, CLI ${cli.toFixed(2)}× (target ≤ 1.5×) ${cli <= 1.5 ? "ok" : "OVER"}`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
