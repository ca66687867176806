/**
 * Patch → log → undo through every door (library, CLI, HTTP, MCP): the
 * entry names its door, and undo gives back the exact bytes, for LF, CRLF,
 * BOM and no-final-newline files and for a three-file patch; a refused undo
 * (MOVED_ON) writes nothing and reports 409 / exit 1 / an MCP error.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import {
  cliDoor,
  type Door,
  httpDoor,
  libraryDoor,
  mcpDoor,
} from "../_doors.ts";
import { call } from "../http/_helpers.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";
import { bytesOf, SHAPES } from "./_helpers.ts";

type FilePatch = { path: string; ops: unknown[] };

/** The steps of a round trip: a patch must land; an undo lands or is MOVED_ON. */
function steps(door: Door) {
  return {
    name: door.name,
    anchors: (p: string) => door.read(p),
    patch: async (files: FilePatch[]) => {
      const r = await door.patch({ files });
      assert.ok(r.ok, r.text);
    },
    log: () => door.log(),
    show: (id: string) => door.show(id),
    undo: async (id: string): Promise<"done" | "moved-on"> => {
      const r = await door.undo(id);
      if (r.ok) return "done";
      assert.equal(r.code, "MOVED_ON", r.text);
      return "moved-on";
    },
  };
}

async function roundTrips(t: Tree, through: Door): Promise<void> {
  const door = steps(through);
  for (const shape of SHAPES) {
    await writeFile(join(t.root, shape.name), shape.content);
  }
  for (const shape of SHAPES) {
    const before = await bytesOf(t.root, shape.name);
    const a = await door.anchors(shape.name);
    await door.patch([{
      path: shape.name,
      ops: [
        { op: "replace", start: a[1], lines: ["BETA"] },
        { op: "delete", start: a[3] },
        { op: "append", lines: ["omega"] },
      ],
    }]);
    const [top] = await door.log();
    assert.equal(top.door, door.name);
    assert.deepEqual(top.files.map((f) => f.path), [shape.name]);
    assert.match(await door.show(top.id), /^\+BETA$/m);
    assert.equal(await door.undo(top.id), "done");
    assert.equal(
      await bytesOf(t.root, shape.name),
      before,
      `${door.name}: ${shape.name}`,
    );
  }
  // Three files in one patch: one entry, undone at once.
  const names = ["x.txt", "y.txt", "z.txt"];
  for (const n of names) await writeFile(join(t.root, n), `${n}\nsecond\n`);
  const before = await Promise.all(names.map((n) => bytesOf(t.root, n)));
  const files = [];
  for (const n of names) {
    const a = await door.anchors(n);
    files.push({
      path: n,
      ops: [{ op: "replace", start: a[1], lines: [`${n} 2`] }],
    });
  }
  await door.patch(files);
  const [three] = await door.log();
  assert.deepEqual(three.files.map((f) => f.path), names);
  // A later edit of another line of x.txt is kept by the undo...
  const ax = await door.anchors("x.txt");
  await door.patch([{
    path: "x.txt",
    ops: [{ op: "replace", start: ax[0], lines: ["X"] }],
  }]);
  const [later] = await door.log();
  assert.equal(await door.undo(three.id), "done");
  assert.deepEqual(
    await Promise.all(names.slice(1).map((n) => bytesOf(t.root, n))),
    before.slice(1),
  );
  assert.equal(
    await bytesOf(t.root, "x.txt"),
    Buffer.from("X\nsecond\n").toString("hex"),
  );
  // ...and an undo of an undo re-applies it.
  const [undone] = await door.log();
  assert.equal(undone.undoOf, three.id);
  assert.equal(await door.undo(undone.id), "done");
  assert.equal(
    await bytesOf(t.root, "y.txt"),
    Buffer.from("y.txt\ny.txt 2\n").toString("hex"),
  );
  // A line the entry wrote moved on: refused, nothing written.
  const ay = await door.anchors("y.txt");
  await door.patch([{
    path: "y.txt",
    ops: [{ op: "replace", start: ay[1], lines: ["mine now"] }],
  }]);
  const snapshot = await Promise.all(names.map((n) => bytesOf(t.root, n)));
  const count = (await door.log()).length;
  assert.equal(await door.undo(three.id), "moved-on");
  assert.equal(await door.undo(later.id), "done");
  assert.equal(
    await bytesOf(t.root, "x.txt"),
    Buffer.from("x.txt\nx.txt 2\n").toString("hex"),
  );
  const after = await Promise.all(
    names.slice(1).map((n) => bytesOf(t.root, n)),
  );
  assert.deepEqual(after, snapshot.slice(1));
  assert.equal((await door.log()).length, count + 1);
}

import { Buffer } from "node:buffer";

describe("history through every door", () => {
  it("library", async () => {
    const tree = await makeTree();
    try {
      await roundTrips(tree, libraryDoor(tree));
    } finally {
      await tree.cleanup();
    }
  });

  it("cli", async () => {
    const tree = await makeTree();
    try {
      await roundTrips(tree, cliDoor(tree));
    } finally {
      await tree.cleanup();
    }
  });

  it("http", async () => {
    const tree = await makeTree();
    try {
      const door = httpDoor(tree);
      const app = door.app;
      await roundTrips(tree, door);
      const missing = await call(app, "GET", "/v1/history/h_999");
      assert.equal(missing.status, 404);
      const bad = await call(app, "GET", "/v1/history?limit=0");
      assert.equal(bad.status, 400);
      const wrong = await call(app, "GET", "/v1/history/h_1/undo");
      assert.equal(wrong.status, 405);
      const newest = (await call(app, "GET", "/v1/history?limit=1")).body
        .entries[0].id;
      const dry = await call(app, "POST", `/v1/history/${newest}/undo`, {
        dryRun: true,
      });
      assert.equal(dry.status, 200);
      assert.equal(dry.body.dryRun, true);
    } finally {
      await tree.cleanup();
    }
  });

  it("mcp", async () => {
    const tree = await makeTree();
    const mcp = await mcpDoor(tree);
    try {
      await roundTrips(tree, mcp);
    } finally {
      await mcp.close();
      await tree.cleanup();
    }
  });

  it("a string edit (str_replace) is one entry too, and undoes", async () => {
    const tree = await makeTree();
    try {
      await writeFile(join(tree.root, "s.txt"), "let a = 1;\r\nlet b = 2;\r\n");
      const before = await bytesOf(tree.root, "s.txt");
      const ws = openWorkspace(tree.root, {
        stateDir: tree.state,
        door: "mcp",
      });
      const registry = createToolRegistry({
        workspace: ws,
        editFormat: "str_replace",
      });
      await registry.call("read_file", { path: "s.txt" });
      const r = await registry.call("edit_file", {
        path: "s.txt",
        old_string: "b = 2",
        new_string: "b = 3",
      });
      assert.ok(r.ok, JSON.stringify(r));
      const [e] = await ws.history();
      assert.equal(e.door, "mcp");
      assert.deepEqual(e.files.map((f) => f.path), ["s.txt"]);
      await ws.undo(e.id);
      assert.equal(await bytesOf(tree.root, "s.txt"), before);
    } finally {
      await tree.cleanup();
    }
  });
});
