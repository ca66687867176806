/**
 * Child process of the lock tests: starts a patch of FILE and freezes it
 * once the new content is staged (holding the file's lock), printing
 * `frozen`; it never releases until killed.
 *
 * Usage: _hold_child.ts ROOT STATE FILE
 */
import process from "node:process";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state, file] = process.argv.slice(2);
const commitHooks: CommitHooks = {};
commitHooks.afterStep = (name) => {
  if (name !== "staged") return;
  process.stdout.write("frozen\n");
  // A timer keeps the process alive while the commit waits forever.
  setInterval(() => {}, 1 << 30);
  return new Promise<void>(() => {});
};
const ws = openWorkspace(root, { stateDir: state, hooks: commitHooks });
const view = await ws.read(file);
const start = view.text.slice(0, view.text.indexOf("|"));
await ws.patch({
  files: [{ path: file, ops: [{ op: "replace", start, lines: ["held"] }] }],
});
