/**
 * Every kind of write — a line patch, a patch with a file operation, a
 * whole-file write, a create and an undo — through the public workspace,
 * held to the same rules of the one write transaction: a refusal leaves
 * the bytes and the history as they were; the syntax check refuses before
 * anything is staged, or runs beside the commit under `warn`
 * (docs/workspace.md "Writing", docs/syntax-checks.md); the locks are free
 * again after a success, a refusal and a thrown error.
 */
import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { Workspace, WorkspaceOptions } from "../../src/workspace/mod.ts";
import {
  anchorOf,
  leftovers,
  makeTree,
  snapshot,
  type Tree,
} from "./_helpers.ts";

const SOURCE = "export const a = 1;\nexport const b = 2;\n";

/** The call under test, once its set-up is done. */
type Call = () => Promise<unknown>;

/** A kind of write, as a caller makes it. */
interface Kind {
  name: string;
  /** The file the write changes (the one to write again afterwards). */
  path: string;
  /** Sets up a write that lands with `line` as its file's first line. */
  landing(ws: Workspace, tree: Tree, line: string): Promise<Call>;
  /** Sets up a write that is refused. */
  refused(ws: Workspace, tree: Tree): Promise<Call>;
  /** Whether the syntax check judges it (docs/syntax-checks.md). */
  checked: boolean;
}

const linePatch: Kind = {
  name: "line patch",
  path: "a.ts",
  checked: true,
  async landing(ws, _tree, line) {
    const view = (await ws.read("a.ts")).text;
    return () =>
      ws.patch({
        files: [{
          path: "a.ts",
          ops: [{ op: "replace", start: anchorOf(view, 1), lines: [line] }],
        }],
      });
  },
  async refused(ws, tree) {
    const view = (await ws.read("a.ts")).text;
    await writeFile(join(tree.root, "a.ts"), "export const z = 0;\n" + SOURCE);
    return () =>
      ws.patch({
        files: [{
          path: "a.ts",
          ops: [{ op: "replace", start: anchorOf(view, 1), lines: ["x"] }],
        }],
      });
  },
};

const fileOpPatch: Kind = {
  name: "file-op patch",
  path: "b.ts",
  checked: true,
  landing: (ws, _tree, line) =>
    Promise.resolve(() =>
      ws.patch({
        files: [{
          path: "b.ts",
          create: true,
          ops: [{ op: "append", lines: [line] }],
        }],
      })
    ),
  async refused(ws, tree) {
    await ws.read("a.ts");
    await writeFile(join(tree.root, "a.ts"), SOURCE + "export const c = 3;\n");
    return () =>
      ws.patch({
        files: [
          { path: "a.ts", delete: true, ops: [] },
          {
            path: "b.ts",
            create: true,
            ops: [{ op: "append", lines: ["x"] }],
          },
        ],
      });
  },
};

const wholeWrite: Kind = {
  name: "write",
  path: "a.ts",
  checked: true,
  async landing(ws, _tree, line) {
    await ws.read("a.ts");
    return () => ws.write("a.ts", `${line}\n`);
  },
  // Never read: the session has not seen its lines.
  refused: (ws) =>
    Promise.resolve(() => ws.write("a.ts", "export const x = 9;\n")),
};

const create: Kind = {
  name: "create",
  path: "c.ts",
  checked: true,
  landing: (ws, _tree, line) =>
    Promise.resolve(() => ws.create("c.ts", `${line}\n`)),
  refused: (ws) =>
    Promise.resolve(() => ws.create("a.ts", "export const x = 9;\n")),
};

const undo: Kind = {
  name: "undo",
  path: "a.ts",
  // An undo puts back what the entry replaced; it is not checked.
  checked: false,
  async landing(ws, tree, line) {
    const id = await ownEntry(ws, tree, line);
    return () => ws.undo(id);
  },
  async refused(ws, tree) {
    const id = await ownEntry(ws, tree, "export const a = 5;");
    // The line the entry wrote moved on: MOVED_ON.
    await writeFile(join(tree.root, "a.ts"), "export const a = 6;\n");
    return () => ws.undo(id);
  },
};

const KINDS = [linePatch, fileOpPatch, wholeWrite, create, undo];

/**
 * An entry that wrote `line` over a.ts's first line, made on a file that
 * holds `line` first so that its undo puts `line` back.
 */
async function ownEntry(
  ws: Workspace,
  tree: Tree,
  line: string,
): Promise<string> {
  await writeFile(join(tree.root, "a.ts"), `${line}\nexport const b = 2;\n`);
  const view = (await ws.read("a.ts")).text;
  const done = await ws.patch({
    files: [{
      path: "a.ts",
      ops: [{ op: "replace", start: anchorOf(view, 1), lines: ["// x"] }],
    }],
  }, { check: "off" });
  assert.ok(done.entry);
  return done.entry;
}

/** A tree holding a.ts, and a workspace on it whose commits run `onStep`. */
async function setUp(
  options: WorkspaceOptions,
  onStep: (name: string) => void | Promise<void> = () => {},
): Promise<{ tree: Tree; ws: Workspace }> {
  const tree = await makeTree();
  await writeFile(join(tree.root, "a.ts"), SOURCE);
  const ws = tree.open({
    lockTimeoutMs: 5_000,
    hooks: { afterStep: (name) => onStep(name) },
    ...options,
  });
  return { tree, ws };
}

