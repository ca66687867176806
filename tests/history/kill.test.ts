/**
 * SIGKILL at random moments while one- and two-file patches commit (each
 * commit journaled with its entry): afterwards the
 * history opens, lists every acknowledged edit, and holds exactly one entry
 * per edit on disk (no entry without its edit, no edit without its entry).
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { commitSteps } from "../../src/commit/commit.ts";
import { leftovers, makeTree } from "../workspace/_helpers.ts";

const CHILD = new URL("./_kill_child.ts", import.meta.url).pathname;
const ROUNDS = 12;

function acksOf(out: string): Map<number, string> {
  return new Map(
    [...out.matchAll(/^ack (\d+) (h_\d+)$/gm)].map((m) => [Number(m[1]), m[2]]),
  );
}

function waitForAcks(child: ChildProcess, n: number): Promise<void> {
  return new Promise((resolve) => {
    let out = "";
    const onData = (d: unknown) => {
      out += String(d);
      if (acksOf(out).size >= n) {
        child.stdout!.off("data", onData);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", () => resolve());
  });
}

async function genOf(root: string, name: string): Promise<number> {
  const text = await readFile(join(root, name), "utf8");
  const m = new RegExp(`^${name.replace(".", "\\.")} gen (\\d+)\\n`).exec(text);
  if (m) return Number(m[1]);
  assert.equal(text.split("\n")[0], `${name} original`);
  return 0;
}

describe("SIGKILL during patches leaves a consistent history", () => {
  it(
    `${ROUNDS} kills at random commit steps or moments`,
    { timeout: 90_000 },
    async () => {
      const seen: string[] = [];
      const round = async (r: number) => {
        const t = await makeTree();
        try {
          for (const name of ["a.txt", "b.txt"]) {
            await writeFile(join(t.root, name), `${name} original\nkept\n`);
          }
          const killGen = 1 + Math.floor(Math.random() * 3);
          const outside = r % 3 === 2;
          // Even rounds patch two files, odd rounds one.
          const names = r % 2 === 0 ? ["a.txt", "b.txt"] : ["a.txt"];
          const STEPS = commitSteps(names.map(() => true), true);
          // The first rounds aim at the moments around the append: after the
          // last rename (entry not yet written), right after it, and once the
          // commit is done while its journal may wait for the log's flush.
          const aimed = [
            "rename-1",
            "rename-0",
            "history",
            "history",
            "done",
            "done",
          ];
          const killStep = outside
            ? -1
            : r < aimed.length
            ? STEPS.indexOf(aimed[r])
            : Math.floor(Math.random() * STEPS.length);
          const child = startTs(CHILD, [
            t.root,
            t.state,
            String(killGen),
            String(killStep),
            names.join(","),
          ]);
          const done = collect(child);
          if (outside) {
            await waitForAcks(child, killGen);
            await new Promise((res) => setTimeout(res, Math.random() * 40));
            child.kill("SIGKILL");
          }
          const run = await done;
          assert.equal(run.signal, "SIGKILL", run.stderr);
          const acks = acksOf(run.stdout);
          const acked = Math.max(0, ...acks.keys());
          if (!outside) {
            assert.equal(
              acked,
              killGen - 1,
              `round ${r}: ${STEPS[killStep]}`,
            );
          }

          const ws = t.open();
          const report = await ws.recover();
          assert.deepEqual(report.malformed, []);
          const g = await genOf(t.root, "a.txt");
          assert.equal(
            await genOf(t.root, "b.txt"),
            names.length === 2 ? g : 0,
            `round ${r}: files at different generations`,
          );
          assert.ok(
            g === acked || g === acked + 1,
            `round ${r}: generation ${g} after ${acked} acknowledged`,
          );
          const entries = await ws.history({ limit: 1000 });
          const ids = new Set(entries.map((e) => e.id));
          for (const [gen, id] of acks) {
            assert.ok(
              ids.has(id),
              `round ${r}: acknowledged gen ${gen} (${id}) has no entry`,
            );
          }
          const gens: number[] = [];
          for (const e of entries) {
            const d = await ws.entry(e.id);
            assert.deepEqual(d.files.map((f) => f.path), names);
            gens.push(
              Number(/^\+a\.txt gen (\d+)$/m.exec(d.files[0].diff)![1]),
            );
          }
          assert.deepEqual(
            gens.sort((x, y) => x - y),
            Array.from({ length: g }, (_, i) => i + 1),
            `round ${r} (${
              outside ? "outside" : STEPS[killStep]
            }): one entry per edit on disk`,
          );
          seen.push(
            `${
              outside ? "outside" : STEPS[killStep]
            }: gen ${g}, ${acked} acked, ${report.rolledForward} forward, ${report.rolledBack} back`,
          );
          // Recovery is idempotent: opening again adds nothing.
          await t.open().recover();
          assert.equal((await t.open().history({ limit: 1000 })).length, g);
          // And the history still takes new entries and undoes the newest edit.
          if (g > 0) {
            const newest = entries[0];
            await ws.undo(newest.id);
            assert.equal(await genOf(t.root, "a.txt"), g - 1);
          } else {
            const view = await ws.read("a.txt", { limit: 1 });
            await ws.patch({
              files: [{
                path: "a.txt",
                ops: [{
                  op: "replace",
                  start: view.text.slice(0, view.text.indexOf("|")),
                  lines: ["a.txt gen 1"],
                }],
              }],
            });
          }
          // The next write of a file leaves no temporary or backup of the
          // killed commit behind.
          assert.deepEqual(
            (await leftovers(t.root)).filter((n) => !n.includes("-lock")),
            [],
            `round ${r}`,
          );
          assert.deepEqual(
            await readdir(join(t.state, "journal")).catch(() => []),
            [],
          );
        } finally {
          await t.cleanup();
        }
      };
      for (let r = 0; r < ROUNDS; r += 2) {
        await Promise.all([
          round(r),
          round(r + 1),
        ]);
      }
      console.log(seen.join("\n"));
    },
  );
});
