// Lean reads through the doors a user comes in by: the CLI, HTTP and MCP.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { mcpClient } from "../_doors.ts";
import { hashline, tempDir } from "../cli/_cli.ts";
import { call, errorOf, tempTree } from "../http/_helpers.ts";

const T = 60_000;
const FILE = "const a = 1;\nconst b = 2;\nconst c = 3;\n";
const B9 = FILE.replace("b = 2", "b = 9");

describe("lean reads: the CLI", () => {
  it(
    "read --lean, then edits by number: applied, stale, not read; L:HH still applies",
    {
      timeout: T,
    },
    async () => {
      const t = await tempDir({ "a.ts": FILE });
      try {
        const run = (args: string[], input?: string) =>
          hashline(args, { cwd: t.dir, input });
        const none = await run(["patch", "-"], "@@ a.ts\n- 2\n");
        assert.equal(none.code, 1);
        assert.match(none.stdout + none.stderr, /NOT_READ|read it first/);
        const read = await run(["read", "a.ts", "--lean"]);
        assert.equal(read.code, 0);
        assert.equal(
          read.stdout.trim(),
          "@@ a.ts\n1|const a = 1;\n2|const b = 2;\n3|const c = 3;",
        );
        const ok = await run(["patch", "-"], "@@ a.ts\n= 2\n~const b = 20;\n");
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stdout, /\n2\|const b = 20;/);
        await writeFile(join(t.dir, "a.ts"), B9);
        const stale = await run(["patch", "-", "--json"], "@@ a.ts\n- 2\n");
        assert.equal(stale.code, 1);
        const body = JSON.parse(stale.stdout);
        assert.equal(body.error.code, "STALE_ANCHOR");
        assert.match(body.error.message, /\n2\|const b = 9;/);
        assert.equal(await readFile(join(t.dir, "a.ts"), "utf8"), B9);
        const full = await run(
          ["patch", "-"],
          `@@ a.ts\n= 1:${lineHash("const a = 1;")}\n~const a = 10;\n`,
        );
        assert.equal(full.code, 0, full.stderr);
        assert.match(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          /^const a = 10;/,
        );
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe("lean reads: HTTP", () => {
  it(
    "POST /v1/files/read with anchors lean, then /v1/files/patch by number; /v1/apply refuses bare numbers",
    {
      timeout: T,
    },
    async () => {
      const tree = await tempTree({ "a.ts": FILE });
      try {
        const app = createApp({
          root: tree.dir,
          stateDir: join(tree.dir, ".hashline"),
        });
        const as = { "hashline-session": "lean-http" };
        const patch = (text: string) =>
          call(app, "POST", "/v1/files/patch", { patch: text }, as);
        const unread = await patch("@@ a.ts\n- 2");
        assert.equal(errorOf(unread).code, "NOT_READ");
        const read = await call(app, "POST", "/v1/files/read", {
          path: "a.ts",
          anchors: "lean",
        }, as);
        assert.equal(read.status, 200);
        assert.equal(
          read.body.text,
          "1|const a = 1;\n2|const b = 2;\n3|const c = 3;",
        );
        const ok = await patch("@@ a.ts\n= 2\n~const b = 20;");
        assert.equal(ok.status, 200, JSON.stringify(ok.body));
        await writeFile(join(tree.dir, "a.ts"), B9);
        const stale = await patch("@@ a.ts\n- 2");
        const err = errorOf(stale);
        assert.equal(err.code, "STALE_ANCHOR");
        assert.match(err.message, /\n2\|const b = 9;/);
        assert.equal(await readFile(join(tree.dir, "a.ts"), "utf8"), B9);
        const full = await patch(
          `@@ a.ts\n= 1:${lineHash("const a = 1;")}\n~const a = 10;`,
        );
        assert.equal(full.status, 200);
        const stateless = await call(app, "POST", "/v1/apply", {
          content: FILE,
          patch: "= 2\n~const b = 20;",
        });
        const bad = errorOf(stateless);
        assert.equal(bad.code, "BAD_ANCHOR");
        assert.match(bad.message, /LINE:HH/);
      } finally {
        await tree.cleanup();
      }
    },
  );
});

describe("lean reads: MCP", () => {
  it(
    "read_file with anchors lean, then edit_file by number; source_patch refuses bare numbers",
    {
      timeout: T,
    },
    async () => {
      const tree = await tempTree({ "a.ts": FILE });
      const mcp = await mcpClient({
        root: tree.dir,
        state: join(tree.dir, ".hashline"),
      });
      try {
        const unread = await mcp.tool("edit_file", { patch: "@@ a.ts\n- 2" });
        assert.ok(unread.isError);
        assert.match(unread.text, /NOT_READ|read it first/);
        const read = await mcp.tool("read_file", {
          path: "a.ts",
          anchors: "lean",
        });
        assert.match(
          read.text,
          /^1\|const a = 1;\n2\|const b = 2;\n3\|const c = 3;/,
        );
        const ok = await mcp.tool("edit_file", {
          patch: "@@ a.ts\n= 2\n~const b = 20;",
        });
        assert.ok(!ok.isError, ok.text);
        await writeFile(join(tree.dir, "a.ts"), B9);
        const stale = await mcp.tool("edit_file", { patch: "@@ a.ts\n- 2" });
        assert.ok(stale.isError);
        assert.match(stale.text, /STALE_ANCHOR|stale/);
        assert.match(stale.text, /\n2\|const b = 9;/);
        assert.equal(await readFile(join(tree.dir, "a.ts"), "utf8"), B9);
        const full = await mcp.tool("edit_file", {
          patch: `@@ a.ts\n= 1:${lineHash("const a = 1;")}\n~const a = 10;`,
        });
        assert.ok(!full.isError, full.text);
        const put = await mcp.tool("source_put", { source: FILE });
        const handle = /p_[0-9a-f]{12}/.exec(put.text)?.[0];
        assert.ok(handle, put.text);
        const stateless = await mcp.tool("source_patch", {
          ref: handle,
          patch: "= 2\n~const b = 20;",
        });
        assert.ok(stateless.isError);
        assert.match(stateless.text, /BAD_ANCHOR|LINE:HH/);
      } finally {
        await mcp.close();
        await tree.cleanup();
      }
    },
  );

  it("the registry's default form, and a TypeError with str_replace", {
    timeout: T,
  }, async () => {
    assert.throws(
      () => createToolRegistry({ editFormat: "str_replace", anchors: "lean" }),
      TypeError,
    );
    const tree = await tempTree({ "a.ts": FILE });
    try {
      const { openWorkspace } = await import("../../src/workspace/mod.ts");
      const registry = createToolRegistry({
        workspace: openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
        }),
        anchors: "lean",
      });
      const read = await registry.call("read_file", { path: "a.ts" });
      assert.ok(read.ok);
      assert.match(read.text, /^1\|const a = 1;/);
      const hashed = await registry.call("read_file", {
        path: "a.ts",
        anchors: "hash",
      });
      assert.ok(hashed.ok);
      assert.match(hashed.text, /^1:[0-9a-f]{2}\|const a = 1;/);
    } finally {
      await tree.cleanup();
    }
  });
});
