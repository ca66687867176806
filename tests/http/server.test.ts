import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLoopback, startServer } from "../../src/http/server.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { connectHttp } from "../mcp/_client.ts";

const JSON_TYPE = { "content-type": "application/json" };

describe("startServer", () => {
  it("serves the app on 127.0.0.1 with a free port", async () => {
    const server = await startServer({ port: 0, store: createMemoryStore() });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(server.port > 0);
      const health = await fetch(`${server.url}/health`);
      assert.equal(health.status, 200);
      assert.equal((await health.json()).ok, true);
      const res = await fetch(`${server.url}/v1/format`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: "x\ny" }),
      });
      assert.equal((await res.json()).text, "1:26|x\n2:4a|y");
      const put = await fetch(`${server.url}/v1/revisions`, {
        method: "POST",
        headers: JSON_TYPE,
        body: JSON.stringify({ source: "hello\n" }),
      });
      assert.equal(put.status, 201);
      const { ref } = await put.json();
      const got = await fetch(`${server.url}/v1/revisions/${ref}`);
      assert.equal(await got.text(), "hello\n");
      const cached = await fetch(`${server.url}/v1/revisions/${ref}`, {
        headers: { "if-none-match": `"${ref}"` },
      });
      assert.equal(cached.status, 304);
      await cached.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it("without a token refuses browser requests from other origins", async () => {
    const server = await startServer({ port: 0 });
    try {
      const res = await fetch(`${server.url}/v1/format`, {
        method: "POST",
        headers: { ...JSON_TYPE, origin: "https://evil.example" },
        body: JSON.stringify({ content: "x" }),
      });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).ok, false);
      const local = await fetch(`${server.url}/v1/format`, {
        method: "POST",
        headers: { ...JSON_TYPE, origin: `http://localhost:${server.port}` },
        body: JSON.stringify({ content: "x" }),
      });
      assert.equal(local.status, 200);
      await local.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it("refuses a non-loopback host without a token, naming --token", async () => {
    await assert.rejects(
      startServer({ host: "0.0.0.0", port: 0 }),
      (e: Error) => {
        assert.ok(e instanceof TypeError);
        assert.match(e.message, /--token/);
        return true;
      },
    );
    await assert.rejects(startServer({ port: 70000 }), TypeError);
  });

  it("with a token requires it on every route but /health", async () => {
    const server = await startServer({
      port: 0,
      token: "t0ken",
      store: createMemoryStore(),
    });
    try {
      const open = await fetch(`${server.url}/health`);
      assert.equal(open.status, 200);
      await open.body?.cancel();
      const denied = await fetch(`${server.url}/v1/format`, {
        method: "POST",
        body: JSON.stringify({ content: "x" }),
      });
      assert.equal(denied.status, 401);
      await denied.body?.cancel();
      const allowed = await fetch(`${server.url}/v1/format`, {
        method: "POST",
        headers: { ...JSON_TYPE, authorization: "Bearer t0ken" },
        body: JSON.stringify({ content: "x" }),
      });
      assert.equal(allowed.status, 200);
      await allowed.body?.cancel();
    } finally {
      await server.close();
    }
  });

  it("serves MCP over the network to the SDK client", async () => {
    const server = await startServer({ port: 0, store: createMemoryStore() });
    const mcp = await connectHttp(`${server.url}/mcp`);
    try {
      const put = await mcp.tool("source_put", { source: "one\n" });
      assert.equal(put.isError, false);
      assert.match(put.text, /sha256:[0-9a-f]{64}/);
    } finally {
      await mcp.close();
      await server.close();
    }
  });

  it("knows loopback addresses", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) {
      assert.equal(isLoopback(h), true, h);
    }
    for (const h of ["0.0.0.0", "10.0.0.1", "example.com", "::"]) {
      assert.equal(isLoopback(h), false, h);
    }
  });
});
