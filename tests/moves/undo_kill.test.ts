/**
 * SIGKILL during the undo of a patch that made folders (a file created in a
 * missing folder, a file renamed into one): once recovery has run, the
 * workspace is as after the patch (the undo did not land) or exactly as
 * before it, folders included — the folders the undone patch made are
 * removed when empty, as a completed undo removes them, also when the kill
 * came after the undo's commit and before that removal.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { leftovers, makeTree, snapshot } from "../workspace/_helpers.ts";
import { runKillPatch, seedKillTree } from "./_kill_patch.ts";

const CHILD = new URL("./_undo_kill_child.ts", import.meta.url).pathname;

/** The tree without lock files (a killed writer's lock is taken over by the next one). */
async function state(root: string): Promise<Map<string, string>> {
  const all = await snapshot(root);
  for (const k of [...all.keys()]) {
    if (/\.hashline-lock/.test(k)) all.delete(k);
  }
  return all;
}

describe("SIGKILL during an undo of a patch that made folders", () => {
  for (
    const [step, landed] of [
      ["done", true],
      ["cleaned", true],
      ["history", true],
      // Journaled as committing: recovery finishes it.
      ["journal-committing", true],
      ["checked", false],
    ] as const
  ) {
    it(
      `killed after its commit's step "${step}": recovery leaves it ${
        landed ? "undone, without the patch's folders" : "as after the patch"
      }`,
      { timeout: 60_000 },
      async () => {
        const t = await makeTree();
        try {
          await seedKillTree(t.root);
          const before = await state(t.root);
          const ws = t.open();
          await runKillPatch(ws);
          const patched = await state(t.root);
          assert.ok(patched.has("new/dir"), "the patch made folders");
          assert.ok(patched.has("lib"));
          const [entry] = await ws.history({ limit: 1 });

          const run = await collect(
            startTs(CHILD, [t.root, t.state, entry.id, step]),
          );
          assert.equal(run.signal, "SIGKILL", run.stderr + run.stdout);

          const report = await t.open().recover();
          assert.deepEqual(report.malformed, []);
          assert.deepEqual(await state(t.root), landed ? before : patched);
          assert.deepEqual(
            (await leftovers(t.root)).filter((f) => !/hashline-lock/.test(f)),
            [],
          );
        } finally {
          await t.cleanup();
        }
      },
    );
  }
});
