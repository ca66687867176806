/**
 * SIGKILL at random moments of a patch that creates, deletes, renames,
 * edits and moves lines across files: after recovery the workspace is
 * exactly as before the patch or exactly as after it (bytes, modes and
 * folders), and no temporary or backup is left.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { leftovers, makeTree, snapshot } from "../workspace/_helpers.ts";
import { runKillPatch, seedKillTree } from "./_kill_patch.ts";

const CHILD = new URL("./_kill_child.ts", import.meta.url).pathname;
const ROUNDS = 8;

/** The tree without lock files (a killed writer's lock is taken over by the next one). */
async function state(root: string): Promise<Map<string, string>> {
  const all = await snapshot(root);
  for (const k of [...all.keys()]) {
    if (/\.hashline-lock/.test(k)) all.delete(k);
  }
  return all;
}

describe("SIGKILL during a patch with file operations and moves", () => {
  it(`${ROUNDS} kills at random steps or moments leave it before or after`, {
    timeout: 120_000,
  }, async () => {
    const model = await makeTree();
    let before: Map<string, string>;
    let after: Map<string, string>;
    try {
      await seedKillTree(model.root);
      before = await state(model.root);
      await runKillPatch(model.open());
      after = await state(model.root);
    } finally {
      await model.cleanup();
    }
    assert.notDeepEqual(before, after);
    const seen = { before: 0, after: 0 };
    for (let r = 0; r < ROUNDS; r++) {
      const t = await makeTree();
      try {
        await seedKillTree(t.root);
        const outside = r % 4 === 3;
        const step = outside ? 10_000 : Math.floor(Math.random() * 24);
        const child = startTs(CHILD, [t.root, t.state, String(step)]);
        const done = collect(child);
        if (outside) {
          // From outside, at a random moment once the child is running.
          await new Promise<void>((res) => {
            child.stderr!.once("data", () => res());
            child.stdout!.once("data", () => res());
            child.once(
              "spawn",
              () => setTimeout(res, 150 + Math.random() * 250),
            );
          });
          child.kill("SIGKILL");
        }
        const run = await done;
        assert.ok(
          run.signal === "SIGKILL" || run.code === 0,
          `round ${r}: ${run.stderr}`,
        );
        const report = await t.open().recover();
        assert.deepEqual(report.malformed, [], `round ${r}`);
        const now = await state(t.root);
        const which = JSON.stringify([...now]) === JSON.stringify([...before])
          ? "before"
          : JSON.stringify([...now]) === JSON.stringify([...after])
          ? "after"
          : null;
        assert.ok(
          which,
          `round ${r} (step ${step}): neither before nor after: ${
            JSON.stringify([...now])
          }`,
        );
        seen[which]++;
        assert.deepEqual(
          (await leftovers(t.root)).filter((f) => !/hashline-lock/.test(f)),
          [],
          `round ${r}`,
        );
        if (run.code === 0) assert.equal(which, "after", `round ${r}`);
      } finally {
        await t.cleanup();
      }
    }
    assert.equal(seen.before + seen.after, ROUNDS);
  });
});
