// edit_file advertises one lean schema; the handler still takes every shape
// it took before, and names the field when a call is wrong.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import {
  createToolRegistry,
  type ToolRegistry,
  type ToolResult,
} from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

const A = "one\ntwo\nthree\n";
const B = "bee\n";
const anchor = (n: number, line: string) => `${n}:${lineHash(line)}`;

function ok(r: ToolResult) {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}

describe("edit_file shapes", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let registry: ToolRegistry;
  let session = 0;
  const file = (p: string) => readFile(join(tree.dir, p), "utf8");
  before(async () => {
    tree = await tempTree();
  });
  after(() => tree.cleanup());
  beforeEach(async () => {
    await writeFile(join(tree.dir, "a.txt"), A);
    await writeFile(join(tree.dir, "b.txt"), B);
    registry = createToolRegistry({
      workspace: openWorkspace(tree.dir, { persistSessions: false }),
      session: `s${++session}`,
    });
    ok(await registry.call("read_file", { path: "a.txt" }));
    ok(await registry.call("read_file", { path: "b.txt" }));
  });

  const two = anchor(2, "two");
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      "{ path, ops }",
      {
        path: "a.txt",
        ops: [{ op: "replace", start: two, lines: ["TWO"] }],
      },
      "one\nTWO\nthree\n",
      B,
    ],
    [
      "{ files: [{ path, ops }] } over two files",
      {
        files: [
          { path: "a.txt", ops: [{ op: "delete", start: two }] },
          { path: "b.txt", ops: [{ op: "append", lines: ["cee"] }] },
        ],
      },
      "one\nthree\n",
      "bee\ncee\n",
    ],
    [
      "{ patch } in text form",
      {
        patch: `@@ a.txt\n< ${anchor(1, "one")}\n~zero\n@@ b.txt\n- ${
          anchor(1, "bee")
        }`,
      },
      "zero\none\ntwo\nthree\n",
      "",
    ],
    [
      "{ path, patch } in text form without @@",
      {
        path: "a.txt",
        patch: `+ ${anchor(3, "three")}\n~four`,
      },
      "one\ntwo\nthree\nfour\n",
      B,
    ],
    [
      "{ patch } in JSON form ({ files })",
      {
        patch: {
          files: [{
            path: "a.txt",
            ops: [{ op: "insert_after", anchor: two, lines: ["2.5"] }],
          }],
        },
      },
      "one\ntwo\n2.5\nthree\n",
      B,
    ],
    [
      "{ patch } in JSON form ({ path, ops })",
      {
        patch: { path: "b.txt", ops: [{ op: "prepend", lines: ["ay"] }] },
      },
      A,
      "ay\nbee\n",
    ],
    [
      "{ path, ops } with every unused field null",
      {
        path: "a.txt",
        ops: [{
          op: "replace",
          start: two,
          end: anchor(3, "three"),
          anchor: null,
          lines: ["x"],
          literal: null,
        }],
        files: null,
        patch: null,
        dryRun: null,
        rebase: null,
      },
      "one\nx\n",
      B,
    ],
  ];
  for (const [name, input, a, b] of cases) {
    it(`takes ${name}`, async () => {
      ok(await registry.call("edit_file", input));
      assert.equal(await file("a.txt"), a);
      assert.equal(await file("b.txt"), b);
    });
  }

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ["a replace without lines", {
      path: "a.txt",
      ops: [{ op: "replace", start: two }],
    }, /field "ops\[0\]\.lines": missing/],
    ["a field the op does not take", {
      path: "a.txt",
      ops: [{ op: "delete", start: two, lines: [] }],
    }, /field "ops\[0\]".*"lines"/],
    ["an unknown op", {
      path: "a.txt",
      ops: [{ op: "swap", start: two }],
    }, /field "ops\[0\]\.op"/],
    ["a file entry without ops", {
      files: [{ path: "a.txt" }],
    }, /field "files\[0\]\.ops"/],
    [
      "a patch that is a number",
      { patch: 7 },
      /field "patch": expected the text form/,
    ],
    ["two shapes at once", {
      path: "a.txt",
      ops: [{ op: "delete", start: two }],
      patch: "@@ a.txt",
    }, /exactly one of/],
    ["no shape", { path: "a.txt" }, /exactly one of/],
    ["a null line", {
      path: "a.txt",
      ops: [{ op: "append", lines: [null] }],
    }, /field "ops\[0\]\.lines\[0\]"/],
  ];
  for (const [name, input, message] of bad) {
    it(`refuses ${name} as BAD_INPUT naming the field; nothing is written`, async () => {
      const r = await registry.call("edit_file", input);
      assert.equal(r.ok, false);
      assert.equal(!r.ok && r.error.code, "BAD_INPUT");
      assert.match(!r.ok ? r.error.message : "", message);
      assert.equal(await file("a.txt"), A);
      assert.equal(await file("b.txt"), B);
    });
  }

  it("str_replace: snake_case and camelCase calls both work", async () => {
    const sr = createToolRegistry({
      workspace: openWorkspace(tree.dir, { persistSessions: false }),
      editFormat: "str_replace",
    });
    ok(
      await sr.call("edit_file", {
        path: "a.txt",
        old_string: "two",
        new_string: "2",
        replace_all: null,
      }),
    );
    ok(
      await sr.call("edit_file", {
        path: "a.txt",
        oldString: "three",
        newString: "3",
      }),
    );
    assert.equal(await file("a.txt"), "one\n2\n3\n");
    const bad = await sr.call("edit_file", { path: "a.txt", new_string: "x" });
    assert.equal(!bad.ok && bad.error.code, "BAD_INPUT");
    assert.match(!bad.ok ? bad.error.message : "", /field "old_string"/);
    assert.equal(await file("a.txt"), "one\n2\n3\n");
  });
});
