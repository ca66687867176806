/**
 * Child process of the undo kill test: undoes entry ID of the workspace and
 * kills itself with SIGKILL right after the step named STEP of the undo's
 * commit (`done`: after the commit, before the folders the undone patch
 * made are removed), printing `done` when the undo resolved first.
 *
 * Usage: _undo_kill_child.ts ROOT STATE ID STEP
 */
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state, id, step] = process.argv.slice(2);
const hooks: CommitHooks = {
  afterStep: (name) => {
    if (name === step) process.kill(process.pid, "SIGKILL");
  },
};
await openWorkspace(root, { stateDir: state, hooks }).undo(id);
process.stdout.write("done\n");
