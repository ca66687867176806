/**
 * Child process of the random-kill test: prints `start`, settles the
 * journals a killed process left, and prints the recovery report as JSON
 * with how long it took (`ms`), which the parent uses to aim its kills.
 *
 * Usage: _recover_child.ts ROOT STATE
 */
import process from "node:process";
import { openWorkspace } from "../../src/workspace/mod.ts";

const [root, state] = process.argv.slice(2);
const ws = openWorkspace(root, { stateDir: state });
await new Promise<void>((resolve) =>
  process.stdout.write("start\n", () => resolve())
);
const began = performance.now();
const report = await ws.recover();
process.stdout.write(
  JSON.stringify({ ...report, ms: performance.now() - began }) + "\n",
);
