import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { createToolRegistry, type ToolResult } from "../../src/tools/mod.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { bytes, tempTree } from "../http/_helpers.ts";

const a = (n: number, line: string) => `${n}:${lineHash(line)}`;

function ok(r: ToolResult): { text: string; data: unknown } {
  if (!r.ok) {
    throw new Error(
      `expected success, got ${r.error.code}: ${r.error.message}`,
    );
  }
  return r;
}
function fail(
  r: ToolResult,
): { code: string; message: string; problems?: unknown[] } {
  if (r.ok) throw new Error(`expected a refusal, got: ${r.text}`);
  return r.error;
}

describe("tool registry, hashline format", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let registry: ReturnType<typeof createToolRegistry>;

  before(async () => {
    tree = await tempTree({
      "app.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n",
      "other.ts": "x\n",
    });
    const workspace = openWorkspace(tree.dir, {
      stateDir: join(tree.dir, ".hashline"),
      persistSessions: false,
    });
    registry = createToolRegistry({ workspace, store: createMemoryStore() });
  });
  after(() => tree.cleanup());

  it("lists every tool with an object JSON Schema and a prompt teaching anchors", () => {
    assert.deepEqual(registry.tools.map((t) => t.name), [
      "read_file",
      "edit_file",
      "write_file",
      "list_files",
      "search_files",
      "source_put",
      "source_read",
      "source_edit",
      "source_patch",
      "source_export",
    ]);
    for (const t of registry.tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.equal(registry.get(t.name), t);
    }
    const edit = registry.get("edit_file")!.inputSchema as {
      properties: Record<string, unknown>;
    };
    for (const key of ["path", "ops", "files", "patch", "dryRun"]) {
      assert.ok(key in edit.properties, key);
    }
    assert.equal(registry.editFormat, "hashline");
    assert.match(registry.systemPrompt, /LINE:HH/);
    assert.match(registry.systemPrompt, /source_put/);
  });

  it("read_file → edit_file chains on fresh anchors; a stale anchor is refused whole", async () => {
    const read = ok(await registry.call("read_file", { path: "app.ts" }));
    assert.equal(
      read.text,
      `${a(1, "const a = 1;")}|const a = 1;\n${
        a(2, "const b = 2;")
      }|const b = 2;\n${a(3, "const c = 3;")}|const c = 3;`,
    );
    const edited = ok(
      await registry.call("edit_file", {
        path: "app.ts",
        ops: [{
          op: "replace",
          start: a(2, "const b = 2;"),
          lines: ["const b = 20;"],
        }],
      }),
    );
    assert.match(edited.text, /^Edited app\.ts \(\+1 -1\)/);
    assert.match(
      edited.text,
      new RegExp(`${a(2, "const b = 20;")}\\|const b = 20;`),
    );
    const file = join(tree.dir, "app.ts");
    const before = await bytes(file);
    const stale = fail(
      await registry.call("edit_file", {
        patch: `@@ app.ts\n= ${a(2, "const b = 2;")}\n~const b = 200;`,
      }),
    );
    assert.equal(stale.code, "STALE_ANCHOR");
    assert.match(stale.message, /^Rejected — nothing written\./);
    assert.deepEqual(await bytes(file), before);
    const chained = ok(
      await registry.call("edit_file", {
        files: [{
          path: "app.ts",
          ops: [{
            op: "insert_after",
            anchor: a(3, "const c = 3;"),
            lines: ["// end"],
          }],
        }],
      }),
    );
    assert.match(chained.text, /\+\/\/ end/);
    assert.equal(
      await readFile(file, "utf8"),
      "const a = 1;\nconst b = 20;\nconst c = 3;\n// end\n",
    );
  });

  it("edit_file takes a text patch without @@ when path is given, and dryRun writes nothing", async () => {
    ok(await registry.call("read_file", { path: "other.ts" }));
    const file = join(tree.dir, "other.ts");
    const before = await bytes(file);
    const dry = ok(
      await registry.call("edit_file", {
        path: "other.ts",
        patch: `= ${a(1, "x")}\n~y`,
        dryRun: true,
      }),
    );
    assert.match(dry.text, /[Dd]ry run/);
    assert.deepEqual(await bytes(file), before);
  });

  it("sessions are separate: a read in one does not let another edit", async () => {
    ok(
      await registry.call("read_file", { path: "other.ts" }, { session: "s1" }),
    );
    const file = join(tree.dir, "other.ts");
    const before = await bytes(file);
    const refused = fail(
      await registry.call("edit_file", {
        path: "other.ts",
        ops: [{ op: "delete", start: a(1, "x") }],
      }, { session: "s2" }),
    );
    assert.equal(refused.code, "NOT_READ");
    assert.deepEqual(await bytes(file), before);
  });

  const badInputs: [string, string, unknown, RegExp][] = [
    ["read_file without path", "read_file", {}, /"path"/],
    [
      "read_file with limit 0",
      "read_file",
      { path: "app.ts", limit: 0 },
      /"limit"/,
    ],
    ["edit_file with two shapes", "edit_file", {
      path: "a",
      ops: [],
      patch: "x",
    }, /exactly one/],
    ["edit_file ops without path", "edit_file", { ops: [] }, /"path"/],
    ["edit_file with an unknown op", "edit_file", {
      path: "a",
      ops: [{ op: "zap" }],
    }, /"ops\[0\]/],
    [
      "edit_file text without a file",
      "edit_file",
      { patch: "+\n~x" },
      /@@ PATH/,
    ],
    [
      "write_file without content",
      "write_file",
      { path: "n.txt" },
      /"content"/,
    ],
    [
      "source_edit with no edits",
      "source_edit",
      { ref: "p_1", edits: [] },
      /"edits"/,
    ],
    ["input that is not an object", "read_file", "app.ts", /object/],
  ];
  for (const [name, tool, input, pattern] of badInputs) {
    it(`${name} is BAD_INPUT naming the field`, async () => {
      const err = fail(await registry.call(tool, input));
      assert.equal(err.code, "BAD_INPUT");
      assert.match(err.message, pattern);
    });
  }

  it("an unknown tool is UNKNOWN_TOOL, not a throw", async () => {
    const err = fail(await registry.call("rm_rf", {}));
    assert.equal(err.code, "UNKNOWN_TOOL");
    assert.match(err.message, /read_file/);
  });

  it("outside the root is OUTSIDE_ROOT; a missing file is NOT_FOUND", async () => {
    assert.equal(
      fail(await registry.call("read_file", { path: "../x" })).code,
      "OUTSIDE_ROOT",
    );
    assert.equal(
      fail(await registry.call("read_file", { path: "none.ts" })).code,
      "NOT_FOUND",
    );
  });

  it("write_file creates a file and refuses to replace one the session has not read", async () => {
    const created = ok(
      await registry.call("write_file", {
        path: "new/file.txt",
        content: "hi\n",
      }),
    );
    assert.match(created.text, /^Created new\/file\.txt/);
    assert.equal(
      await readFile(join(tree.dir, "new/file.txt"), "utf8"),
      "hi\n",
    );
    const before = await bytes(join(tree.dir, "new/file.txt"));
    const err = fail(
      await registry.call("write_file", {
        path: "new/file.txt",
        content: "bye\n",
      }, {
        session: "stranger",
      }),
    );
    assert.equal(err.code, "NOT_READ");
    assert.deepEqual(await bytes(join(tree.dir, "new/file.txt")), before);
  });

  it("source tools: put, read, edit, patch, export (never overwriting, never outside)", async () => {
    const put = ok(
      await registry.call("source_put", { source: "alpha\nbeta\n" }),
    );
    const { ref, handle } = put.data as { ref: string; handle: string };
    assert.match(put.text, new RegExp(handle));
    const read = ok(
      await registry.call("source_read", { ref: handle, query: "beta" }),
    );
    assert.match(read.text, /beta/);
    const miss = ok(
      await registry.call("source_read", { ref: handle, query: "gamma" }),
    );
    assert.equal((miss.data as { found: boolean }).found, false);
    const edited = ok(
      await registry.call("source_edit", {
        ref,
        edits: [{ oldString: "alpha", newString: "ALPHA" }],
      }),
    );
    const next = edited.data as { handle: string; parentRef: string };
    assert.equal(next.parentRef, ref);
    const patched = ok(
      await registry.call("source_patch", {
        ref: next.handle,
        ops: [{ op: "append", lines: ["gamma"] }],
      }),
    );
    const last = (patched.data as { handle: string }).handle;
    const viaText = ok(
      await registry.call("source_patch", {
        ref: last,
        patch: `- ${a(1, "ALPHA")}`,
      }),
    );
    assert.match(viaText.text, /^-ALPHA$/m);
    const exported = ok(
      await registry.call("source_export", {
        ref: last,
        path: "out/exported.txt",
      }),
    );
    assert.equal((exported.data as { path: string }).path, "out/exported.txt");
    assert.equal(
      await readFile(join(tree.dir, "out/exported.txt"), "utf8"),
      "ALPHA\nbeta\ngamma\n",
    );
    const target = join(tree.dir, "app.ts");
    const before = await bytes(target);
    const exists = fail(
      await registry.call("source_export", { ref: handle, path: "app.ts" }),
    );
    assert.equal(exists.code, "EXISTS");
    assert.deepEqual(await bytes(target), before);
    const outside = fail(
      await registry.call("source_export", {
        ref: handle,
        path: "../escape.txt",
      }),
    );
    assert.equal(outside.code, "OUTSIDE_ROOT");
    const unknown = fail(
      await registry.call("source_export", {
        ref: "p_ffffffffffff",
        path: "z.txt",
      }),
    );
    assert.equal(unknown.code, "UNKNOWN_HANDLE");
  });
});

