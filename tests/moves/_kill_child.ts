/**
 * Child process of the moves kill test: sends the patch of `_kill_patch.ts`
 * and kills itself with SIGKILL right after step number STEP (0-based) of
 * its commit (never, when the commit has fewer steps), printing `done`
 * once the patch resolved.
 *
 * Usage: _kill_child.ts ROOT STATE STEP
 */
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { runKillPatch } from "./_kill_patch.ts";

const [root, state, step] = process.argv.slice(2);
const hooks: CommitHooks = {};
let steps = 0;
hooks.afterStep = () => {
  if (steps++ === Number(step)) process.kill(process.pid, "SIGKILL");
};
await runKillPatch(openWorkspace(root, { stateDir: state, hooks }));
process.stdout.write("done\n");
