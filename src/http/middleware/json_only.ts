/**
 * JSON-only request bodies (Hono middleware). A web page can send a
 * cross-site `POST` without a preflight only as `text/plain`, form data or
 * `multipart/form-data`; taking bodies only as `application/json` closes that
 * door, whatever runtime serves the app.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { errorJson } from "../_respond.ts";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/** Whether a `Content-Type` value is JSON in UTF-8 (`application/json`, any charset parameter other than UTF-8 refused). */
export function isJsonType(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === "application/json") return true;
  const [type, ...params] = value.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  for (const p of params) {
    const [k, v = ""] = p.split("=");
    if (
      k.trim().toLowerCase() === "charset" &&
      !/^"?utf-8"?$/i.test(v.trim())
    ) return false;
  }
  return true;
}

/**
 * Creates the check.
 *
 * @returns Middleware answering 415 `UNSUPPORTED_MEDIA_TYPE` to a `POST`,
 *   `PUT` or `PATCH` whose `Content-Type` is not `application/json`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { jsonOnly } from "./json_only.ts";
 * const app = new Hono().use(jsonOnly()).post("/", (c) => c.text("ok"));
 * const text = await app.request("/", { method: "POST", body: "{}", headers: { "content-type": "text/plain" } });
 * assert.equal(text.status, 415);
 * const json = await app.request("/", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
 * assert.equal(json.status, 200);
 * ```
 */
export function jsonOnly(): MiddlewareHandler {
  return async function jsonOnly(c, next) {
    if (
      BODY_METHODS.has(c.req.method) &&
      !isJsonType(c.req.header("content-type"))
    ) {
      const given = c.req.header("content-type");
      return errorJson({
        code: "UNSUPPORTED_MEDIA_TYPE",
        message:
          `Request bodies must be JSON in UTF-8: send the header Content-Type: application/json (got ${
            given === undefined ? "none" : JSON.stringify(given)
          }).`,
      }, { "accept-post": "application/json" });
    }
    await next();
  };
}
