/**
 * Locks hold across PID namespaces: one appender in this namespace and one
 * under `unshare --pid --fork` (as two containers sharing a volume), each
 * seeing pids the other cannot, append to one file through the workspace.
 * Every acknowledged append is in the file exactly once, and no append is
 * refused because the other side took its lock or temporaries for a dead
 * process's.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { collect, startTs, tsCommand } from "../_spawn.ts";
import { leftovers, makeTree, type Tree } from "../workspace/_helpers.ts";

const CHILD = new URL("./_append_child.ts", import.meta.url).pathname;
const APPENDS = 300;

function unshareWorks(): string | null {
  try {
    const r = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"]);
    if (r.error) return `unshare cannot run here (${r.error.message})`;
    if (r.status !== 0) {
      return `unshare --pid is not permitted here (needs root): ${
        String(r.stderr).trim()
      }`;
    }
    return null;
  } catch (error) {
    return `unshare cannot run here (${error})`;
  }
}

interface Outcome {
  ok: boolean;
  line?: string;
  code?: string;
  message?: string;
}

describe("locks across PID namespaces", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "shared.txt"), "head\n");
  });
  afterEach(() => t.cleanup());

  const skip = unshareWorks();
  it(
    `one appender here and one under unshare --pid, ${APPENDS} appends each: none lost, none refused`,
    { timeout: 300_000, skip: skip ?? false },
    async () => {
      const [cmd, lead] = tsCommand(CHILD);
      // The same state folder too: read-record temporaries are shared.
      const inside = spawn("unshare", [
        "--pid",
        "--fork",
        "--mount-proc",
        cmd,
        ...lead,
        t.root,
        t.state,
        "inner",
        String(APPENDS),
        "shared.txt",
      ], { stdio: ["pipe", "pipe", "pipe"] });
      const outside = startTs(CHILD, [
        t.root,
        t.state,
        "outer",
        String(APPENDS),
        "shared.txt",
      ]);
      const results = await Promise.all([collect(inside), collect(outside)]);
      const acked: string[] = [];
      for (const [i, r] of results.entries()) {
        assert.equal(r.code, 0, `appender ${i} failed: ${r.stderr}`);
        const outcomes = r.stdout.trim().split("\n").map((l) =>
          JSON.parse(l) as Outcome
        );
        assert.equal(outcomes.length, APPENDS, `appender ${i} output`);
        const refused = outcomes.filter((o) => !o.ok);
        assert.deepEqual(refused, [], `appender ${i} was refused`);
        acked.push(...outcomes.map((o) => o.line!));
      }
      const lines = (await readFile(join(t.root, "shared.txt"), "utf8"))
        .replace(/\n$/, "").split("\n").slice(1);
      const seen = new Map<string, number>();
      for (const l of lines) seen.set(l, (seen.get(l) ?? 0) + 1);
      assert.deepEqual(
        acked.filter((l) => seen.get(l) !== 1),
        [],
        "acknowledged appends lost or doubled",
      );
      assert.equal(lines.length, acked.length);
      assert.deepEqual(await leftovers(t.root), []);
    },
  );
});
