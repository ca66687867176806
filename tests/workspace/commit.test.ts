import assert from "node:assert/strict";
import { readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { type CommitHooks, commitSteps } from "../../src/commit/commit.ts";
import { collect, runTs, startTs } from "../_spawn.ts";
import { generation } from "./_crash_content.ts";
import { leftovers, makeTree, type Tree } from "./_helpers.ts";

const CHILD = new URL("./_crash_child.ts", import.meta.url).pathname;
const COMMIT_CHILD = new URL("./_commit_child.ts", import.meta.url).pathname;

async function setUp(t: Tree): Promise<void> {
  await writeFile(join(t.root, "a.txt"), generation("a.txt", 0));
  await writeFile(join(t.root, "b.txt"), generation("b.txt", 0));
}

async function readOr(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/** Which generation each file holds ("bad" when it is none of them, i.e. partial). */
async function generations(
  t: Tree,
  names: string[],
  gens: number[],
): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    const text = await readOr(join(t.root, name));
    if (text === null) out.push("absent");
    else {out.push(String(
        gens.find((g) => text === generation(name, g)) ?? "bad",
      ));}
  }
  return out;
}

async function assertClean(t: Tree): Promise<void> {
  assert.deepEqual(await leftovers(t.root), []);
  assert.deepEqual(await readdir(join(t.state, "journal")).catch(() => []), []);
}

describe("commit checks between validation and rename", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await setUp(t);
  });
  afterEach(async () => {
    commitHooks.afterStep = undefined;
    await t.cleanup();
  });

  const commitHooks: CommitHooks = {};

  async function patchAll(): Promise<unknown> {
    const ws = t.open({ hooks: commitHooks });
    const files = [];
    for (const name of ["a.txt", "b.txt"]) {
      const view = await ws.read(name);
      const lines = view.text.split("\n");
      files.push({
        path: name,
        ops: [{
          op: "replace" as const,
          start: lines[0].slice(0, lines[0].indexOf("|")),
          lines: ["changed"],
        }],
      });
    }
    files.push({
      path: "new.txt",
      ops: [{ op: "append" as const, lines: ["new"] }],
    });
    return ws.patch({ files });
  }

  const changed = (e: unknown) => {
    assert.ok(e instanceof PatchRefusedError);
    assert.equal(e.code, "CHANGED");
    assert.match(e.message, /^Rejected — nothing written\./);
    return true;
  };

  it("refuses when a file changes after the new content was staged", async () => {
    commitHooks.afterStep = async (step) => {
      if (step === "staged") {
        await writeFile(join(t.root, "b.txt"), "external\n");
      }
    };
    await assert.rejects(patchAll(), changed);
    assert.deepEqual(await generations(t, ["a.txt", "new.txt"], [0]), [
      "0",
      "absent",
    ]);
    assert.equal(await readOr(join(t.root, "b.txt")), "external\n");
    await assertClean(t);
  });

  it("catches a same-size, same-mtime change by comparing content", async () => {
    const b = join(t.root, "b.txt");
    commitHooks.afterStep = async (step) => {
      if (step !== "staged") return;
      const st = await stat(b);
      const text = await readFile(b, "utf8");
      await writeFile(b, text.replace("line 0", "LINE 0"));
      await utimes(b, st.atime, st.mtime);
    };
    await assert.rejects(patchAll(), changed);
    assert.deepEqual(await generations(t, ["a.txt", "new.txt"], [0]), [
      "0",
      "absent",
    ]);
    assert.match((await readOr(b))!, /LINE 0/);
    await assertClean(t);
  });

  it("puts renamed files back when a later file changes mid-commit", async () => {
    commitHooks.afterStep = async (step) => {
      if (step === "rename-0") {
        await writeFile(join(t.root, "b.txt"), "external\n");
      }
    };
    await assert.rejects(patchAll(), changed);
    assert.deepEqual(await generations(t, ["a.txt", "new.txt"], [0]), [
      "0",
      "absent",
    ]);
    assert.equal(await readOr(join(t.root, "b.txt")), "external\n");
    await assertClean(t);
  });

  it("never replaces a file that appeared where the patch creates one", async () => {
    commitHooks.afterStep = async (step) => {
      if (step === "rename-1") {
        await writeFile(join(t.root, "new.txt"), "theirs\n");
      }
    };
    await assert.rejects(patchAll(), changed);
    assert.deepEqual(await generations(t, ["a.txt", "b.txt"], [0]), ["0", "0"]);
    assert.equal(await readOr(join(t.root, "new.txt")), "theirs\n");
    await assertClean(t);
  });
});

