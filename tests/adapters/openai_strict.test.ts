import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { openAiTools } from "../../src/adapters/openai.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { anchorOf, type Fixture, makeFixture } from "./_fixture.ts";

type Node = Record<string, unknown>;

/** The keywords a strict-mode schema may hold here. */
const ALLOWED = new Set([
  "type",
  "description",
  "enum",
  "const",
  "items",
  "anyOf",
  "$ref",
  "$defs",
  "properties",
  "required",
  "additionalProperties",
]);

/** Every way `node` (at `at`) breaks OpenAI's strict-mode rules. */
function strictProblems(node: unknown, at: string): string[] {
  if (node === null || typeof node !== "object" || Array.isArray(node)) {
    return [`${at}: not a schema`];
  }
  const n = node as Node;
  const out: string[] = [];
  for (const key of Object.keys(n)) {
    if (!ALLOWED.has(key)) out.push(`${at}: keyword ${key}`);
  }
  if (
    n.type === undefined && n.$ref === undefined && n.anyOf === undefined &&
    n.enum === undefined && n.const === undefined
  ) out.push(`${at}: accepts anything`);
  const types = Array.isArray(n.type) ? n.type : [n.type];
  if (types.includes("object") || n.properties !== undefined) {
    if (n.additionalProperties !== false) {
      out.push(`${at}: additionalProperties is not false`);
    }
    const props = Object.keys((n.properties ?? {}) as Node);
    const required = (n.required ?? []) as string[];
    if (
      JSON.stringify([...props].sort()) !== JSON.stringify([...required].sort())
    ) out.push(`${at}: required ${required} is not every property ${props}`);
    for (const [name, sub] of Object.entries((n.properties ?? {}) as Node)) {
      out.push(...strictProblems(sub, `${at}.${name}`));
    }
  }
  if (n.items !== undefined) out.push(...strictProblems(n.items, `${at}[]`));
  if (Array.isArray(n.anyOf)) {
    n.anyOf.forEach((b, i) => out.push(...strictProblems(b, `${at}|${i}`)));
  }
  if (n.$defs !== undefined) {
    for (const [name, def] of Object.entries(n.$defs as Node)) {
      out.push(...strictProblems(def, `${at}.$defs.${name}`));
    }
  }
  return out;
}

/** Whether a property schema takes `null`. */
function takesNull(node: Node): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes("null")) {
    return !Array.isArray(node.enum) || node.enum.includes(null);
  }
  return Array.isArray(node.anyOf) &&
    node.anyOf.some((b) => (b as Node).type === "null");
}

/**
 * Checks a value against a strict schema (the subset strict mode uses), so
 * the calls below are ones a strict model could really send.
 */
function conforms(value: unknown, node: Node, root: Node, at = "$"): string[] {
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/$defs/", "");
    return conforms(value, (root.$defs as Node)[name] as Node, root, at);
  }
  if (Array.isArray(node.anyOf)) {
    return node.anyOf.some((b) => conforms(value, b as Node, root).length === 0)
      ? []
      : [`${at}: no branch of anyOf takes ${JSON.stringify(value)}`];
  }
  if (Array.isArray(node.enum) && !node.enum.includes(value)) {
    return [`${at}: ${JSON.stringify(value)} is not in the enum`];
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const kind = value === null
    ? "null"
    : Array.isArray(value)
    ? "array"
    : Number.isInteger(value)
    ? "integer"
    : typeof value;
  if (
    !types.includes(kind) && !(kind === "integer" && types.includes("number"))
  ) {
    return [`${at}: ${kind} where ${types} is wanted`];
  }
  if (kind === "array") {
    return (value as unknown[]).flatMap((v, i) =>
      conforms(v, node.items as Node, root, `${at}[${i}]`)
    );
  }
  if (kind === "object") {
    const v = value as Node;
    const props = node.properties as Node;
    const out: string[] = [];
    for (const key of Object.keys(v)) {
      if (!(key in props)) out.push(`${at}.${key}: not allowed`);
    }
    for (const key of node.required as string[]) {
      if (!(key in v)) out.push(`${at}.${key}: missing`);
      else {out.push(
          ...conforms(v[key], props[key] as Node, root, `${at}.${key}`),
        );}
    }
    return out;
  }
  return [];
}

