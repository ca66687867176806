import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { call, errorOf } from "./_helpers.ts";

describe("stateless routes (no workspace or store needed)", () => {
  const app = createApp({
    root: "/nonexistent/never/touched",
    stateDir: "/nonexistent/state",
  });

  it("GET /health answers ok", async () => {
    const res = await call(app, "GET", "/health");
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
  });

  it("POST /v1/format returns the anchored view and window fields", async () => {
    const res = await call(app, "POST", "/v1/format", {
      content: "x\ny\nz\n",
      offset: 2,
      limit: 1,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ok: true,
      text: "2:4a|y",
      totalLines: 3,
      startLine: 2,
      endLine: 2,
      nextOffset: 3,
    });
  });

  it("POST /v1/format on empty content is an empty view", async () => {
    const res = await call(app, "POST", "/v1/format", { content: "" });
    assert.deepEqual(res.body, {
      ok: true,
      text: "",
      totalLines: 0,
      startLine: 1,
      endLine: 0,
      nextOffset: null,
    });
  });

  it("POST /v1/format with an offset past the end is 400 naming the line count", async () => {
    const res = await call(app, "POST", "/v1/format", {
      content: "a\n",
      offset: 5,
    });
    assert.equal(res.status, 400);
    const err = errorOf(res);
    assert.equal(err.code, "BAD_INPUT");
    assert.match(err.message, /1 line/);
  });

  it("POST /v1/apply takes ops or the text form", async () => {
    const byOps = await call(app, "POST", "/v1/apply", {
      content: "x\ny\n",
      ops: [{ op: "replace", start: "2:4a", lines: ["Y"] }],
    });
    assert.equal(byOps.status, 200);
    assert.deepEqual(byOps.body, { ok: true, content: "x\nY\n" });
    const byText = await call(app, "POST", "/v1/apply", {
      content: "x\ny\n",
      patch: "+ 1:26\n~between",
    });
    assert.deepEqual(byText.body, { ok: true, content: "x\nbetween\ny\n" });
  });

  it("POST /v1/apply with a stale anchor is 409 with problems", async () => {
    const res = await call(app, "POST", "/v1/apply", {
      content: "x\ny\n",
      ops: [{ op: "replace", start: "2:00", lines: ["Y"] }],
    });
    assert.equal(res.status, 409);
    const err = errorOf(res);
    assert.equal(err.code, "STALE_ANCHOR");
    assert.match(err.message, /^Rejected — nothing written\./);
    assert.ok(Array.isArray(err.problems) && err.problems.length === 1);
  });

  it("a text patch that cannot be parsed is 400 naming the line", async () => {
    const res = await call(app, "POST", "/v1/apply", {
      content: "x\n",
      patch: "- 1:26\n~oops",
    });
    assert.equal(res.status, 400);
    assert.match(errorOf(res).message, /line 2/);
  });

  const badInputs: [string, string, unknown, RegExp][] = [
    ["format without content", "/v1/format", {}, /"content"/],
    [
      "format with a string offset",
      "/v1/format",
      { content: "a", offset: "2" },
      /"offset"/,
    ],
    ["apply with a wrong op field", "/v1/apply", {
      content: "a",
      ops: [{ op: "replace", start: 1, lines: [] }],
    }, /"ops\[0\]\.start"/],
    ["apply with both ops and patch", "/v1/apply", {
      content: "a",
      ops: [],
      patch: "",
    }, /exactly one/],
    ["apply with neither", "/v1/apply", { content: "a" }, /"ops".*"patch"/],
    ["a body that is not JSON", "/v1/format", "{nope", /not valid JSON/],
    ["an empty body", "/v1/format", "", /empty/],
    ["a JSON array body", "/v1/format", [1], /object/],
  ];
  for (const [name, path, body, pattern] of badInputs) {
    it(`${name} is 400 BAD_INPUT naming the problem`, async () => {
      const res = await call(app, "POST", path, body);
      assert.equal(res.status, 400);
      const err = errorOf(res);
      assert.equal(err.code, "BAD_INPUT");
      assert.match(err.message, pattern);
    });
  }

  it("an unknown route is 404 JSON; a known path with the wrong method is 405", async () => {
    const missing = await call(app, "GET", "/v2/nothing");
    assert.equal(missing.status, 404);
    assert.equal(errorOf(missing).code, "NOT_FOUND");
    const wrong = await call(app, "GET", "/v1/format");
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get("allow"), "POST");
  });
});

describe("request body limit", () => {
  const app = createApp({ maxBodyBytes: 64 });

  it("refuses a body over the limit with 413 before parsing it", async () => {
    const res = await call(app, "POST", "/v1/format", {
      content: "x".repeat(200),
    });
    assert.equal(res.status, 413);
    assert.equal(errorOf(res).code, "TOO_LARGE");
  });

  it("counts streamed bytes when no length is declared", async () => {
    const chunk = new TextEncoder().encode(
      JSON.stringify({ content: "y".repeat(100) }),
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(chunk);
        controller.close();
      },
    });
    const res = await app.fetch(
      new Request("http://localhost/v1/format", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stream,
        // @ts-ignore: needed by Node's fetch for a stream body
        duplex: "half",
      }),
    );
    assert.equal(res.status, 413);
    assert.equal((await res.json()).error.code, "TOO_LARGE");
  });

  it("accepts a body under the limit", async () => {
    const res = await call(app, "POST", "/v1/format", { content: "ok" });
    assert.equal(res.status, 200);
  });
});

describe("bearer token", () => {
  const app = createApp({ token: "s3cret-token" });

  it("leaves /health open", async () => {
    assert.equal((await call(app, "GET", "/health")).status, 200);
  });

  const denied: [string, Record<string, string>][] = [
    ["no header", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
    ["a token prefix", { authorization: "Bearer s3cret" }],
    ["another scheme", { authorization: "Basic czNjcmV0LXRva2Vu" }],
  ];
  for (const [name, headers] of denied) {
    it(`refuses ${name} with 401 UNAUTHORIZED`, async () => {
      const res = await call(
        app,
        "POST",
        "/v1/format",
        { content: "a" },
        headers,
      );
      assert.equal(res.status, 401);
      assert.equal(errorOf(res).code, "UNAUTHORIZED");
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    });
  }

  it("protects /mcp and unknown routes too", async () => {
    assert.equal((await call(app, "POST", "/mcp", {})).status, 401);
    assert.equal((await call(app, "GET", "/elsewhere")).status, 401);
  });

  it("accepts the right token", async () => {
    const res = await call(app, "POST", "/v1/format", { content: "a" }, {
      authorization: "Bearer s3cret-token",
    });
    assert.equal(res.status, 200);
  });
});

describe("createApp options", () => {
  it("refuses a bad body limit or an empty token", () => {
    assert.throws(() => createApp({ maxBodyBytes: 0 }), TypeError);
    assert.throws(() => createApp({ token: "" }), TypeError);
  });
});