describe("crash recovery (SIGKILL inside multi-file commits)", () => {
  const names = ["a.txt", "b.txt", "new.txt"];
  const steps = commitSteps([true, true, false]);
  const committing = steps.indexOf("journal-committing");

  it("leaves every file all-old or all-new after a kill at each step", {
    timeout: 60_000,
  }, async () => {
    const trees = await Promise.all(steps.map(() => makeTree()));
    try {
      await Promise.all(trees.map(setUp));
      const run = await runTs(
        COMMIT_CHILD,
        steps.map((step, i) => `${step}=${trees[i].root}=${trees[i].state}`),
      );
      assert.equal(run.signal, "SIGKILL", run.stderr);
      for (let i = 0; i < steps.length; i++) {
        const report = await trees[i].open().recover();
        assert.deepEqual(
          report,
          steps[i] === "done"
            ? { rolledForward: 0, rolledBack: 0, malformed: [], skipped: [] }
            : i < committing
            ? { rolledForward: 0, rolledBack: 1, malformed: [], skipped: [] }
            : { rolledForward: 1, rolledBack: 0, malformed: [], skipped: [] },
          `killed after ${steps[i]}`,
        );
        const want = i < committing ? ["0", "0", "absent"] : ["1", "1", "1"];
        assert.deepEqual(
          await generations(trees[i], names, [0, 1]),
          want,
          `killed after ${steps[i]}`,
        );
        await assertClean(trees[i]);
      }
    } finally {
      await Promise.all(trees.map((t) => t.cleanup()));
    }
  });

  it(
    "finishes or undoes workspace patches killed mid-commit on the next open",
    { timeout: 60_000 },
    async () => {
      const [stop, rollback] = await Promise.all([makeTree(), makeTree()]);
      try {
        await Promise.all([setUp(stop), setUp(rollback)]);
        const run = await runTs(CHILD, [
          `stop=${stop.root}=${stop.state}`,
          `rollback=${rollback.root}=${rollback.state}`,
        ]);
        assert.equal(run.signal, "SIGKILL", run.stderr);
        assert.deepEqual(await generations(stop, names, [0, 1]), [
          "1",
          "0",
          "absent",
        ]);
        const view = await stop.open().read("b.txt", { limit: 1 });
        assert.match(view.text, /b\.txt generation 1 line 0$/);
        assert.deepEqual(await generations(stop, names, [0, 1]), [
          "1",
          "1",
          "1",
        ]);
        await assertClean(stop);

        assert.deepEqual(
          await generations(rollback, ["a.txt", "new.txt"], [0, 1]),
          ["1", "absent"],
        );
        await rollback.open().recover();
        assert.deepEqual(
          await generations(rollback, ["a.txt", "new.txt"], [0]),
          [
            "0",
            "absent",
          ],
        );
        assert.equal(await readOr(join(rollback.root, "b.txt")), "external\n");
        await assertClean(rollback);
      } finally {
        await Promise.all([stop.cleanup(), rollback.cleanup()]);
      }
    },
  );

  it("stays consistent when killed at a random moment of commit loops", {
    timeout: 60_000,
  }, async () => {
    const trees = await Promise.all([0, 1, 2].map(() => makeTree()));
    try {
      await Promise.all(trees.map(setUp));
      const child = startTs(
        CHILD,
        trees.map((t) => `loop=${t.root}=${t.state}`),
      );
      const done = collect(child);
      await new Promise<void>((resolve) => {
        let out = "";
        child.stdout!.on("data", (d: unknown) => {
          out += String(d);
          if (trees.every((t) => out.includes(`${t.root} `))) {
            setTimeout(
              () => child.kill("SIGKILL"),
              Math.floor(Math.random() * 20),
            );
            resolve();
          }
        });
        child.once("exit", () => resolve());
      });
      const run = await done;
      assert.equal(run.signal, "SIGKILL", run.stderr);
      const gens = Array.from(
        { length: run.stdout.split("\n").length + 2 },
        (_, i) => i,
      );
      for (const t of trees) {
        const ws = t.open();
        await ws.recover();
        const [a, b] = await generations(t, ["a.txt", "b.txt"], gens);
        assert.notEqual(a, "bad");
        assert.equal(a, b);
        // A kill outside a journaled commit can leave the dead process's
        // locks; the next writer of each file takes them over and removes them.
        for (const name of ["a.txt", "b.txt"]) {
          const text = await readFile(join(t.root, name), "utf8");
          await ws.read(name);
          await ws.write(name, text);
        }
        await assertClean(t);
      }
    } finally {
      await Promise.all(trees.map((t) => t.cleanup()));
    }
  });
});
