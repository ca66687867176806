import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Hono } from "hono";
import { hostGuard } from "../../../src/http/middleware/host_guard.ts";

function appWith(options = {}) {
  return new Hono().use(hostGuard(options)).post("/", (c) => c.text("in"));
}

async function status(
  app: Hono,
  headers: Record<string, string>,
): Promise<{ status: number; code?: string }> {
  const res = await app.request("http://127.0.0.1:8787/", {
    method: "POST",
    headers,
  });
  if (res.status === 200) return { status: 200 };
  return { status: res.status, code: (await res.json()).error.code };
}

describe("hostGuard", () => {
  const cases: [string, Record<string, string>, number][] = [
    ["no Host or Origin header (the URL's host is loopback)", {}, 200],
    ["Host 127.0.0.1 with a port", { host: "127.0.0.1:8787" }, 200],
    ["Host localhost", { host: "localhost" }, 200],
    ["Host [::1] with a port", { host: "[::1]:9000" }, 200],
    ["a loopback Origin on another port", {
      origin: "http://localhost:3000",
    }, 200],
    ["a foreign Host (DNS rebinding)", { host: "evil.example:8787" }, 403],
    ["a foreign Origin", { origin: "http://evil.example" }, 403],
    ["Origin null (a sandboxed page)", { origin: "null" }, 403],
    ["an Origin that is not a URL", { origin: "garbage" }, 403],
  ];
  for (const [name, headers, expected] of cases) {
    it(`answers ${expected} to ${name}`, async () => {
      const got = await status(appWith(), headers);
      assert.equal(got.status, expected);
      if (expected === 403) assert.equal(got.code, "FORBIDDEN");
    });
  }

  it("lets named hosts and origins in, and no others", async () => {
    const app = appWith({
      allowedHosts: ["hashline.internal"],
      allowedOrigins: ["https://ui.example"],
    });
    assert.equal(
      (await status(app, { host: "hashline.internal:80" })).status,
      200,
    );
    assert.equal(
      (await status(app, { origin: "https://ui.example" })).status,
      200,
    );
    assert.equal(
      (await status(app, { origin: "http://ui.example" })).status,
      403,
    );
    assert.equal((await status(app, { host: "other.internal" })).status, 403);
  });

  it("judges every request alike, however many hosts one guard has seen", async () => {
    // One app, so the guard's memory of good Host values is in play.
    const app = appWith();
    const good = Array.from({ length: 40 }, (_, i) => `127.0.0.1:${8000 + i}`);
    for (let round = 0; round < 2; round++) {
      for (const host of good) {
        assert.equal((await status(app, { host })).status, 200, host);
        assert.equal(
          (await status(app, { host, origin: "http://evil.example" })).status,
          403,
        );
        for (
          const bad of [
            "evil.example",
            "127.0.0.1.evil.example",
            "127.0.0.1:99999",
          ]
        ) {
          const got = await status(app, { host: bad });
          assert.deepEqual(got, { status: 403, code: "FORBIDDEN" }, bad);
        }
      }
    }
  });

  it("refuses an allowed origin that is not an origin", () => {
    assert.throws(
      () => hostGuard({ allowedOrigins: ["not a url"] }),
      TypeError,
    );
  });
});
