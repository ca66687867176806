import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { createMcpHttpHandler } from "../../src/mcp/mod.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { createToolRegistry, type Workspace } from "../../src/tools/mod.ts";
import { openWorkspace, type ReadOptions } from "../../src/workspace/mod.ts";
import { bytes, tempTree } from "../http/_helpers.ts";
import { connectHttp } from "./_client.ts";

/**
 * The real workspace, noting which sessions read and which were freed: the
 * count of sessions whose records are still held is `live()`.
 */
function countingWorkspace(real: Workspace): {
  workspace: Workspace;
  live(): number;
  freed: Set<string>;
} {
  const reading = new Set<string>();
  const freed = new Set<string>();
  const workspace: Workspace = Object.create(real, {
    read: {
      value: (path: string, window?: ReadOptions) => {
        if (window?.session) reading.add(window.session);
        return real.read(path, window);
      },
    },
    forgetSession: {
      value: async (session: string) => {
        await real.forgetSession(session);
        if (reading.delete(session)) freed.add(session);
      },
    },
  });
  return { workspace, live: () => reading.size, freed };
}

function handlerApp(
  handler: { fetch(r: Request): Promise<Response> },
): HashlineApp {
  return {
    fetch: (r: Request) => handler.fetch(r),
    request: (input, init) =>
      handler.fetch(
        new Request(new URL(String(input), "http://localhost"), init),
      ),
  };
}

describe("MCP tools over streamable HTTP, through the SDK client", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  before(async () => {
    tree = await tempTree({ "a.txt": "one\ntwo\n" });
    app = createApp({
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
      store: createMemoryStore(),
    });
  });
  after(() => tree.cleanup());

  it("lists titles, annotations and output schemas, and answers structuredContent the client validates", async () => {
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      const { tools } = await mcp.client.listTools();
      const read = tools.find((t) => t.name === "read_file")!;
      assert.equal(read.title, "Read file");
      assert.equal(read.annotations?.readOnlyHint, true);
      assert.equal(read.outputSchema?.type, "object");
      const edit = tools.find((t) => t.name === "edit_file")!;
      assert.equal(edit.annotations?.destructiveHint, true);
      assert.equal(edit.annotations?.idempotentHint, false);

      // The SDK client checks structuredContent against outputSchema and throws on a mismatch.
      const view = await mcp.client.callTool({
        name: "read_file",
        arguments: { path: "a.txt" },
      });
      assert.deepEqual(view.structuredContent, {
        path: "a.txt",
        text: `1:${lineHash("one")}|one\n2:${lineHash("two")}|two`,
        totalLines: 2,
        startLine: 1,
        endLine: 2,
        nextOffset: null,
      });
      const patched = await mcp.client.callTool({
        name: "edit_file",
        arguments: { patch: `@@ a.txt\n= 2:${lineHash("two")}\n~TWO` },
      });
      const data = patched.structuredContent as {
        files: { added: number }[];
        rebased: string[];
      };
      assert.equal(data.files[0].added, 1);
      assert.deepEqual(data.rebased, []);
      const wrote = await mcp.client.callTool({
        name: "write_file",
        arguments: { path: "new.txt", content: "x\n" },
      });
      assert.equal(
        (wrote.structuredContent as { created: boolean }).created,
        true,
      );
      const put = await mcp.client.callTool({
        name: "source_put",
        arguments: { source: "s\n" },
      });
      const { handle } = put.structuredContent as { handle: string };
      const chars = await mcp.client.callTool({
        name: "source_read",
        arguments: { ref: handle },
      });
      assert.equal((chars.structuredContent as { code: string }).code, "s\n");
      const exported = await mcp.client.callTool({
        name: "source_export",
        arguments: { ref: handle, path: "exported.txt" },
      });
      assert.equal((exported.structuredContent as { bytes: number }).bytes, 2);
      assert.equal(
        await readFile(join(tree.dir, "exported.txt"), "utf8"),
        "s\n",
      );
    } finally {
      await mcp.close();
    }
  });

  it("a Hashline-Session header lets a one-shot client read in one MCP session and edit in the next", async () => {
    const headers = { "hashline-session": "agent-7" };
    const reader = await connectHttp("http://localhost/mcp", { app, headers });
    const read = await reader.tool("read_file", { path: "a.txt" });
    assert.equal(read.isError, false);
    await reader.close();

    const stranger = await connectHttp("http://localhost/mcp", { app });
    const before = await bytes(join(tree.dir, "a.txt"));
    const refused = await stranger.tool("edit_file", {
      patch: `@@ a.txt\n= 1:${lineHash("one")}\n~ONE`,
    });
    await stranger.close();
    assert.equal(refused.isError, true);
    assert.match(refused.text, /not read/);
    assert.deepEqual(await bytes(join(tree.dir, "a.txt")), before);

    const editor = await connectHttp("http://localhost/mcp", { app, headers });
    const edited = await editor.tool("edit_file", {
      patch: `@@ a.txt\n= 1:${lineHash("one")}\n~ONE`,
    });
    await editor.close();
    assert.equal(edited.isError, false, edited.text);
    assert.match(await readFile(join(tree.dir, "a.txt"), "utf8"), /^ONE\n/);
  });

  it("a malformed Hashline-Session header is refused before any tool runs", async () => {
    const res = await app.request("/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "hashline-session": "../../etc",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /Hashline-Session/);
  });
});

