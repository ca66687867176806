/**
 * Lock files beside targets: one left by a dead process of this host and
 * PID namespace is taken over at once (with the dead holder's half-written
 * temporaries), one whose holder cannot be judged here (another namespace
 * or machine) only once its lease has run out, and one held by a live
 * process that never lets go makes a patch give up with BUSY after
 * `lockTimeoutMs`, changing nothing.
 */
import assert from "node:assert/strict";
import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import { bootId, pidNamespace } from "../../src/_runtime/host.ts";
import { hostTag, LEASE_MS } from "../../src/lock/holder.ts";
import type { Workspace } from "../../src/workspace/mod.ts";
import { collect, startTs } from "../_spawn.ts";
import { leftovers, makeTree, type Tree } from "../workspace/_helpers.ts";
import { anchorAt, deadPid } from "./_util.ts";

const HOLD = new URL("./_hold_child.ts", import.meta.url).pathname;
const LOCK = ".a.txt.hashline-lock";
const TAKEOVERS = 100;
const BUSY_TRIES = 5;

async function bump(ws: Workspace, n: number): Promise<unknown> {
  const view = await ws.read("a.txt");
  return ws.patch({
    files: [{
      path: "a.txt",
      ops: [{
        op: "replace",
        start: anchorAt(view.text, 1),
        lines: [`n ${n}`],
      }],
    }],
  });
}

describe("lock files left behind", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.txt"), "n 0\n");
  });
  afterEach(() => t.cleanup());

  it(`a dead holder's lock is taken over at once (${TAKEOVERS} times)`, async () => {
    // Were the lock waited on, every patch would give up with BUSY after
    // the (short) timeout instead of landing.
    const ws = t.open({ lockTimeoutMs: 5_000 });
    const pid = await deadPid();
    for (let n = 1; n <= TAKEOVERS; n++) {
      await writeFile(
        join(t.root, LOCK),
        `${pid} deadbeef ${bootId()} ${pidNamespace()}\n`,
      );
      const orphan = `.a.txt.${pid}-${hostTag()}${
        n.toString(16).padStart(8, "0")
      }.hashline-one.tmp`;
      await writeFile(join(t.root, orphan), "half written");
      await bump(ws, n);
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), `n ${n}\n`);
      assert.deepEqual(await leftovers(t.root), [], `after takeover ${n}`);
    }
  });

  it("a lock of another PID namespace (or with no holder identity) is waited on until its lease runs out, and its temporaries are kept", async () => {
    const pid = await deadPid();
    const foreign = [
      `${pid} cafe ${bootId()} pid:[1]\n`,
      `${pid} cafe other-boot ${pidNamespace()}\n`,
      `${pid} cafe\n`,
    ];
    let n = 0;
    for (const line of foreign) {
      n++;
      const ws = t.open({ lockTimeoutMs: 300 });
      await writeFile(join(t.root, LOCK), line);
      // Its pid means nothing here: the same number may be a live process
      // of another namespace, whose temporary must survive the takeover.
      const temp = `.a.txt.${pid}-${"0badf00d"}${
        n.toString(16).padStart(8, "0")
      }.hashline-one.tmp`;
      await writeFile(join(t.root, temp), "theirs");
      const before = await readFile(join(t.root, "a.txt"));
      await assert.rejects(bump(ws, n), (e: unknown) => {
        assert.ok(e instanceof HashlineError && e.code === "BUSY", String(e));
        return true;
      });
      assert.deepEqual(await readFile(join(t.root, "a.txt")), before);
      const old = new Date(Date.now() - LEASE_MS - 5_000);
      await utimes(join(t.root, LOCK), old, old);
      await bump(ws, n);
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), `n ${n}\n`);
      assert.equal(await readFile(join(t.root, temp), "utf8"), "theirs");
      assert.ok(!(await readdir(t.root)).includes(LOCK));
    }
  });

  it("an empty lock file is taken over once it is old, and waited on while fresh", async () => {
    const ws = t.open({ lockTimeoutMs: 300 });
    await writeFile(join(t.root, LOCK), "");
    const before = await readFile(join(t.root, "a.txt"));
    await assert.rejects(bump(ws, 1), (e: unknown) => {
      assert.ok(e instanceof HashlineError && e.code === "BUSY", String(e));
      return true;
    });
    assert.deepEqual(await readFile(join(t.root, "a.txt")), before);
    const old = new Date(Date.now() - 60_000);
    await utimes(join(t.root, LOCK), old, old);
    await bump(ws, 2);
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "n 2\n");
    assert.deepEqual(await leftovers(t.root), []);
  });

  it(
    `a live holder that never lets go: BUSY after lockTimeoutMs (${BUSY_TRIES} tries), then taken over once it dies`,
    {
      timeout: 60_000,
    },
    async () => {
      const holder = startTs(HOLD, [
        t.root,
        join(t.base, "other-state"),
        "a.txt",
      ]);
      const done = collect(holder);
      await new Promise<void>((resolve) => {
        let out = "";
        holder.stdout!.on("data", (d: unknown) => {
          out += String(d);
          if (out.includes("frozen\n")) resolve();
        });
        holder.once("exit", () => resolve());
      });
      assert.equal(holder.exitCode, null, "the holder exited early");
      try {
        const before = await readFile(join(t.root, "a.txt"));
        const ws = t.open({ lockTimeoutMs: 300 });
        for (let i = 0; i < BUSY_TRIES; i++) {
          await assert.rejects(bump(ws, 1), (e: unknown) => {
            assert.ok(
              e instanceof HashlineError && e.code === "BUSY",
              String((e as Error)?.stack ?? e),
            );
            assert.match(e.message, /another writer has held it for 300 ms/);
            return true;
          });
          assert.deepEqual(await readFile(join(t.root, "a.txt")), before);
        }
      } finally {
        holder.kill("SIGKILL");
      }
      assert.equal((await done).signal, "SIGKILL");
      // Its lock and staged temporary are still there, until the next writer.
      assert.ok((await readdir(t.root)).includes(LOCK));
      const ws = t.open({ lockTimeoutMs: 5_000 });
      await bump(ws, 2);
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "n 2\n");
      assert.deepEqual(await leftovers(t.root), []);
    },
  );
});
