/**
 * A held lock's lease is refreshed while it is held: a lock that a slow
 * commit holds past the lease is not left looking abandoned to processes
 * that can only judge it by its age (another PID namespace or machine).
 */
import assert from "node:assert/strict";
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { CommitHooks } from "../../src/commit/commit.ts";
import { LEASE_MS } from "../../src/lock/holder.ts";
import { makeTree, type Tree } from "./_helpers.ts";

const LOCK = ".a.txt.hashline-lock";

describe("lock leases", () => {
  let t: Tree;
  const commitHooks: CommitHooks = {};
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.txt"), "one\n");
  });
  afterEach(async () => {
    commitHooks.afterStep = undefined;
    commitHooks.afterLeaseRefresh = undefined;
    commitHooks.leaseRefreshMs = undefined;
    await t.cleanup();
  });

  it("a lock held through a long commit keeps its lease fresh", async () => {
    const ws = t.open({ hooks: commitHooks });
    const view = await ws.read("a.txt");
    commitHooks.leaseRefreshMs = 5;
    let ageBefore = 0;
    let ageAfter = 0;
    commitHooks.afterStep = async (name) => {
      if (name !== "staged") return;
      // As if the commit had run past its lease without a refresh.
      const old = new Date(Date.now() - 2 * LEASE_MS);
      await utimes(join(t.root, LOCK), old, old);
      ageBefore = Date.now() - old.getTime();
      // The lease timer does not keep a process alive; this one does.
      const alive = setInterval(() => {}, 1_000);
      await new Promise<void>((
        resolve,
      ) => (commitHooks.afterLeaseRefresh = resolve));
      clearInterval(alive);
      ageAfter = Date.now() - (await stat(join(t.root, LOCK))).mtimeMs;
    };
    await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{
          op: "replace",
          start: view.text.slice(0, view.text.indexOf("|")),
          lines: ["1"],
        }],
      }],
    });
    assert.ok(ageBefore > LEASE_MS, `age before ${ageBefore}`);
    assert.ok(ageAfter < LEASE_MS, `age after ${ageAfter}`);
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "1\n");
  });
});