describe("tool registry, str_replace format", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let registry: ReturnType<typeof createToolRegistry>;

  before(async () => {
    tree = await tempTree({
      "main.py": "def f():\n    return 1\n\ndef g():\n    return 1\n",
      "win.txt": "\uFEFFfirst\r\nsecond\r\nthird\r\n",
      "tail.txt": "a\nfoo\nb",
    });
    const workspace = openWorkspace(tree.dir, {
      stateDir: join(tree.dir, ".hashline"),
      persistSessions: false,
    });
    registry = createToolRegistry({ workspace, editFormat: "str_replace" });
  });
  after(() => tree.cleanup());

  it("shows numbered lines without hashes and teaches old_string/new_string", async () => {
    assert.deepEqual(registry.tools.map((t) => t.name), [
      "read_file",
      "edit_file",
      "write_file",
      "list_files",
      "search_files",
    ]);
    const schema = registry.get("edit_file")!.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    assert.deepEqual(Object.keys(schema.properties).sort(), [
      "check",
      "new_string",
      "old_string",
      "path",
      "replace_all",
    ]);
    assert.deepEqual(schema.required.sort(), [
      "new_string",
      "old_string",
      "path",
    ]);
    assert.match(registry.systemPrompt, /old_string/);
    assert.doesNotMatch(registry.systemPrompt, /LINE:HH/);
    const read = ok(await registry.call("read_file", { path: "main.py" }));
    assert.equal(
      read.text,
      "     1\tdef f():\n     2\t    return 1\n     3\t\n     4\tdef g():\n     5\t    return 1",
    );
  });

  it("replaces a unique string; refuses zero or several matches leaving bytes unchanged", async () => {
    const file = join(tree.dir, "main.py");
    const before = await bytes(file);
    const many = fail(
      await registry.call("edit_file", {
        path: "main.py",
        old_string: "return 1",
        new_string: "return 2",
      }),
    );
    assert.equal(many.code, "MANY_MATCHES");
    assert.match(many.message, /2 times/);
    const none = fail(
      await registry.call("edit_file", {
        path: "main.py",
        old_string: "nope",
        new_string: "x",
      }),
    );
    assert.equal(none.code, "NO_MATCH");
    assert.deepEqual(await bytes(file), before);
    const done = ok(
      await registry.call("edit_file", {
        path: "main.py",
        old_string: "def g():\n    return 1",
        new_string: "def g():\n    return 2",
      }),
    );
    assert.match(
      done.text,
      /^Edited main\.py \(\+1 -1\): replaced 1 occurrence/,
    );
    assert.equal(
      await readFile(file, "utf8"),
      "def f():\n    return 1\n\ndef g():\n    return 2\n",
    );
    ok(
      await registry.call("edit_file", {
        path: "main.py",
        old_string: "return",
        new_string: "yield",
        replace_all: true,
      }),
    );
    assert.equal(
      await readFile(file, "utf8"),
      "def f():\n    yield 1\n\ndef g():\n    yield 2\n",
    );
  });

  it("keeps CRLF and the BOM, and matches text copied with bare newlines", async () => {
    const file = join(tree.dir, "win.txt");
    ok(
      await registry.call("edit_file", {
        path: "win.txt",
        old_string: "first\nsecond",
        new_string: "one\ntwo\nmore",
      }),
    );
    assert.equal(
      await readFile(file, "utf8"),
      "\uFEFFone\r\ntwo\r\nmore\r\nthird\r\n",
    );
  });

  it("removes whole lines when old_string takes the newline, and keeps a missing final newline", async () => {
    const file = join(tree.dir, "tail.txt");
    ok(
      await registry.call("edit_file", {
        path: "tail.txt",
        old_string: "foo\n",
        new_string: "",
      }),
    );
    assert.equal(await readFile(file, "utf8"), "a\nb");
    ok(
      await registry.call("edit_file", {
        path: "tail.txt",
        old_string: "b",
        new_string: "c",
      }),
    );
    assert.equal(await readFile(file, "utf8"), "a\nc");
  });

  it("refuses files outside the root", async () => {
    const err = fail(
      await registry.call("edit_file", {
        path: "../x",
        old_string: "a",
        new_string: "b",
      }),
    );
    assert.equal(err.code, "OUTSIDE_ROOT");
  });
});

describe("createToolRegistry", () => {
  it("offers only the tools whose backing is present", () => {
    assert.deepEqual(createToolRegistry({}).tools, []);
    assert.deepEqual(
      createToolRegistry({ store: createMemoryStore() }).tools.map((t) =>
        t.name
      ),
      ["source_put", "source_read", "source_edit", "source_patch"],
    );
  });

  it("refuses an unknown edit format", () => {
    assert.throws(
      // @ts-expect-error: testing a wrong value
      () => createToolRegistry({ editFormat: "diff" }),
      TypeError,
    );
  });
});