describe("OpenAI strict mode", () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    fx = undefined;
  });

  for (const editFormat of ["hashline", "str_replace"] as const) {
    it(`${editFormat}: every tool is strict (root object, closed objects, every property required, optional ones nullable, no oneOf)`, async () => {
      fx = await makeFixture({});
      const registry = createToolRegistry({
        workspace: openWorkspace(fx.root, { persistSessions: false }),
        store: createMemoryStore(),
        editFormat,
      });
      const openai = openAiTools(registry);
      assert.equal(openai.chatTools.length, 10);
      for (const [i, tool] of openai.chatTools.entries()) {
        const { name, parameters, strict } = tool.function;
        assert.equal(strict, true, name);
        assert.equal(openai.responsesTools[i].strict, true, name);
        assert.deepEqual(openai.responsesTools[i].parameters, parameters, name);
        assert.equal(parameters.type, "object", name);
        assert.equal("anyOf" in parameters, false, name);
        assert.equal(JSON.stringify(parameters).includes('"oneOf"'), false);
        assert.deepEqual(strictProblems(parameters, name), [], name);
        // Optional fields (and only those) take null, at the root and in ops.
        const original = registry.get(name)!.inputSchema as Node;
        const pairs: [Node, Node][] = [[original, parameters]];
        for (
          const [def, node] of Object.entries((original.$defs ?? {}) as Node)
        ) {
          pairs.push([node as Node, (parameters.$defs as Node)[def] as Node]);
        }
        for (const [before, after] of pairs) {
          const required = (before.required ?? []) as string[];
          for (const [key, sub] of Object.entries(after.properties as Node)) {
            assert.equal(
              takesNull(sub as Node),
              !required.includes(key),
              `${name}.${key}`,
            );
          }
        }
      }
      // The registry's own schemas are untouched.
      assert.equal(
        (registry.get("read_file")!.inputSchema as Node).additionalProperties,
        undefined,
      );
    });
  }

  it("a hashline call with every key present and unused ones null runs, in all three shapes; the bytes land", async () => {
    fx = await makeFixture({ "a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n" });
    const openai = openAiTools(fx.registry);
    const schemaOf = (name: string) =>
      openai.chatTools.find((t) => t.function.name === name)!.function
        .parameters as Node;
    let n = 0;
    const call = async (name: string, args: Node) => {
      assert.deepEqual(conforms(args, schemaOf(name), schemaOf(name)), []);
      return await openai.runToolCall({
        id: `call_${++n}`,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      });
    };
    const nullOp = {
      start: null,
      end: null,
      anchor: null,
      lines: null,
      literal: null,
      after: null,
      before: null,
      to: null,
    };
    const nullEntry = { create: null, delete: null, rename: null };
    const read = await call("read_file", {
      path: "a.txt",
      offset: null,
      limit: null,
      outline: null,
      anchors: null,
    });
    assert.match(read.content, /\|two$/m);
    const viaOps = await call("edit_file", {
      path: "a.txt",
      ops: [{
        ...nullOp,
        op: "replace",
        start: anchorOf(read.content, "two"),
        lines: ["TWO"],
      }],
      files: null,
      patch: null,
      dryRun: null,
      rebase: null,
      check: null,
    });
    assert.match(viaOps.content, /^Edited a\.txt \(\+1 -1\)/m);
    assert.equal(await fx.read("a.txt"), "one\nTWO\nthree\n");

    const again = await call("read_file", {
      path: "a.txt",
      offset: null,
      limit: null,
      outline: null,
      anchors: null,
    });
    const b = await call("read_file", {
      path: "b.txt",
      offset: 1,
      limit: null,
      outline: null,
      anchors: null,
    });
    const viaFiles = await call("edit_file", {
      path: null,
      ops: null,
      files: [
        {
          ...nullEntry,
          path: "a.txt",
          ops: [{
            ...nullOp,
            op: "delete",
            start: anchorOf(again.content, "three"),
          }],
        },
        {
          ...nullEntry,
          path: "b.txt",
          ops: [{ ...nullOp, op: "append", lines: ["cee"] }],
        },
      ],
      patch: null,
      dryRun: null,
      rebase: null,
      check: null,
    });
    assert.match(viaFiles.content, /^Edited a\.txt/m);
    assert.equal(await fx.read("a.txt"), "one\nTWO\n");
    assert.equal(await fx.read("b.txt"), "bee\ncee\n");
    assert.match(b.content, /\|bee$/m);

    const last = await call("read_file", {
      path: "a.txt",
      offset: null,
      limit: null,
      outline: null,
      anchors: null,
    });
    const viaPatch = await call("edit_file", {
      path: null,
      ops: null,
      files: null,
      patch: `@@ a.txt\n< ${anchorOf(last.content, "one")}\n~zero`,
      dryRun: null,
      rebase: null,
      check: null,
    });
    assert.match(viaPatch.content, /^Edited a\.txt \(\+1 -0\)/m);
    assert.equal(await fx.read("a.txt"), "zero\none\nTWO\n");

    const written = await call("write_file", {
      path: "new.txt",
      content: "hi\n",
      check: null,
    });
    assert.match(written.content, /new\.txt/);
    assert.equal(await fx.read("new.txt"), "hi\n");
  });

  it("a strict call that leaves a needed field null is BAD_INPUT naming it; nothing is written", async () => {
    fx = await makeFixture({ "a.txt": "one\n" });
    const openai = openAiTools(fx.registry);
    const read = await openai.callTool({
      type: "function_call",
      call_id: "r",
      name: "read_file",
      arguments: JSON.stringify({ path: "a.txt", offset: null, limit: null }),
    });
    assert.ok(read.ok);
    const refused = await openai.callTool({
      type: "function_call",
      call_id: "e",
      name: "edit_file",
      arguments: JSON.stringify({
        path: "a.txt",
        ops: [{
          op: "replace",
          start: anchorOf(read.text, "one"),
          end: null,
          anchor: null,
          lines: null,
          literal: null,
        }],
        files: null,
        patch: null,
        dryRun: null,
        rebase: null,
      }),
    });
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.error.code, "BAD_INPUT");
    assert.match(!refused.ok ? refused.error.message : "", /ops\[0\]\.lines/);
    assert.equal(await fx.read("a.txt"), "one\n");
  });

  it("str_replace: a strict call with replace_all null runs; the store tools take nulls too", async () => {
    fx = await makeFixture({ "n.md": "alpha\nbeta\n" }, "str_replace");
    const openai = openAiTools(fx.registry);
    const edit = openai.chatTools.find((t) => t.function.name === "edit_file")!;
    const args = {
      path: "n.md",
      old_string: "beta",
      new_string: "gamma",
      replace_all: null,
      check: null,
    };
    const p = edit.function.parameters as Node;
    assert.deepEqual(conforms(args, p, p), []);
    const out = await openai.runToolCall({
      id: "s1",
      type: "function",
      function: { name: "edit_file", arguments: JSON.stringify(args) },
    });
    assert.doesNotMatch(out.content, /^Error/);
    assert.equal(await fx.read("n.md"), "alpha\ngamma\n");

    const store = openAiTools(
      createToolRegistry({ store: createMemoryStore() }),
    );
    const put = await store.callTool({
      type: "function_call",
      call_id: "p",
      name: "source_put",
      arguments: '{"source":"a\\nb\\n"}',
    });
    assert.ok(put.ok);
    const readArgs = {
      ref: put.data.handle,
      anchors: true,
      query: null,
      offset: null,
      limit: null,
    };
    const rp = store.chatTools.find((t) => t.function.name === "source_read")!
      .function.parameters as Node;
    assert.deepEqual(conforms(readArgs, rp, rp), []);
    const view = await store.callTool({
      type: "function_call",
      call_id: "r",
      name: "source_read",
      arguments: JSON.stringify(readArgs),
    });
    assert.ok(view.ok);
    assert.match(view.text, /^1:[0-9a-f]{2}\|a$/m);
  });

  it("strict must be a boolean", () => {
    const registry = createToolRegistry({ store: createMemoryStore() });
    assert.throws(
      () => openAiTools(registry, { strict: "yes" as unknown as boolean }),
      /strict must be true or false/,
    );
  });
});
