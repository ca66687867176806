/**
 * The hashline HTTP app for edge runtimes (Cloudflare Workers, Vercel Edge,
 * Deno Deploy, any `fetch` handler): the stateless routes only, with the
 * same request and response shapes and the same guards as the full app.
 * Its module graph imports no `node:*` module, and the hash engine falls
 * back to the TypeScript twin where the platform forbids compiling Wasm.
 *
 * - `GET /health`
 * - `POST /v1/format` `{ content, offset?, limit? }` → the anchored view
 * - `POST /v1/apply` `{ content, ops }` or `{ content, patch }` → `{ ok, content }`
 *
 * The routes that need a file system or a revision store (`/v1/files/*`,
 * `/v1/revisions…`) and MCP (`/mcp`, whose tools act on files) answer
 * 501 `NOT_AVAILABLE` with a sentence saying why and what to use instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createEdgeApp } from "./edge.ts";
 * const app = createEdgeApp({ token: "s3cret" });
 * const res = await app.request("/v1/apply", {
 *   method: "POST",
 *   headers: { authorization: "Bearer s3cret", "content-type": "application/json" },
 *   body: JSON.stringify({ content: "x\ny\n", patch: "= 2:4a\n~Y" }),
 * });
 * assert.deepEqual(await res.json(), { ok: true, content: "x\nY\n" });
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import type { HttpEnv } from "./_env.ts";
import { type GuardOptions, useGuards } from "./_guards.ts";
import { errorJson } from "./_respond.ts";
import { statelessRoutes } from "./_routes_stateless.ts";
import type { HashlineApp } from "./app.ts";

export type { GuardOptions, HashlineApp };

/**
 * How the edge app is set up; every field is optional. On a public host,
 * give a `token` (or name the host in `allowedHosts`): without either, the
 * app answers only requests addressed to a loopback host, as the full app does.
 */
export interface EdgeAppOptions extends GuardOptions {}

/** What the routes left out need, for their 501 answers. */
const ABSENT: [string, string][] = [
  ["/v1/files/*", "a file system"],
  ["/v1/revisions", "a revision store"],
  ["/v1/revisions/*", "a revision store"],
  ["/mcp", "a file system (the MCP tools read and edit files)"],
  ["/v1/history", "a workspace's edit history (a file system)"],
  ["/v1/history/*", "a workspace's edit history (a file system)"],
];

/**
 * Creates the edge app.
 *
 * @param options Token, Host/Origin allowances, body limits; all optional.
 * @returns The app; export it as the platform's `fetch` handler
 *   (`export default { fetch: app.fetch }`).
 * @throws {TypeError} When `maxBodyBytes` or `bodyTimeoutMs` is not a positive
 *   whole number, `token` is empty or not a bearer token, or an allowed
 *   origin is not an origin.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createEdgeApp } from "./edge.ts";
 * const app = createEdgeApp();
 * const res = await app.request("/v1/files/read", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ path: "a.txt" }),
 * });
 * assert.equal(res.status, 501);
 * assert.equal((await res.json()).error.code, "NOT_AVAILABLE");
 * ```
 */
export function createEdgeApp(options: EdgeAppOptions = {}): HashlineApp {
  if (options === null || typeof options !== "object") {
    throw new TypeError("createEdgeApp needs an options object (or nothing).");
  }
  const app = new Hono<HttpEnv>();
  useGuards(app, options);
  app.route("/", statelessRoutes());
  for (const [path, needs] of ABSENT) {
    app.all(path, (c) =>
      errorJson({
        code: "NOT_AVAILABLE",
        message:
          `${c.req.method} ${c.req.path} is not available in the edge app: it needs ${needs}, which an edge runtime does not have. Send the content in the body to POST /v1/format or POST /v1/apply, or serve the full app (createApp from the "./app" entry) where there is a disk.`,
      }));
  }
  return app;
}
