/**
 * The 404 and 405 answers know every route the app serves, read from the
 * app's own routes: the full app's API, history and review page, and the
 * edge app's two endpoints.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createEdgeApp } from "../../src/http/edge.ts";

type Answer = {
  status: number;
  allow: string | null;
  code: string;
  message: string;
};

async function ask(
  app: { fetch(request: Request): Response | Promise<Response> },
  method: string,
  path: string,
): Promise<Answer> {
  const res = await app.fetch(
    new Request(`http://127.0.0.1${path}`, { method }),
  );
  const body = await res.json() as { error: { code: string; message: string } };
  return {
    status: res.status,
    allow: res.headers.get("allow"),
    code: body.error.code,
    message: body.error.message,
  };
}

describe("routes named by the 404 and 405 answers", () => {
  const app = createApp();

  it("a wrong method on a route with a parameter is 405 with its methods", {
    timeout: 30_000,
  }, async () => {
    const cases: [string, string, string][] = [
      ["GET", "/v1/history/abc/undo", "POST"],
      ["GET", "/v1/revisions/sha256:00/edits", "POST"],
      ["GET", "/mcp", "POST, DELETE"],
      ["GET", "/v1/files/patch", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await ask(app, method, path);
      assert.equal(answer.status, 405, `${method} ${path}`);
      assert.equal(answer.code, "METHOD_NOT_ALLOWED");
      assert.equal(answer.allow, allow, `${method} ${path}`);
      assert.match(answer.message, new RegExp(`use ${allow}\\.$`));
    }
  });

  it("an unknown path is 404 and lists the API's routes first", {
    timeout: 30_000,
  }, async () => {
    const answer = await ask(app, "GET", "/v2/nothing");
    assert.equal(answer.status, 404);
    assert.equal(answer.code, "NOT_FOUND");
    const list = answer.message.slice(answer.message.indexOf("Routes: ") + 8);
    assert.ok(list.startsWith("GET /health, POST /v1/format"), list);
    for (
      const route of [
        "GET /v1/revisions/{ref}/source",
        "POST /v1/history/{id}/undo",
        "POST /mcp",
        "DELETE /mcp",
        "GET /login",
      ]
    ) assert.ok(list.includes(route), `${route} in ${list}`);
    assert.ok(!list.includes("*"), list);
  });

  it(
    "the edge app names only what it serves",
    { timeout: 30_000 },
    async () => {
      const edge = createEdgeApp();
      const answer = await ask(edge, "GET", "/nothing");
      assert.equal(answer.status, 404);
      assert.match(
        answer.message,
        /Routes: GET \/health, POST \/v1\/format, POST \/v1\/apply\.$/,
      );
      assert.equal((await ask(edge, "GET", "/v1/apply")).allow, "POST");
    },
  );

  it(
    "the edge app answers the history routes 501 NOT_AVAILABLE, as the other routes that need a disk",
    { timeout: 30_000 },
    async () => {
      const edge = createEdgeApp();
      for (const path of ["/v1/history", "/v1/history/h_1"]) {
        const answer = await ask(edge, "GET", path);
        assert.equal(answer.status, 501, path);
        assert.equal(answer.code, "NOT_AVAILABLE");
        assert.match(answer.message, /edit history/);
      }
      const undo = await edge.fetch(
        new Request("http://127.0.0.1/v1/history/h_1/undo", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        }),
      );
      assert.equal(undo.status, 501);
      assert.equal((await undo.json()).error.code, "NOT_AVAILABLE");
    },
  );
});
