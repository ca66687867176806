import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { bodySizeLimit } from "../../../src/http/middleware/body_limit.ts";

function stream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, 3));
      controller.enqueue(bytes.subarray(3));
      controller.close();
    },
  });
}

describe("bodySizeLimit", () => {
  const app = new Hono().use(bodySizeLimit(8)).post(
    "/",
    async (c) => c.text(await c.req.text()),
  );

  it("refuses a declared or streamed body over the limit with 413 TOO_LARGE", async () => {
    const declared = await app.request("/", {
      method: "POST",
      body: "123456789",
      headers: { "content-length": "9" },
    });
    assert.equal(declared.status, 413);
    assert.equal((await declared.json()).error.code, "TOO_LARGE");
    const streamed = await app.fetch(
      new Request("http://localhost/", {
        method: "POST",
        body: stream(new TextEncoder().encode("123456789")),
        // @ts-ignore: needed by Node's fetch for a stream body
        duplex: "half",
      }),
    );
    assert.equal(streamed.status, 413);
    assert.match((await streamed.json()).error.message, /8 bytes/);
  });

  it("passes a body at the limit through whole", async () => {
    const res = await app.fetch(
      new Request("http://localhost/", {
        method: "POST",
        body: stream(new TextEncoder().encode("12345678")),
        // @ts-ignore: needed by Node's fetch for a stream body
        duplex: "half",
      }),
    );
    assert.equal(await res.text(), "12345678");
  });

  it("refuses a limit that is not a whole number ≥ 1", () => {
    for (const bad of [0, -1, 1.5, NaN]) {
      assert.throws(() => bodySizeLimit(bad), TypeError);
    }
  });
});
