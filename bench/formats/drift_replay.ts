/**
 * Replays the drift trials of hashline in memory with the read record,
 * rebase off and on, without the other tools or the peer (seconds instead
 * of minutes), and names every trial that wrote a wrong file, saving its
 * files to look at. Not a test; writes nothing in the repository.
 *
 *   node_modules/.bin/deno run -A bench/formats/drift_replay.ts --drift reformat
 *
 * Flags: `--seed N` (1), `--per-kind N` (10), `--files-per-package N` (12),
 * `--drift KIND` (every kind), `--out DIR` (where a wrong trial's files go:
 * `TASK-rebase-on.read`, `.disk`, `.expected`, `.got`, `.patch`; default a
 * new temp folder).
 *
 * @module
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as prettier from "prettier";
import { toLines } from "./_lines.ts";
import { hashlineApi, memoryOf } from "./_hashline_api.ts";
import { type Applied, type Outcome, scoreDrift } from "./checker.ts";
import { drift, DRIFT_KINDS } from "./drift.ts";
import { buildFix } from "./fixes.ts";
import { loadTasks } from "./tasks.ts";
import { choice } from "./_choice.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seed: { type: "string", default: "1" },
    "per-kind": { type: "string", default: "10" },
    "files-per-package": { type: "string", default: "12" },
    drift: { type: "string" },
    out: { type: "string" },
  },
});
const kinds = choice("drift", values.drift, DRIFT_KINDS);
const seed = Number(values.seed);
const { tasks } = await loadTasks({
  nodeModules: join(REPO, "bench", "node_modules"),
  seed,
  filesPerPackage: Number(values["files-per-package"]),
  perKind: Number(values["per-kind"]),
});
const api = hashlineApi();
const reformat = (path: string, text: string): Promise<string> =>
  prettier.format(text, { filepath: path });
let out: string | undefined = values.out;
const tally = new Map<string, Record<Outcome, number>>();
for (const task of tasks) {
  const fix = buildFix(task);
  for (const kind of kinds) {
    const d = await drift(task, fix.hunk, kind, { seed, reformat });
    if (!d) continue;
    for (const rebase of [false, true]) {
      let applied: Applied;
      try {
        applied = {
          written: true,
          content: api.apply(d.content, fix.hashlineText, {
            memory: memoryOf(toLines(task.buggy)),
            rebase,
          }),
        };
      } catch (e) {
        applied = { written: false, reason: String(e) };
      }
      const { outcome, restyled } = await scoreDrift(applied, d);
      if (restyled) {
        console.log(
          `restyled ${kind}, rebase ${
            rebase ? "on" : "off"
          }: ${task.id} (${task.path}): CORRECT with the fix's lines unformatted`,
        );
      }
      const key = `${kind}, rebase ${rebase ? "on" : "off"}`;
      const t = tally.get(key) ?? { CORRECT: 0, REFUSED: 0, WRONG: 0 };
      t[outcome]++;
      tally.set(key, t);
      if (outcome !== "WRONG") continue;
      out ??= await mkdtemp(join(tmpdir(), "hashline-drift-"));
      await mkdir(out, { recursive: true });
      const base = join(
        out,
        `${task.id}-${kind}-rebase-${rebase ? "on" : "off"}`,
      );
      await writeFile(`${base}.read`, task.buggy);
      await writeFile(`${base}.disk`, d.content);
      await writeFile(`${base}.expected`, d.expected ?? "");
      await writeFile(`${base}.got`, applied.written ? applied.content : "");
      await writeFile(`${base}.patch`, fix.hashlineText);
      console.log(`WRONG ${key}: ${task.id} (${task.path}) → ${base}.*`);
    }
  }
}
for (const [key, t] of tally) {
  console.log(`${key.padEnd(34)} ${t.CORRECT}/${t.REFUSED}/${t.WRONG}`);
}
