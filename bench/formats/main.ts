/**
 * Benchmark (not a test): edit-format economics and drift safety on real
 * code. Writes the formats section of `bench/RESULTS.md`, the "Edit formats"
 * block of `docs/benchmarks.md` and `bench/charts/formats-*.svg`
 * (`--no-readme` leaves `docs/benchmarks.md` alone).
 *
 *   node_modules/.bin/deno task bench:formats
 *   node_modules/.bin/deno run -A bench/formats/main.ts --per-kind 5 --no-readme
 *
 * Also prints the move table of `moves.ts` (hashline `move` against
 * retyping formats and `@oh-my-pi/hashline`'s `CUT`/`PUT`).
 *
 * Flags: `--seed N` (1), `--per-kind N` (20), `--files-per-package N` (12),
 * `--quick` (2 tasks per kind from 4 files per package, for a try-out that
 * writes nothing),
 * `--no-readme`, `--no-gnu-patch`, `--no-peer` (leave `@oh-my-pi/hashline`
 * out). Prints the drift checks and the per-task cost table.
 *
 * @module
 */
import { cpus, type as osType } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { costTable, verdictLines } from "./report.ts";
import { movesTable } from "./moves.ts";
import { runFormatsBench } from "./run.ts";
import { TOKENIZERS } from "./tokens.ts";
import { denoBinary, writeOutputs } from "./write.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seed: { type: "string", default: "1" },
    "per-kind": { type: "string", default: "20" },
    "files-per-package": { type: "string", default: "12" },
    "no-readme": { type: "boolean", default: false },
    "no-gnu-patch": { type: "boolean", default: false },
    "no-peer": { type: "boolean", default: false },
    quick: { type: "boolean", default: false },
  },
});
if (values.quick) {
  values["per-kind"] = "2";
  values["files-per-package"] = "4";
}

const started = performance.now();
const result = await runFormatsBench({
  seed: Number(values.seed),
  perKind: Number(values["per-kind"]),
  filesPerPackage: Number(values["files-per-package"]),
  nodeModules: join(REPO, "bench", "node_modules"),
  gnuPatch: !values["no-gnu-patch"],
  peer: !values["no-peer"],
  log: (line) => console.error(line),
});
for (const n of result.notes) console.error(`note: ${n}`);
for (const l of verdictLines(result)) console.log(`check: ${l}`);
for (const tk of TOKENIZERS) {
  console.log(`\nCost per task (${tk}):\n${costTable(result, tk)}`);
}
const seconds = (performance.now() - started) / 1000;
const runtime = process.versions.deno
  ? `Deno ${process.versions.deno}`
  : process.versions.bun
  ? `Bun ${process.versions.bun}`
  : `Node ${process.version}`;
const cpu = cpus();
const runLine = `_Last run ${
  new Date().toISOString().slice(0, 10)
} on ${osType()} ${process.arch}, ${cpu.length} × ${
  cpu[0]?.model.trim() ?? "unknown CPU"
}, ${runtime}: ${
  seconds.toFixed(0)
} s for ${result.trials.length} trials. Nothing in the tables below is timed._`;
// A try-out's reduced figures never replace a full run's in the docs.
if (values.quick) {
  console.error(
    `--quick: ${
      seconds.toFixed(1)
    } s; bench/RESULTS.md, docs/benchmarks.md and the charts left as they are`,
  );
} else {
  const written = await writeOutputs(result, {
    results: join(REPO, "bench", "RESULTS.md"),
    readme: values["no-readme"]
      ? undefined
      : join(REPO, "docs", "benchmarks.md"),
    charts: join(REPO, "bench", "charts"),
    runLine,
    deno: denoBinary(REPO),
  });
  console.error(
    `wrote ${written.map((p) => p.slice(REPO.length + 1)).join(", ")} in ${
      seconds.toFixed(1)
    } s`,
  );
}

// Moves: what moving a function costs each format, in the same run.
const moves = await movesTable();
console.log(
  `\nMoving a function (output tokens a model writes)\n\n${moves.table}`,
);
for (const n of moves.notes) console.error(`note: moves: ${n}`);
