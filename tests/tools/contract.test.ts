import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { runMcpStdio } from "../../src/mcp/mod.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import {
  createToolRegistry,
  type ToolResult,
  type Workspace,
} from "../../src/tools/mod.ts";
import { openWorkspace, type PatchOptions } from "../../src/workspace/mod.ts";
import { bytes, tempTree } from "../http/_helpers.ts";

function ok(r: ToolResult) {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r;
}
function fail(r: ToolResult) {
  if (r.ok) throw new Error(`expected a refusal, got: ${r.text}`);
  return r.error;
}

/** Every place in a JSON Schema where a subschema is a bare `{}` (accepts anything). */
function bareBranches(node: unknown, at = "$"): string[] {
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) {
    return node.flatMap((n, i) => bareBranches(n, `${at}[${i}]`));
  }
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    const sub = `${at}.${key}`;
    const isSchemaSlot = key === "items" || key === "additionalProperties";
    if (
      isSchemaSlot && value !== null && typeof value === "object" &&
      !Array.isArray(value) && Object.keys(value).length === 0
    ) out.push(sub);
    if ((key === "anyOf" || key === "oneOf") && Array.isArray(value)) {
      value.forEach((v, i) => {
        if (v && typeof v === "object" && Object.keys(v).length === 0) {
          out.push(`${sub}[${i}]`);
        }
      });
    }
    out.push(...bareBranches(value, sub));
  }
  return out;
}

/** Property paths in a JSON Schema that carry no description. */
function undescribed(node: unknown, at = "$"): string[] {
  if (node === null || typeof node !== "object") return [];
  if (Array.isArray(node)) {
    return node.flatMap((n, i) => undescribed(n, `${at}[${i}]`));
  }
  const out: string[] = [];
  const props = (node as { properties?: Record<string, unknown> }).properties;
  if (props) {
    for (const [name, sub] of Object.entries(props)) {
      if (!(sub as { description?: string }).description) {
        out.push(`${at}.${name}`);
      }
    }
  }
  for (const [key, value] of Object.entries(node)) {
    out.push(...undescribed(value, `${at}.${key}`));
  }
  return out;
}

describe("tool definitions", () => {
  for (const editFormat of ["hashline", "str_replace"] as const) {
    it(`${editFormat}: every tool has a title, annotations, object schemas, no bare {} branch and every field described`, async () => {
      const tree = await tempTree();
      try {
        const registry = createToolRegistry({
          workspace: openWorkspace(tree.dir, { persistSessions: false }),
          store: createMemoryStore(),
          editFormat,
        });
        for (const t of registry.tools) {
          assert.ok(t.title.length > 0, t.name);
          for (
            const hint of [
              "readOnlyHint",
              "destructiveHint",
              "idempotentHint",
              "openWorldHint",
            ] as const
          ) {
            assert.equal(
              typeof t.annotations[hint],
              "boolean",
              `${t.name} ${hint}`,
            );
          }
          assert.equal(t.inputSchema.type, "object", t.name);
          assert.equal(t.outputSchema.type, "object", t.name);
          assert.deepEqual(bareBranches(t.inputSchema), [], t.name);
          assert.deepEqual(undescribed(t.inputSchema), [], t.name);
        }
        const byName = Object.fromEntries(
          registry.tools.map((t) => [t.name, t]),
        );
        assert.equal(byName.read_file.annotations.readOnlyHint, true);
        assert.equal(byName.source_read.annotations.readOnlyHint, true);
        assert.equal(byName.edit_file.annotations.destructiveHint, true);
        assert.equal(byName.source_export.annotations.destructiveHint, false);
      } finally {
        await tree.cleanup();
      }
    });
  }

  it("an unknown editFormat is a TypeError for the registry and for the stdio server", async () => {
    assert.throws(
      () => createToolRegistry({ editFormat: "sed" as "hashline" }),
      /editFormat must be "hashline" or "str_replace", got "sed"/,
    );
    await assert.rejects(
      runMcpStdio({
        store: createMemoryStore(),
        editFormat: "sed" as "hashline",
      }),
      TypeError,
    );
  });
});

