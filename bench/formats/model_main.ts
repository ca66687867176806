/**
 * Runs the benchmark's tasks against a model (not a test; needs network):
 *
 *   HASHLINE_BENCH_URL=https://api.openai.com/v1 HASHLINE_BENCH_KEY=… \
 *   HASHLINE_BENCH_MODEL=gpt-4.1-mini \
 *   node_modules/.bin/deno run -A bench/formats/model_main.ts --per-kind 2
 *
 * Any OpenAI-compatible chat-completions endpoint works. Prints a table of
 * success, output tokens and turns per edit format, and one line per task.
 * Flags: `--seed N` (1), `--per-kind N` (2), `--files-per-package N` (12),
 * `--format hashline|str_replace` (both).
 *
 * @module
 */
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  MODEL_FORMATS,
  type ModelFormat,
  renderModelTable,
  runModelBench,
} from "./model.ts";
import { loadSources } from "./sources.ts";
import { buildTasks } from "./tasks.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seed: { type: "string", default: "1" },
    "per-kind": { type: "string", default: "2" },
    "files-per-package": { type: "string", default: "12" },
    format: { type: "string" },
  },
});
const url = process.env.HASHLINE_BENCH_URL;
const model = process.env.HASHLINE_BENCH_MODEL;
if (!url || !model) {
  console.error(
    "Set HASHLINE_BENCH_URL (an OpenAI-compatible base URL such as https://api.openai.com/v1), HASHLINE_BENCH_MODEL and, if the endpoint needs one, HASHLINE_BENCH_KEY.",
  );
  process.exit(2);
}
const formats = values.format === undefined
  ? MODEL_FORMATS
  : [values.format as ModelFormat];
if (!formats.every((f) => (MODEL_FORMATS as readonly string[]).includes(f))) {
  console.error(`--format must be one of ${MODEL_FORMATS.join(", ")}.`);
  process.exit(2);
}
const seed = Number(values.seed);
const sources = await loadSources({
  nodeModules: join(REPO, "node_modules"),
  seed,
  filesPerPackage: Number(values["files-per-package"]),
});
const tasks = buildTasks(sources.files, {
  seed,
  perKind: Number(values["per-kind"]),
});
const runs = await runModelBench({
  url,
  key: process.env.HASHLINE_BENCH_KEY,
  model,
  tasks,
  formats,
  log: (line) => console.error(line),
});
console.log(
  `Model ${model} at ${url}, ${tasks.length} tasks (seed ${seed}):\n`,
);
console.log(renderModelTable(runs));
