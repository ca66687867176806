/**
 * The MCP endpoint used on its own (without the app's guards) counts a
 * body while it streams: a chunked body past `maxBodyBytes` is refused
 * without being read to its end.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMcpHttpHandler } from "../../src/mcp/http.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";

describe("MCP over HTTP body limit", () => {
  it("refuses a chunked body past the limit while it streams", {
    timeout: 30_000,
  }, async () => {
    const mcp = createMcpHttpHandler(
      createToolRegistry({ store: createMemoryStore() }),
      { maxBodyBytes: 1024 },
    );
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        // Never ends on its own: only a reader that stops can finish.
        controller.enqueue(new Uint8Array(512).fill(0x20));
      },
    });
    const res = await mcp.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body,
        // @ts-ignore: Node's Request needs it for a stream body; others ignore it.
        duplex: "half",
      }),
    );
    assert.equal(res.status, 413);
    assert.match((await res.json()).error.message, /over the limit of 1024/);
    assert.ok(pulled < 10, `${pulled} chunks pulled`);
    await mcp.close();
  });
});
