/**
 * Child process of the history kill test: commits generation 1, 2, 3, …
 * of the FILES named (comma-separated; line 1 becomes `NAME gen N`), each
 * as one patch, until it is killed; prints `ack GEN ID` once a patch
 * resolved. With KILL_GEN and KILL_STEP it kills itself with SIGKILL right
 * after step KILL_STEP (0-based) of generation KILL_GEN's commit.
 *
 * Usage: _kill_child.ts ROOT STATE KILL_GEN KILL_STEP FILES
 */
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state, killGen, killStep, names] = process.argv.slice(2);
let current = 0;
let steps = 0;
const commitHooks: CommitHooks = {};
commitHooks.afterStep = () => {
  if (current === Number(killGen) && steps++ === Number(killStep)) {
    process.kill(process.pid, "SIGKILL");
  }
};

for (let gen = 1;; gen++) {
  current = gen;
  // A session per generation: no anchor is ever judged against the last edit's.
  const ws = openWorkspace(root, {
    stateDir: state,
    session: `g${gen}`,
    hooks: commitHooks,
  });
  const files = [];
  for (const path of names.split(",")) {
    const view = await ws.read(path, { limit: 1 });
    const start = view.text.slice(0, view.text.indexOf("|"));
    files.push({
      path,
      ops: [{ op: "replace" as const, start, lines: [`${path} gen ${gen}`] }],
    });
  }
  const r = await ws.patch({ files });
  await new Promise<void>((resolve) =>
    process.stdout.write(`ack ${gen} ${r.entry}\n`, () => resolve())
  );
}
