/**
 * Runs the benchmark's tasks against a model (not a test; needs network):
 *
 *   HASHLINE_BENCH_URL=https://api.openai.com/v1 HASHLINE_BENCH_KEY=… \
 *   HASHLINE_BENCH_MODEL=gpt-4.1-mini \
 *   node_modules/.bin/deno run -A bench/formats/model_main.ts --per-kind 2
 *
 * Any OpenAI-compatible chat-completions endpoint works. Hashline runs in
 * both read forms, side by side: the default `LINE:HH|` read, and the lean
 * read (`anchors: "lean"`: `LINE|content`, ops naming lines by bare
 * number); `str_replace` runs with its own numbered read. Prints a table of
 * success, input and output tokens and turns per format and read form, a
 * table with one row per task, and one line per run as it goes.
 *
 * Flags: `--seed N` (1), `--per-kind N` (2), `--files-per-package N` (12),
 * `--format hashline|str_replace` (both), `--read hash|lean` (hashline's
 * read forms; both), `--scripted` (a dry run with no endpoint or key: a
 * scripted stand-in reads, sends the benchmark's own fix in the form of the
 * read and says DONE, through the same registry, workspace and checker;
 * tokens counted with o200k).
 *
 * @module
 */
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  MODEL_FORMATS,
  READ_FORMS,
  renderModelTable,
  renderModelTaskTable,
  runModelBench,
} from "./model.ts";
import { scriptedModel } from "./model_script.ts";
import { loadTasks } from "./tasks.ts";
import { choice } from "./_choice.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seed: { type: "string", default: "1" },
    "per-kind": { type: "string", default: "2" },
    "files-per-package": { type: "string", default: "12" },
    format: { type: "string" },
    read: { type: "string" },
    scripted: { type: "boolean", default: false },
  },
});
const scripted = values.scripted;
const url = process.env.HASHLINE_BENCH_URL;
const model = scripted ? "scripted stand-in" : process.env.HASHLINE_BENCH_MODEL;
if (!scripted && (!url || !model)) {
  console.error(
    "Set HASHLINE_BENCH_URL (an OpenAI-compatible base URL such as https://api.openai.com/v1), HASHLINE_BENCH_MODEL and, if the endpoint needs one, HASHLINE_BENCH_KEY; or pass --scripted for a dry run of the harness with no model.",
  );
  process.exit(2);
}
const formats = choice("format", values.format, MODEL_FORMATS);
const reads = choice("read", values.read, READ_FORMS);
const seed = Number(values.seed);
const { tasks } = await loadTasks({
  nodeModules: join(REPO, "bench", "node_modules"),
  seed,
  filesPerPackage: Number(values["files-per-package"]),
  perKind: Number(values["per-kind"]),
});
const runs = await runModelBench({
  url,
  key: process.env.HASHLINE_BENCH_KEY,
  model: model!,
  tasks,
  formats,
  reads,
  ...(scripted ? { respond: scriptedModel() } : {}),
  log: (line) => console.error(line),
});
console.log(
  `Model ${model}${
    scripted ? "" : ` at ${url}`
  }, ${tasks.length} tasks (seed ${seed}):\n`,
);
console.log(renderModelTable(runs));
console.log(`\nPer task (outcome, input + output tokens):\n`);
console.log(renderModelTaskTable(runs));
