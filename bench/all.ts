/**
 * One results page: runs the edit-format bench and every throughput bench,
 * each as its own process at reduced sizes (under ten minutes on 2 cores),
 * and writes the throughput sections of `bench/RESULTS.md`, the ratio
 * block of `docs/benchmarks.md`, the README's four-row headline and
 * `bench/charts/throughput-ratios.svg`, all from the same run, naming the
 * machine, the runtimes and the date, and prints the ratios held to a limit
 * (docs/benchmarks.md#limits) with their limit, whether each is met and its
 * baseline. No figure is typed by hand anywhere else. A step that cannot run here, fails or
 * times out is written down as such, with the reason.
 *
 *   node_modules/.bin/deno task bench:all
 *   node_modules/.bin/deno run -A bench/all.ts --only=hash,patch --no-readme
 *
 * Flags: `--only=a,b` / `--skip=a,b` (step ids: formats, tools, hash,
 * native, huge, store, load, http, mcp, cli, patch; the others are recorded
 * as not selected), `--no-readme` (leave README.md and docs/benchmarks.md
 * alone), `--quick` (the formats step at its `--quick` size, which writes
 * nothing).
 *
 * @module
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { denoBinary } from "./formats/write.ts";
import { afterFirstParagraph, replaceBetween } from "./all/_blocks.ts";
import { ratioChart } from "./all/chart.ts";
import { describeMachine } from "./all/machine.ts";
import { type BenchName, parseSummary, type Summaries } from "./all/parse.ts";
import {
  computeRatios,
  limitText,
  speedText,
  withinLimit,
} from "./all/ratios.ts";
import {
  type AllRun,
  CHART,
  renderHeadline,
  renderThroughputReadme,
  renderThroughputResults,
  type StepOutcome,
} from "./all/render.ts";
import { commandLine, SELF_WRITING, type Step, STEPS } from "./all/steps.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS = join(REPO, "bench", "RESULTS.md");
const README = join(REPO, "README.md");
const GUIDE = join(REPO, "docs", "benchmarks.md");
const CHARTS = join(REPO, "bench", "charts");
const DENO = denoBinary(REPO);

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    only: { type: "string" },
    skip: { type: "string" },
    "no-readme": { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
  },
});
const ids = new Set<string>(STEPS.map((s) => s.id));
const list = (v: string | undefined): Set<string> | undefined => {
  if (v === undefined) return undefined;
  const out = new Set(v.split(",").map((x) => x.trim()).filter(Boolean));
  for (const id of out) {
    if (!ids.has(id)) {
      throw new RangeError(
        `Unknown step "${id}"; the steps are ${[...ids].join(", ")}.`,
      );
    }
  }
  return out;
};
const only = list(values.only);
const skip = list(values.skip);

// deno-lint-ignore no-control-regex
const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, "");

/** Why a step cannot run here, before trying it. */
function cannotRun(step: Step): string | undefined {
  if (only && !only.has(step.id)) return "not selected (--only)";
  if (skip?.has(step.id)) return "not selected (--skip)";
  if (step.argv[0] === "node") {
    const r = spawnSync("node", ["--version"], { encoding: "utf8" });
    if (r.error || r.status !== 0) return "no `node` on PATH";
    if (!existsSync(join(REPO, "node_modules", "tsx"))) {
      return "`tsx` is not installed (npm ci)";
    }
  }
  return undefined;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs one step, echoing its output to stderr as it comes. */
function runStep(step: Step): Promise<Ran> {
  const [program, ...args] = step.argv;
  const extra = step.id !== "formats" ? [] : [
    ...(values["no-readme"] ? ["--no-readme"] : []),
    ...(values.quick ? ["--quick"] : []),
  ];
  return new Promise((resolve) => {
    const child = spawn(program === "deno" ? DENO : program, [
      ...args,
      ...extra,
    ], {
      cwd: REPO,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a timeout ends its children too.
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      process.stderr.write(d);
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      process.stderr.write(d);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, step.timeoutS * 1000);
    child.on("error", (e) => {
      stderr += `\n${e.message}`;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

function lastLine(text: string): string {
  const lines = strip(text).split("\n").map((l) => l.trim()).filter(Boolean);
  return (lines.pop() ?? "no output").slice(0, 300);
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = describeMachine(REPO, DENO);
  const outcomes: StepOutcome[] = [];
  const summaries: Partial<Summaries> = {};
  for (const step of STEPS) {
    const why = cannotRun(step);
    if (why !== undefined) {
      outcomes.push({ step, status: "skipped", reason: why, seconds: 0 });
      console.error(`\n== ${step.id}: skipped (${why})`);
      continue;
    }
    console.error(`\n== ${step.id}: ${commandLine(step)}`);
    const t0 = performance.now();
    const ran = await runStep(step);
    const seconds = (performance.now() - t0) / 1000;
    const outcome: StepOutcome = { step, status: "ok", seconds };
    if (ran.timedOut) {
      outcome.status = "failed";
      outcome.reason = `stopped after the ${step.timeoutS} s limit`;
    } else if (ran.code !== 0) {
      outcome.status = "failed";
      outcome.reason = `exit status ${ran.code}: ${lastLine(ran.stderr)}`;
    } else if (!SELF_WRITING.has(step.id)) {
      try {
        const s = parseSummary(step.id as BenchName, ran.stdout);
        if ("skipped" in s) {
          outcome.status = "skipped";
          outcome.reason = s.skipped;
        } else {
          (summaries as Record<string, unknown>)[step.id] = s;
          if ("postgresSkipped" in s && s.postgresSkipped) {
            outcome.reason = `PostgreSQL skipped: ${s.postgresSkipped}`;
          }
        }
      } catch (e) {
        outcome.status = "failed";
        outcome.reason = (e as Error).message;
      }
    }
    outcomes.push(outcome);
  }

  const run: AllRun = {
    machine,
    outcomes,
    summaries,
    seconds: (performance.now() - started) / 1000,
  };
  await mkdir(CHARTS, { recursive: true });
  const chart = join(CHARTS, CHART);
  const { ratios } = computeRatios(summaries);
  await writeFile(
    chart,
    ratioChart(
      ratios,
      `${machine.date}; ${machine.nproc} × ${machine.cpu}; Deno ${machine.deno}; reduced sizes (bench/RESULTS.md)`,
    ),
  );
  const written = [chart];

  const results = existsSync(RESULTS)
    ? await readFile(RESULTS, "utf8")
    : "# Benchmark results\n";
  await writeFile(
    RESULTS,
    replaceBetween(
      results,
      renderThroughputResults(run, relative(dirname(RESULTS), CHARTS)),
      // After the page's title, before the formats section.
      (doc) => (doc.startsWith("# ") ? doc.indexOf("\n") + 1 : 0),
    ),
  );
  written.push(RESULTS);
  if (!values["no-readme"]) {
    // The benchmarks guide carries the whole ratio table and chart; the
    // README its four-row headline, both from this run.
    const guide = existsSync(GUIDE)
      ? await readFile(GUIDE, "utf8")
      : "# Benchmarks\n";
    await writeFile(
      GUIDE,
      replaceBetween(
        guide,
        renderThroughputReadme(
          run,
          relative(dirname(GUIDE), CHARTS),
          relative(dirname(GUIDE), RESULTS),
        ),
        afterFirstParagraph("## Every bench at once"),
      ),
    );
    written.push(GUIDE);
    const readme = await readFile(README, "utf8");
    await writeFile(
      README,
      replaceBetween(
        readme,
        renderHeadline(run, relative(dirname(README), RESULTS)),
        afterFirstParagraph("## Performance"),
        "headline",
      ),
    );
    written.push(README);
  }
  // `deno fmt --check` covers Markdown and SVG: write what it would write.
  const fmt = spawnSync(DENO, ["fmt", "-q", ...written], { encoding: "utf8" });
  if (fmt.status !== 0) {
    throw new Error(`deno fmt failed on what was written: ${fmt.stderr}`);
  }

  console.log(
    `bench:all: ${run.seconds.toFixed(0)} s; wrote ${
      written.map((p) => relative(REPO, p)).join(", ")
    }`,
  );
  for (const o of outcomes) {
    console.log(
      `  ${o.step.id.padEnd(8)} ${o.status.padEnd(7)} ${
        o.seconds.toFixed(0).padStart(4)
      } s${o.reason ? `  ${o.reason}` : ""}`,
    );
  }
  for (const r of ratios) {
    console.log(`  ${r.label.padEnd(44)} ${speedText(r.speed)}`);
  }
  const held = ratios.filter((r) => r.limit !== undefined);
  console.log(
    `Limits (${held.filter(withinLimit).length} of ${held.length} met):`,
  );
  for (const r of held) {
    console.log(
      `  ${r.label.padEnd(52)} ${
        limitText(r)
      }; baseline: ${r.baseline} (${r.baselineValue})`,
    );
  }
  // The page is written either way; a failed step still fails the command.
  if (outcomes.some((o) => o.status === "failed")) process.exitCode = 1;
}

await main();