/** The answers of checks kept under the state folder. */
async function receipts(tree: Tree): Promise<number> {
  try {
    return (await readdir(join(tree.state, "checks")))
      .filter((n) => n.endsWith(".json")).length;
  } catch {
    return 0;
  }
}

/** The bytes under the root and the edit history, compared before and after a call. */
async function stateOf(ws: Workspace, tree: Tree) {
  return { bytes: await snapshot(tree.root), history: await ws.history() };
}

/** The first line of `kind.path` as it stands on disk. */
async function firstLine(kind: Kind, tree: Tree): Promise<string> {
  return (await readFile(join(tree.root, kind.path), "utf8")).split("\n")[0];
}

/** Writes `kind.path` again, as a second writer right after would. */
async function writeAgain(ws: Workspace, kind: Kind, tree: Tree) {
  const info = await ws.stat(kind.path);
  if (info.exists) await ws.read(kind.path);
  const text = "export const again = 1;\n";
  await ws.write(kind.path, text, { check: "off" });
  assert.equal(await readFile(join(tree.root, kind.path), "utf8"), text);
  assert.deepEqual(await leftovers(tree.root), []);
}

describe("one write transaction for every kind of write", () => {
  for (const kind of KINDS) {
    it(
      `${kind.name}: a refusal leaves every byte and the history as they were`,
      { timeout: 60_000 },
      async () => {
        const { tree, ws } = await setUp({});
        try {
          const call = await kind.refused(ws, tree);
          const was = await stateOf(ws, tree);
          await assert.rejects(call(), (e: Error & { code?: string }) => {
            assert.match(
              String(e.code),
              /^(STALE_ANCHOR|CHANGED|NOT_READ|EXISTS|MOVED_ON)$/,
            );
            return true;
          });
          assert.deepEqual(await stateOf(ws, tree), was);
          // Its locks are free again.
          await writeAgain(ws, kind, tree);
        } finally {
          await tree.cleanup();
        }
      },
    );

    it(
      `${kind.name}: a check that may refuse runs before anything is staged`,
      { timeout: 60_000 },
      async () => {
        const steps: string[] = [];
        const { tree, ws } = await setUp(
          { check: "refuse" },
          (name) => void steps.push(name),
        );
        try {
          const call = await kind.landing(ws, tree, "export const = ;");
          const was = await stateOf(ws, tree);
          steps.length = 0;
          if (!kind.checked) {
            // Not checked: a broken line lands under refuse too.
            await call();
            assert.equal(
              await firstLine(kind, tree),
              "export const = ;",
            );
          } else {
            await assert.rejects(call(), { code: "SYNTAX" });
            assert.deepEqual(steps, [], "nothing was staged");
            assert.deepEqual(await stateOf(ws, tree), was);
          }
          await writeAgain(ws, kind, tree);
        } finally {
          await tree.cleanup();
        }
      },
    );

    it(
      `${kind.name}: under warn the check runs beside the commit and the edit lands`,
      { timeout: 60_000 },
      async () => {
        // The CLI's door keeps every check's answer under the state folder,
        // which tells when the check of the new content ran.
        let atStage = -1;
        const made: { tree?: Tree } = {};
        const { tree, ws } = await setUp(
          { door: "cli", check: "warn" },
          async (n) => {
            if (n === "temp-0" && atStage < 0) {
              atStage = await receipts(made.tree!);
            }
          },
        );
        made.tree = tree;
        try {
          const call = await kind.landing(ws, tree, "export const = ;");
          const kept = await receipts(tree);
          atStage = -1;
          const out = await call() as {
            checks?: { status: string }[];
            summary: string;
          };
          assert.equal(
            await firstLine(kind, tree),
            "export const = ;",
          );
          assert.ok(atStage >= 0, "a commit step ran");
          if (!kind.checked) {
            assert.doesNotMatch(out.summary, /syntax error/);
            assert.equal(await receipts(tree), kept);
          } else {
            assert.deepEqual(out.checks?.map((c) => c.status), ["broken"]);
            assert.match(out.summary, /introduces 1 typescript syntax error/);
            // Staged before the new content's check answered; answered
            // before the result.
            assert.equal(atStage, kept, "no answer when the file was staged");
            assert.ok(await receipts(tree) > kept, "answered by the result");
          }
          await writeAgain(ws, kind, tree);
        } finally {
          await tree.cleanup();
        }
      },
    );

    it(
      `${kind.name}: the locks are free after an error thrown mid-commit`,
      { timeout: 60_000 },
      async () => {
        let armed = false;
        const { tree, ws } = await setUp({}, (name) => {
          if (armed && name === "temp-0") {
            armed = false;
            throw new Error("the disk went away");
          }
        });
        try {
          const call = await kind.landing(ws, tree, "export const a = 7;");
          const was = await stateOf(ws, tree);
          armed = true;
          await assert.rejects(call(), /the disk went away/);
          assert.deepEqual(await stateOf(ws, tree), was);
          await writeAgain(ws, kind, tree);
        } finally {
          await tree.cleanup();
        }
      },
    );

    it(
      `${kind.name}: the locks are free after a success`,
      { timeout: 60_000 },
      async () => {
        const { tree, ws } = await setUp({});
        try {
          const call = await kind.landing(ws, tree, "export const a = 8;");
          await call();
          assert.equal(
            await firstLine(kind, tree),
            "export const a = 8;",
          );
          await writeAgain(ws, kind, tree);
        } finally {
          await tree.cleanup();
        }
      },
    );
  }
});
