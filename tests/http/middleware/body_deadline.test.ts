import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { bodyDeadline } from "../../../src/http/middleware/body_deadline.ts";

describe("bodyDeadline", () => {
  const app = new Hono()
    .use(bodyDeadline(50))
    .post("/", async (c) => c.text(await c.req.text()));
  app.onError((e) =>
    e instanceof HTTPException
      ? e.getResponse()
      : new Response("x", { status: 500 })
  );

  it("cuts off a body that never finishes with 408 REQUEST_TIMEOUT", async () => {
    // A body whose first chunk comes and whose end never does.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("{"));
      },
    });
    const res = await app.fetch(
      new Request("http://localhost/", {
        method: "POST",
        body,
        // @ts-ignore: needed by Node's fetch for a stream body
        duplex: "half",
      }),
    );
    assert.equal(res.status, 408);
    const json = await res.json();
    assert.equal(json.error.code, "REQUEST_TIMEOUT");
    assert.match(json.error.message, /50 ms/);
  });

  it("passes a body that arrives in time through unchanged", async () => {
    const res = await app.request("/", { method: "POST", body: "hello" });
    assert.equal(await res.text(), "hello");
  });

  it("refuses a deadline that is not a whole number ≥ 1", () => {
    assert.throws(() => bodyDeadline(0), TypeError);
  });
});

describe("bodyDeadline in the app, for a body of declared length", () => {
  it("answers 408 when the declared bytes do not all arrive in time", async () => {
    const { createApp } = await import("../../../src/http/app.ts");
    const app = createApp({ bodyTimeoutMs: 50 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"content":'));
      },
    });
    const res = await app.fetch(
      new Request("http://127.0.0.1/v1/format", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": "40" },
        body,
        // @ts-ignore: needed by Node's fetch for a stream body
        duplex: "half",
      }),
    );
    assert.equal(res.status, 408);
    assert.equal((await res.json()).error.code, "REQUEST_TIMEOUT");
  });
});
