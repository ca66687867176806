/**
 * Child process of the random-kill test: commits generation 1, 2, 3, … of
 * every file named, each generation as one multi-file patch, until it is
 * killed. Prints `ack GEN` once a generation's patch resolved. With
 * KILL_GEN and KILL_STEP it kills itself with SIGKILL right after step
 * number KILL_STEP (0-based) of generation KILL_GEN's commit, so kills land
 * inside commits, not only between them.
 *
 * Usage: _commit_loop_child.ts ROOT STATE KILL_GEN KILL_STEP FILE...
 */
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { generation } from "../workspace/_crash_content.ts";

const [root, state, killGen, killStep, ...names] = process.argv.slice(2);
const commitHooks: CommitHooks = {};
const ws = openWorkspace(root, { stateDir: state, hooks: commitHooks });
let current = 0;
let steps = 0;
commitHooks.afterStep = () => {
  if (current === Number(killGen) && steps++ === Number(killStep)) {
    process.kill(process.pid, "SIGKILL");
  }
};

function ends(text: string): [string, string] {
  const lines = text.split("\n");
  const anchor = (l: string) => l.slice(0, l.indexOf("|"));
  return [anchor(lines[0]), anchor(lines[lines.length - 1])];
}

for (let gen = 1;; gen++) {
  current = gen;
  const files = [];
  for (const path of names) {
    const [start, end] = ends((await ws.read(path)).text);
    const lines = generation(path, gen).trimEnd().split("\n");
    files.push({ path, ops: [{ op: "replace" as const, start, end, lines }] });
  }
  await ws.patch({ files });
  await new Promise<void>((resolve) =>
    process.stdout.write(`ack ${gen}\n`, () => resolve())
  );
}
