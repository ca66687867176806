import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import {
  type RunningHashlineServer,
  startServer,
} from "../../src/http/server.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";

const LIMIT = 200;

/** A body sent in pieces with no declared length (chunked over HTTP/1.1). */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 50) {
        controller.enqueue(bytes.slice(i, i + 50));
      }
      controller.close();
    },
  });
}

/** Writes `head` and the start of a body on a raw connection, never the rest; resolves with what the server answers. */
function stalledRequest(
  port: number,
  head: string,
  part: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(head + part);
    });
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      if (/\r\n\r\n[\s\S]*\}/.test(answer)) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

// The size and time guards judge a declared length from the headers alone;
// these cases send real requests so the server's own body handling is what
// they meet.
describe("body guards over the network", () => {
  let server: RunningHashlineServer;
  before(async () => {
    server = await startServer({
      port: 0,
      store: createMemoryStore(),
      maxBodyBytes: LIMIT,
      bodyTimeoutMs: 100,
    });
  });
  after(async () => {
    await server?.close();
  });
  const post = (body: BodyInit): Promise<Response> =>
    fetch(`${server.url}/v1/format`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      // @ts-ignore: needed by Node's fetch for a stream body
      duplex: "half",
    });
  const format = (content: string): string => JSON.stringify({ content });

  it("answers a body at the limit", async () => {
    const body = format("x".repeat(LIMIT - format("").length));
    assert.equal(body.length, LIMIT);
    const res = await post(body);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).totalLines, 1);
  });

  it("refuses a declared body one byte over the limit with 413 TOO_LARGE", async () => {
    const res = await post(format("x".repeat(LIMIT + 1 - format("").length)));
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "TOO_LARGE");
  });

  it("refuses a streamed body over the limit with 413 TOO_LARGE", async () => {
    const res = await post(
      streamOf(new TextEncoder().encode(format("y".repeat(LIMIT)))),
    );
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "TOO_LARGE");
  });

  it("answers a streamed body under the limit", async () => {
    const res = await post(streamOf(new TextEncoder().encode(format("a\nb"))));
    assert.equal(res.status, 200);
    assert.equal(
      (await res.json()).text,
      `1:${lineHash("a")}|a\n2:${lineHash("b")}|b`,
    );
  });

  it("refuses a body with an invalid byte with 400 BAD_INPUT, declared or streamed", async () => {
    const bad = new Uint8Array([
      ...new TextEncoder().encode('{"content":"ok '),
      0xc3,
      0x28,
      ...new TextEncoder().encode('"}'),
    ]);
    for (const body of [bad, streamOf(bad)]) {
      const res = await post(body);
      assert.equal(res.status, 400);
      const json = await res.json();
      assert.equal(json.error.code, "BAD_INPUT");
      assert.match(json.error.message, /offset 15/);
    }
  });

  it("cuts off a declared body that stops arriving with 408 REQUEST_TIMEOUT", async () => {
    const answer = await stalledRequest(
      server.port,
      "POST /v1/format HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n",
      '{"content":',
    );
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.match(answer, /REQUEST_TIMEOUT/);
  });
});
