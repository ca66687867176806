/**
 * History ids never repeat when writers share the state folder across PID
 * namespaces (containers sharing a volume): three writers here and three
 * each under `unshare --pid --fork` (where each is pid 1), a hundred edits
 * each; every acknowledged edit has its own id, and the log holds each
 * once.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { describe, it } from "node:test";
import { HistoryLog } from "../../src/history/mod.ts";
import { collect, startTs, tsCommand } from "../_spawn.ts";
import { makeTree } from "../workspace/_helpers.ts";

const CHILD = new URL("./_id_child.ts", import.meta.url).pathname;
const EDITS = 100;

function unshareWorks(): string | null {
  try {
    const r = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]);
    if (r.error) return `unshare cannot run here (${r.error.message})`;
    if (r.status !== 0) {
      return `unshare --pid is not permitted here: ${String(r.stderr).trim()}`;
    }
    return null;
  } catch (error) {
    return `unshare cannot run here (${error})`;
  }
}

describe("history ids across PID namespaces", () => {
  const skip = unshareWorks();
  it(
    `three writers here and three under unshare --pid, ${EDITS} edits each: no id handed out twice`,
    { timeout: 300_000, skip: skip ?? false },
    async () => {
      const t = await makeTree();
      try {
        const [cmd, lead] = tsCommand(CHILD);
        const children = [];
        for (let k = 0; k < 3; k++) {
          children.push(collect(spawn("unshare", [
            "--pid",
            "--fork",
            "--mount-proc",
            cmd,
            ...lead,
            t.root,
            t.state,
            `inner${k}`,
            String(EDITS),
          ], { stdio: ["pipe", "pipe", "pipe"] })));
          children.push(
            collect(
              startTs(CHILD, [t.root, t.state, `outer${k}`, String(EDITS)]),
            ),
          );
        }
        const results = await Promise.all(children);
        const ids: string[] = [];
        for (const [i, r] of results.entries()) {
          assert.equal(r.code, 0, `writer ${i} failed: ${r.stderr}`);
          const out = r.stdout.trim().split("\n");
          assert.deepEqual(out.filter((l) => !/^h_\d+$/.test(l)), []);
          assert.equal(out.length, EDITS);
          ids.push(...out);
        }
        const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
        assert.deepEqual(twice, [], "ids handed out twice");
        const logged = new HistoryLog(t.state).list({ limit: 10_000 }).records
          .map((r) => r.id);
        assert.equal(logged.length, ids.length);
        assert.deepEqual([...logged].sort(), [...ids].sort());
      } finally {
        await t.cleanup();
      }
    },
  );
});
