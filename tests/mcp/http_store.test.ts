import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { call } from "../http/_helpers.ts";
import { connectHttp } from "./_client.ts";

describe("MCP over streamable HTTP (in-process app)", () => {
  it("lists the tools with JSON Schemas and runs the source tools", async () => {
    const store = createMemoryStore();
    const app = createApp({ store, root: "/nonexistent/root" });
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      assert.ok(mcp.sessionId);
      const { tools } = await mcp.client.listTools();
      const names = tools.map((t) => t.name);
      for (
        const n of [
          "read_file",
          "edit_file",
          "write_file",
          "source_put",
          "source_read",
          "source_edit",
          "source_patch",
          "source_export",
        ]
      ) assert.ok(names.includes(n), n);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, "object");
        assert.ok((t.description ?? "").length > 40, t.name);
      }
      const instructions = mcp.client.getInstructions() ?? "";
      assert.match(instructions, /LINE:HH/);

      const put = await mcp.tool("source_put", { source: "a\nb\n" });
      assert.equal(put.isError, false);
      const handle = /p_[0-9a-f]{12}/.exec(put.text)?.[0];
      assert.ok(handle, put.text);
      const edited = await mcp.tool("source_edit", {
        ref: handle,
        edits: [{ old_string: "b", new_string: "B" }],
      });
      assert.equal(edited.isError, false);
      assert.match(edited.text, /^\+B$/m);
      const miss = await mcp.tool("source_edit", {
        ref: handle,
        edits: [{ old_string: "zzz", new_string: "y" }],
      });
      assert.equal(miss.isError, true);
      const bad = await mcp.tool("source_read", { ref: handle, limit: "ten" });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /"limit"/);
      // An unknown tool is a protocol error (JSON-RPC -32602), not a tool result.
      await assert.rejects(
        mcp.tool("no_such_tool", {}),
        (e: Error & { code?: number }) => {
          assert.equal(e.code, -32602);
          assert.match(e.message, /No tool named "no_such_tool".*source_put/);
          return true;
        },
      );
    } finally {
      await mcp.close();
    }
  });

  it("refuses requests without a session and unknown sessions", async () => {
    const app = createApp({ store: createMemoryStore() });
    const headers = { accept: "application/json, text/event-stream" };
    const noSession = await call(app, "POST", "/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
    }, headers);
    assert.equal(noSession.status, 400);
    const unknown = await call(app, "POST", "/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
    }, { ...headers, "mcp-session-id": "not-a-session" });
    assert.equal(unknown.status, 404);
    const get = await app.request("/mcp");
    assert.equal(get.status, 405);
    await get.body?.cancel();
  });

  it("a token protects /mcp and the client can send it", async () => {
    const app = createApp({ store: createMemoryStore(), token: "tok-123" });
    await assert.rejects(connectHttp("http://localhost/mcp", { app }));
    const mcp = await connectHttp("http://localhost/mcp", {
      app,
      headers: { authorization: "Bearer tok-123" },
    });
    const { tools } = await mcp.client.listTools();
    assert.ok(tools.length > 0);
    await mcp.close();
  });
});
