/**
 * Strict JSON request bodies (Hono middleware): the body is decoded as UTF-8
 * with invalid bytes refused (never replaced by U+FFFD, which would write
 * characters nobody sent), parsed once, and left on the context as `body`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { invalidUtf8At } from "../../workspace/_text.ts";
import { errorJson } from "../_respond.ts";
import type { HttpEnv } from "../_env.ts";

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a request body strictly.
 *
 * @throws {TypeError} Bytes that are not UTF-8 (the message names the offset).
 */
export function decodeBody(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = invalidUtf8At(bytes);
    throw new TypeError(
      `Request body is not valid UTF-8 (bad byte at offset ${at}): send JSON encoded as UTF-8.`,
    );
  }
}

/**
 * Creates the parser.
 *
 * @returns Middleware that sets `c.var.body`, or answers 400 `BAD_INPUT` for
 *   an empty body, bytes that are not UTF-8, or text that is not JSON.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import type { HttpEnv } from "../_env.ts";
 * import { jsonBody } from "./json_body.ts";
 * const app = new Hono<HttpEnv>().post("/", jsonBody(), (c) => c.json(c.var.body));
 * const bad = await app.request("/", { method: "POST", body: new Uint8Array([0x22, 0xff, 0x22]) });
 * assert.equal(bad.status, 400);
 * const good = await app.request("/", { method: "POST", body: '{"a":1}' });
 * assert.deepEqual(await good.json(), { a: 1 });
 * ```
 */
export function jsonBody(): MiddlewareHandler<HttpEnv> {
  return async function jsonBody(c, next) {
    let text: string;
    try {
      text = decodeBody(new Uint8Array(await c.req.arrayBuffer()));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      return errorJson({ code: "BAD_INPUT", message: error.message });
    }
    if (text.trim() === "") {
      return errorJson({
        code: "BAD_INPUT",
        message: "Request body is empty: send a JSON object.",
      });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return errorJson({
        code: "BAD_INPUT",
        message: `Request body is not valid JSON (${
          (error as Error).message
        }): send a JSON object.`,
      });
    }
    c.set("body", value);
    await next();
  };
}