describe("rebase reaches the workspace", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let seen: (boolean | undefined)[];
  let workspace: Workspace;
  before(async () => {
    tree = await tempTree({ "a.txt": "one\ntwo\n" });
    const real = openWorkspace(tree.dir, { persistSessions: false });
    seen = [];
    // Everything is the real workspace; the patch options are noted on the way.
    workspace = Object.create(real, {
      patch: {
        value: (patch: unknown, options?: PatchOptions) => {
          seen.push(options?.rebase);
          return real.patch(patch as never, options);
        },
      },
    });
  });
  after(() => tree.cleanup());

  it("from the registry default, and a call's own rebase wins", async () => {
    const registry = createToolRegistry({ workspace, rebase: true });
    ok(await registry.call("read_file", { path: "a.txt" }));
    const patch = `@@ a.txt\n= 2:${lineHash("two")}\n~TWO`;
    const first = ok(await registry.call("edit_file", { patch, dryRun: true }));
    assert.deepEqual((first.data as { rebased: string[] }).rebased, []);
    ok(
      await registry.call("edit_file", { patch, dryRun: true, rebase: false }),
    );
    const plain = createToolRegistry({ workspace });
    ok(await plain.call("edit_file", { patch, dryRun: true }));
    assert.deepEqual(seen, [true, false, false]);
  });
});

describe("source tools", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let registry: ReturnType<typeof createToolRegistry>;
  let handle: string;
  before(async () => {
    tree = await tempTree({ "taken.txt": "mine\n" });
    registry = createToolRegistry({
      workspace: openWorkspace(tree.dir, {
        stateDir: join(tree.dir, ".hashline"),
        persistSessions: false,
      }),
      store: createMemoryStore(),
    });
    const put = ok(await registry.call("source_put", { source: "a\nb\nc\n" }));
    handle = put.data.handle as string;
  });
  after(() => tree.cleanup());

  it("source_read with anchors shows LINE:HH|content windows counted in lines", async () => {
    const all = ok(
      await registry.call("source_read", { ref: handle, anchors: true }),
    );
    assert.equal(
      all.text,
      `1:${lineHash("a")}|a\n2:${lineHash("b")}|b\n3:${lineHash("c")}|c`,
    );
    assert.equal(all.data.totalLines, 3);
    assert.equal(all.data.anchors, true);
    assert.match(all.data.ref as string, /^sha256:[0-9a-f]{64}$/);
    const win = ok(
      await registry.call("source_read", {
        ref: handle,
        anchors: true,
        offset: 2,
        limit: 1,
      }),
    );
    assert.equal(win.data.text, `2:${lineHash("b")}|b`);
    assert.equal(win.data.nextOffset, 3);
    assert.match(win.text, /offset 3/);
  });

  const refusals: [string, Record<string, unknown>, RegExp][] = [
    [
      "offset 0 with anchors",
      { anchors: true, offset: 0 },
      /"offset" counts lines from 1/,
    ],
    ["a query with anchors", { anchors: true, query: "b" }, /"query"/],
    [
      "a limit over 10000 lines",
      { anchors: true, limit: 10_001 },
      /"limit" is at most 10000/,
    ],
    ["an offset past the end", { anchors: true, offset: 9 }, /3 lines/],
  ];
  for (const [name, input, pattern] of refusals) {
    it(`source_read refuses ${name} as BAD_INPUT`, async () => {
      const err = fail(
        await registry.call("source_read", { ref: handle, ...input }),
      );
      assert.equal(err.code, "BAD_INPUT");
      assert.match(err.message, pattern);
    });
  }

  it("source_export creates the file through the workspace, never over one, never outside", async () => {
    const out = ok(
      await registry.call("source_export", {
        ref: handle,
        path: "out/new.txt",
      }),
    );
    assert.equal(out.data.path, "out/new.txt");
    assert.equal(out.data.bytes, 6);
    assert.equal(
      await readFile(join(tree.dir, "out/new.txt"), "utf8"),
      "a\nb\nc\n",
    );

    const before = await bytes(join(tree.dir, "taken.txt"));
    const taken = fail(
      await registry.call("source_export", { ref: handle, path: "taken.txt" }),
    );
    assert.equal(taken.code, "EXISTS");
    assert.deepEqual(await bytes(join(tree.dir, "taken.txt")), before);

    const outside = fail(
      await registry.call("source_export", {
        ref: handle,
        path: "../escape.txt",
      }),
    );
    assert.equal(outside.code, "OUTSIDE_ROOT");
    await assert.rejects(readFile(join(tree.dir, "..", "escape.txt")));
  });
});
