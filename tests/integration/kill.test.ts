/**
 * SIGKILL at random moments: a process committing multi-file patches in a
 * loop is killed, then a process recovering what it left is killed too, and
 * recovery runs once more. Every file is then all-old or all-new (one
 * generation across all files), and no generation acknowledged before the
 * kill is rolled back.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { collect, startTs } from "../_spawn.ts";
import { commitSteps } from "../../src/commit/commit.ts";
import { generation } from "../workspace/_crash_content.ts";
import { leftovers, makeTree } from "../workspace/_helpers.ts";

const LOOP = new URL("./_commit_loop_child.ts", import.meta.url).pathname;
const RECOVER = new URL("./_recover_child.ts", import.meta.url).pathname;

const ROUNDS = 6;
const FILES = Array.from({ length: 6 }, (_, i) => `f${i}.txt`);
const STEPS = commitSteps(FILES.map(() => true));

/** Resolves once the child printed a line matching `test` (or exited). */
function waitFor(
  child: ChildProcess,
  test: (out: string) => boolean,
): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    const onData = (d: unknown) => {
      out += String(d);
      if (test(out)) {
        child.stdout!.off("data", onData);
        resolve(out);
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", () => resolve(out));
  });
}

function acks(out: string): number {
  const all = [...out.matchAll(/^ack (\d+)$/gm)].map((m) => Number(m[1]));
  return all.length === 0 ? 0 : Math.max(...all);
}

async function generations(root: string): Promise<string[]> {
  const gens: string[] = [];
  for (const name of FILES) {
    const text = await readFile(join(root, name), "utf8");
    const m = /generation (\d+) line 0\n/.exec(text);
    const g = m ? Number(m[1]) : -1;
    gens.push(m && text === generation(name, g) ? String(g) : "partial");
  }
  return gens;
}

describe("SIGKILL during multi-file commits and during recovery", () => {
  /** Breaker files of killed takeovers still there after the next write. */
  const asides: string[] = [];
  it(
    `${ROUNDS} kills at random steps of a commit loop, each followed by a killed recovery`,
    {
      timeout: 60_000,
    },
    async () => {
      const stats = {
        killedInCommit: 0,
        leftMixed: 0,
        recoveryKilled: 0,
        mixedAfterKilledRecovery: 0,
        rolledForward: 0,
        rolledBack: 0,
      };
      let recoveryMs = 10;
      const round = async (r: number) => {
        const t = await makeTree();
        try {
          for (const name of FILES) {
            await writeFile(join(t.root, name), generation(name, 0));
          }
          // Killed at a random step of generation 1–3, or (one round in
          // four) from outside at a random moment.
          const killGen = 1 + Math.floor(Math.random() * 3);
          const outside = r % 4 === 3;
          const killStep = outside
            ? -1
            : Math.floor(Math.random() * STEPS.length);
          const loop = startTs(LOOP, [
            t.root,
            t.state,
            String(killGen),
            String(killStep),
            ...FILES,
          ]);
          const loopDone = collect(loop);
          if (outside) {
            await waitFor(loop, (out) => acks(out) >= killGen);
            await new Promise((res) => setTimeout(res, Math.random() * 30));
            loop.kill("SIGKILL");
          }
          const run = await loopDone;
          assert.equal(run.signal, "SIGKILL", run.stderr);
          const acked = acks(run.stdout);
          if (!outside) {
            assert.equal(acked, killGen - 1, run.stderr);
            stats.killedInCommit++;
          }
          if (new Set(await generations(t.root)).size > 1) stats.leftMixed++;

          const rec = startTs(RECOVER, [t.root, t.state]);
          const recDone = collect(rec);
          await waitFor(rec, (out) => out.includes("start\n"));
          // Aimed at the span a recovery took when one was not killed.
          await new Promise((res) =>
            setTimeout(res, Math.random() * recoveryMs * 1.2)
          );
          rec.kill("SIGKILL");
          const recRun = await recDone;
          if (recRun.signal === "SIGKILL") {
            stats.recoveryKilled++;
            const journals = await readdir(join(t.state, "journal"))
              .catch(() => []);
            const mixed = new Set(await generations(t.root)).size > 1;
            if (journals.length > 0 && mixed) stats.mixedAfterKilledRecovery++;
          } else {
            assert.equal(recRun.code, 0, recRun.stderr);
            const line = recRun.stdout.split("\n").find((l) =>
              l.startsWith("{")
            );
            if (line) recoveryMs = Math.max(1, JSON.parse(line).ms);
          }

          const report = await t.open().recover();
          assert.deepEqual(report.malformed, [], `round ${r}`);
          assert.deepEqual(report.skipped, [], `round ${r}`);
          stats.rolledForward += report.rolledForward;
          stats.rolledBack += report.rolledBack;
          const gens = await generations(t.root);
          assert.equal(
            new Set(gens).size,
            1,
            `round ${r}: files at different generations ${gens}`,
          );
          const g = Number(gens[0]);
          assert.ok(
            g === acked || g === acked + 1,
            `round ${r}: generation ${g} after ${acked} acknowledged`,
          );
          assert.deepEqual(
            (await leftovers(t.root)).filter((n) =>
              !n.endsWith("-lock") && !n.endsWith("-lock.break")
            ),
            [],
          );
          assert.deepEqual(
            await readdir(join(t.state, "journal")).catch(() => []),
            [],
          );
          // A recovery killed after settling but before letting go leaves
          // its lock files; the next writer takes them over at once.
          const ws = t.open({ lockTimeoutMs: 5_000 });
          const files = [];
          for (const path of FILES) {
            const view = await ws.read(path);
            const lines = view.text.split("\n");
            const anchor = (l: string) => l.slice(0, l.indexOf("|"));
            files.push({
              path,
              ops: [{
                op: "replace" as const,
                start: anchor(lines[0]),
                end: anchor(lines[lines.length - 1]),
                lines: generation(path, g + 1).trimEnd().split("\n"),
              }],
            });
          }
          await ws.patch({ files });
          assert.deepEqual(
            await generations(t.root),
            FILES.map(() => String(g + 1)),
          );
          const left = await leftovers(t.root);
          asides.push(...left.filter((n) => n.endsWith(".break")));
          assert.deepEqual(left.filter((n) => !n.endsWith(".break")), []);
        } finally {
          await t.cleanup();
        }
      };
      // Two rounds at a time (the machine has two cores).
      for (let r = 0; r < ROUNDS; r += 2) {
        await Promise.all([round(r), round(r + 1)]);
      }
      console.log(`${ROUNDS} rounds:`, stats);
    },
  );

  // A takeover holds `.NAME.hashline-lock.break` while it judges and
  // removes a dead lock; one left by a process killed mid-way is cleared by
  // the next process to take that lock.
  it("a killed takeover leaves no breaker behind once the file is written again", () => {
    assert.deepEqual(asides, []);
  });
});
