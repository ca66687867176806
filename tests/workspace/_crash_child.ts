/**
 * Child process for the crash tests, going through the whole workspace
 * (reads, patch validation, session records, commit). One job per tree:
 *
 * - `stop=ROOT=STATE`: a multi-file patch that freezes after its first rename;
 * - `rollback=ROOT=STATE`: a patch that finds b.txt changed mid-commit and
 *   freezes as soon as its rollback is journaled;
 * - `loop=ROOT=STATE`: patches a.txt and b.txt to generation 1, 2, 3, …
 *   forever, printing `ROOT GEN` after each commit.
 *
 * When every `stop`/`rollback` job is frozen the process kills itself with
 * SIGKILL; `loop` jobs run until the parent kills the process.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { generation } from "./_crash_content.ts";

const jobs = process.argv.slice(2).map((arg) => {
  const [mode, root, state] = arg.split("=");
  return { mode, root, state };
});
const stopping = jobs.filter((j) => j.mode !== "loop").length;
let frozen = 0;
const commitHooks: CommitHooks = {};
commitHooks.afterStep = async (name, targets) => {
  const job = jobs.find((j) => targets[0].startsWith(j.root + "/"));
  if (!job) return;
  if (job.mode === "rollback" && name === "rename-0") {
    await writeFile(join(job.root, "b.txt"), "external\n");
  }
  const freeze = (job.mode === "stop" && name === "rename-0") ||
    (job.mode === "rollback" && name === "journal-rolling-back");
  if (!freeze) return;
  if (++frozen === stopping) process.kill(process.pid, "SIGKILL");
  return new Promise<void>(() => {});
};

function ends(text: string): [string, string] {
  const lines = text.split("\n");
  const anchor = (l: string) => l.slice(0, l.indexOf("|"));
  return [anchor(lines[0]), anchor(lines[lines.length - 1])];
}

async function commit(
  root: string,
  state: string,
  gen: number,
  create: boolean,
): Promise<void> {
  const ws = openWorkspace(root, { stateDir: state, hooks: commitHooks });
  const files = [];
  for (const name of ["a.txt", "b.txt"]) {
    const [start, end] = ends((await ws.read(name)).text);
    const lines = generation(name, gen).trimEnd().split("\n");
    files.push({
      path: name,
      ops: [{ op: "replace" as const, start, end, lines }],
    });
  }
  if (create) {
    const lines = generation("new.txt", gen).trimEnd().split("\n");
    files.push({ path: "new.txt", ops: [{ op: "append" as const, lines }] });
  }
  await ws.patch({ files });
}

await Promise.all(jobs.map(async ({ mode, root, state }) => {
  if (mode !== "loop") return commit(root, state, 1, true);
  for (let gen = 1;; gen++) {
    await commit(root, state, gen, false);
    process.stdout.write(`${root} ${gen}\n`);
  }
}));
