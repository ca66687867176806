/**
 * A one-file commit's entry is its journal: appended to the log before the
 * rename. A check that fails after the append voids the entry (refused,
 * nothing written, no entry listed, its id never handed out again), and a
 * writer killed between the append and the rename leaves an entry that
 * recovery voids, with the file as it was.
 */
import assert from "node:assert/strict";
import {
  appendFile,
  mkdir,
  readdir,
  readFile,
  realpath,
  utimes,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { frameRecord, parseLog } from "../../src/history/mod.ts";
import type { CommitHooks } from "../../src/workspace/_commit.ts";
import { commitSteps } from "../../src/workspace/_commit.ts";
import type { Workspace } from "../../src/workspace/mod.ts";
import { collect, startTs } from "../_spawn.ts";
import { leftovers, makeTree, type Tree } from "../workspace/_helpers.ts";

const CHILD = new URL("./_kill_child.ts", import.meta.url).pathname;

async function editLine1(ws: Workspace, path: string, text: string) {
  const view = await ws.read(path, { limit: 1 });
  const start = view.text.slice(0, view.text.indexOf("|"));
  return await ws.patch({
    files: [{ path, ops: [{ op: "replace", start, lines: [text] }] }],
  });
}

describe("a one-file commit's entry as its journal", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.txt"), "a.txt original\nkept\n");
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it(
    "a file changed after the entry was appended: refused, no entry, the id not reused",
    { timeout: 30_000 },
    async () => {
      const hooks: CommitHooks = {};
      const ws = t.open({ hooks });
      hooks.afterStep = async (name) => {
        if (name !== "history") return;
        hooks.afterStep = undefined;
        await writeFile(join(t.root, "a.txt"), "theirs\n");
      };
      await assert.rejects(
        editLine1(ws, "a.txt", "ours"),
        (e: unknown) => {
          assert.ok(e instanceof PatchRefusedError);
          assert.equal(e.code, "CHANGED");
          assert.match(e.message, /^Rejected — nothing written\./);
          return true;
        },
      );
      assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "theirs\n");
      assert.deepEqual(await leftovers(t.root), []);
      const listed = await ws.history({ limit: 10 });
      assert.deepEqual(listed.map((e) => e.id), []);
      assert.equal(listed.warnings, undefined);
      await assert.rejects(ws.entry("h_1"), { code: "NOT_FOUND" });

      const next = await editLine1(ws, "a.txt", "ours");
      assert.equal(next.entry, "h_2");
      const again = await t.open().history({ limit: 10 });
      assert.deepEqual(again.map((e) => e.id), ["h_2"]);
      assert.equal(again.warnings, undefined);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "ours\n",
      );
    },
  );

  it(
    "a writer killed between its entry and its rename: recovery voids the entry",
    { timeout: 60_000 },
    async () => {
      const step = commitSteps([true], true).indexOf("history");
      assert.ok(step >= 0);
      const run = await collect(
        startTs(CHILD, [t.root, t.state, "2", String(step), "a.txt"]),
      );
      assert.equal(run.signal, "SIGKILL", run.stderr);
      assert.match(run.stdout, /^ack 1 h_1$/m);
      // The killed commit's entry is in the log, its temporary beside the file.
      assert.match(
        await readFile(join(t.state, "history", "log"), "utf8"),
        /"id":"h_2"/,
      );
      const temps = async () =>
        (await leftovers(t.root)).filter((n) => !n.includes("-lock"));
      assert.equal((await temps()).length, 1);

      const ws = t.open();
      const report = await ws.recover();
      assert.equal(report.rolledBack, 1);
      assert.deepEqual(report.malformed, []);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "a.txt gen 1\nkept\n",
      );
      assert.deepEqual(await temps(), []);
      const listed = await ws.history({ limit: 10 });
      assert.deepEqual(listed.map((e) => e.id), ["h_1"]);
      assert.equal(listed.warnings, undefined);
      assert.deepEqual(await readdir(join(t.state, "history", "writers")), []);

      // Settled once: recovering again changes nothing; ids go on past it.
      assert.equal((await t.open().recover()).rolledBack, 0);
      const next = await editLine1(ws, "a.txt", "a.txt gen 2");
      assert.equal(next.entry, "h_3");
      assert.deepEqual(
        (await ws.history({ limit: 10 })).map((e) => e.id),
        ["h_3", "h_1"],
      );
    },
  );

  it(
    "a writer of another boot or namespace is settled once its file's lease runs out",
    { timeout: 30_000 },
    async () => {
      const ws = t.open();
      await editLine1(ws, "a.txt", "one");
      const log = join(t.state, "history", "log");
      const [first] = parseLog(await readFile(log, "utf8"));
      // As a process of an earlier boot would have left it: its entry
      // appended, its temporary beside the file, the rename never made.
      const writer = "ffffffff0badcafe.4242";
      const temp = ".a.txt.4242-ffffffff0badcafe.hashline-one.tmp";
      await writeFile(join(t.root, temp), "two\n");
      await appendFile(
        log,
        frameRecord(
          {
            ...first,
            id: "h_2",
            commit: {
              w: writer,
              t: join(await realpath(t.root), "a.txt"),
              n: temp,
              i: null,
            },
          } as typeof first,
        ),
      );
      const file = join(t.state, "history", "writers", writer);
      await mkdir(join(t.state, "history", "writers"), { recursive: true });
      await writeFile(file, "2\n");

      // Its lease is fresh: it may still be writing, so it is left alone.
      assert.equal((await t.open().recover()).rolledBack, 0);
      assert.deepEqual(
        (await t.open().history({ limit: 10 })).map((e) => e.id),
        ["h_2", "h_1"],
      );

      const old = new Date(Date.now() - 60_000);
      await utimes(file, old, old);
      const report = await t.open().recover();
      assert.equal(report.rolledBack, 1);
      const listed = await t.open().history({ limit: 10 });
      assert.deepEqual(listed.map((e) => e.id), ["h_1"]);
      assert.equal(listed.warnings, undefined);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "one\nkept\n",
      );
      assert.deepEqual(await readdir(join(t.root)), ["a.txt"]);
      assert.ok(
        !(await readdir(join(t.state, "history", "writers"))).includes(writer),
      );
    },
  );
});