describe("MCP sessions free their read records", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    tree = await tempTree({ "a.txt": "one\n" });
  });
  after(() => tree.cleanup());

  const real = () => openWorkspace(tree.dir, { persistSessions: false });

  it("when a client ends its session: 40 sessions opened and closed leave no records", async () => {
    const counted = countingWorkspace(real());
    const app = createApp({
      workspace: counted.workspace,
      store: createMemoryStore(),
    });
    for (let i = 0; i < 40; i++) {
      const mcp = await connectHttp("http://localhost/mcp", { app });
      const read = await mcp.tool("read_file", { path: "a.txt" });
      assert.equal(read.isError, false);
      await mcp.close();
    }
    assert.equal(counted.freed.size, 40);
    assert.equal(counted.live(), 0);
  });

  it("when evicted past maxSessions, and when idle past the TTL", async () => {
    const counted = countingWorkspace(real());
    let clock = 0;
    const handler = createMcpHttpHandler(
      createToolRegistry({ workspace: counted.workspace }),
      { maxSessions: 3, sessionTtlMs: 1000, now: () => clock },
    );
    const app = handlerApp(handler);
    const clients = [];
    for (let i = 0; i < 5; i++) {
      const mcp = await connectHttp("http://localhost/mcp", { app });
      assert.equal(
        (await mcp.tool("read_file", { path: "a.txt" })).isError,
        false,
      );
      clients.push(mcp);
    }
    // Five sessions read; the two oldest were evicted to keep three.
    assert.equal(handler.sessions, 3);
    assert.equal(counted.live(), 3);
    // Freed under their labels: a transport id never reaches the workspace.
    assert.equal(counted.freed.size, 2);
    for (const name of counted.freed) {
      assert.match(name, /^mcp-[0-9a-f]{8}$/);
    }
    for (const c of clients) assert.ok(!counted.freed.has(c.sessionId!));

    clock += 1001;
    const late = await connectHttp("http://localhost/mcp", { app });
    // The idle three expired when the next request came in.
    assert.equal(handler.sessions, 1);
    assert.equal(counted.live(), 0);
    await assert.rejects(
      clients[4].tool("read_file", { path: "a.txt" }),
      /Session not found|404/,
    );
    await late.close();
    await handler.close();
  });
});

describe("a model-like client patches a revision through anchored views", () => {
  it("puts, reads anchored, patches with anchors parsed from the view, reads the new revision", async () => {
    const app = createApp({ store: createMemoryStore() });
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      const source = "def add(a, b):\n    return a - b\n\nprint(add(1, 2))\n";
      const put = await mcp.tool("source_put", { source });
      const handle = /Stored as (p_[0-9a-f]+)/.exec(put.text)![1];

      const view = await mcp.tool("source_read", {
        ref: handle,
        anchors: true,
      });
      assert.equal(view.isError, false, view.text);
      // Only the view's text is used, as a model would: find the line, take its anchor.
      const line = view.text.split("\n").find((l) =>
        l.endsWith("return a - b")
      )!;
      const anchor = line.split("|")[0];
      assert.match(anchor, /^2:[0-9a-f]{2}$/);

      const patched = await mcp.tool("source_patch", {
        ref: handle,
        ops: [{ op: "replace", start: anchor, lines: ["    return a + b"] }],
      });
      assert.equal(patched.isError, false, patched.text);
      const next = /New revision (p_[0-9a-f]+)/.exec(patched.text)![1];
      assert.notEqual(next, handle);

      const after = await mcp.tool("source_read", {
        ref: next,
        anchors: true,
        offset: 2,
        limit: 1,
      });
      assert.equal(
        after.text,
        `2:${
          lineHash("    return a + b")
        }|    return a + b\n\n(Lines 2–2 of 4. Call source_read with offset 3 for more.)`,
      );
      const old = await mcp.tool("source_read", { ref: handle });
      assert.equal(old.text, source);
    } finally {
      await mcp.close();
    }
  });
});
