/**
 * Bearer-token authentication: Hono's own `bearerAuth` (constant-time
 * comparison), answering every failure in the app's error shape as 401
 * `UNAUTHORIZED` with a `WWW-Authenticate: Bearer` challenge.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { errorJson } from "../_respond.ts";

/** The characters a bearer token may hold (RFC 6750 `b64token`). */
const TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/**
 * Creates the check.
 *
 * @param token The secret clients must send as `Authorization: Bearer <token>`.
 * @returns Middleware answering 401 `UNAUTHORIZED` without the right token.
 * @throws {TypeError} An empty token, or one with characters a bearer token cannot hold.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { tokenAuth } from "./token_auth.ts";
 * const app = new Hono().use(tokenAuth("s3cret")).get("/", (c) => c.text("ok"));
 * assert.equal((await app.request("/")).status, 401);
 * const ok = await app.request("/", { headers: { authorization: "Bearer s3cret" } });
 * assert.equal(ok.status, 200);
 * ```
 */
export function tokenAuth(token: string): MiddlewareHandler {
  if (typeof token !== "string" || !TOKEN.test(token)) {
    throw new TypeError(
      "token must be a non-empty string of letters, digits and ._~+/- (optionally ending in =), as a bearer token is.",
    );
  }
  const refuse = (why: string) => (): Response =>
    errorJson({
      code: "UNAUTHORIZED",
      message:
        `${why} This server needs a bearer token: send the header Authorization: Bearer <token>.`,
    }, { "www-authenticate": 'Bearer realm="hashline"' });
  return bearerAuth({
    token,
    realm: "hashline",
    noAuthenticationHeader: { message: refuse("No Authorization header.") },
    invalidAuthenticationHeader: {
      message: refuse("The Authorization header is not a bearer token."),
    },
    invalidToken: { message: refuse("The token is wrong.") },
  });
}
