/**
 * Child process for the crash tests: runs one multi-file commit per tree
 * (generation 1 of `a.txt`, `b.txt` and a new `new.txt`), all at once. Each
 * commit freezes right after its assigned step; once every commit is frozen
 * the process kills itself with SIGKILL, so each tree is left exactly as a
 * crash at that step would leave it.
 *
 * Usage: _commit_child.ts STEP=ROOT=STATE ...
 */
import process from "node:process";
import { commitFiles, type CommitHooks } from "../../src/commit/commit.ts";
import { Confinement } from "../../src/fs/confine.ts";
import { generation } from "./_crash_content.ts";

const jobs = process.argv.slice(2).map((arg) => {
  const [step, root, state] = arg.split("=");
  return { step, root, state };
});
let frozen = 0;
const commitHooks: CommitHooks = {};
commitHooks.afterStep = (name, targets) => {
  const job = jobs.find((j) => targets[0].startsWith(j.root + "/"));
  if (!job || job.step !== name) return;
  if (++frozen === jobs.length) process.kill(process.pid, "SIGKILL");
  return new Promise<void>(() => {});
};

await Promise.all(jobs.map(async ({ root, state }) => {
  const confinement = new Confinement(root, root, state, 2 ** 32);
  const entries = [];
  for (const name of ["a.txt", "b.txt", "new.txt"]) {
    const target = await confinement.resolve(name);
    const bytes = new TextEncoder().encode(generation(name, 1));
    entries.push({
      target,
      write: async (h: { write(b: Uint8Array): Promise<unknown> }) => {
        await h.write(bytes.subarray(0, 100));
        await h.write(bytes.subarray(100));
      },
    });
  }
  await commitFiles(state, confinement, entries, commitHooks);
}));
process.stdout.write("all committed\n");
