/**
 * Request body size limit (Hono middleware), answering in the app's error
 * shape (413 `TOO_LARGE`) before anything is parsed, whether the size is
 * declared by `Content-Length` or only seen while streaming.
 *
 * A declared size is judged from the header alone: asking a request for its
 * `body` turns it into a JavaScript stream on some runtimes (Deno), and the
 * body's one reader then pulls it chunk by chunk through that stream instead
 * of taking it whole — on a large body that costs more than the rest of the
 * request. Bodies without a declared size go through Hono's own `bodyLimit`,
 * which counts them as they stream.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { errorJson } from "../_respond.ts";

/**
 * Creates the limit.
 *
 * @param maxBytes Largest body accepted, in bytes.
 * @returns Middleware answering 413 `TOO_LARGE` to a larger body.
 * @throws {TypeError} When `maxBytes` is not a whole number ≥ 1.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { bodySizeLimit } from "./body_limit.ts";
 * const app = new Hono().use(bodySizeLimit(4)).post("/", (c) => c.text("ok"));
 * assert.equal((await app.request("/", { method: "POST", body: "12345" })).status, 413);
 * assert.equal((await app.request("/", { method: "POST", body: "1234" })).status, 200);
 * ```
 */
export function bodySizeLimit(maxBytes: number): MiddlewareHandler {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw new TypeError(
      `maxBodyBytes must be a whole number of bytes ≥ 1, got ${maxBytes}.`,
    );
  }
  const tooLarge = (): Response =>
    errorJson({
      code: "TOO_LARGE",
      message:
        `Request body is over the limit of ${maxBytes} bytes: send less (a smaller patch, or a window of the content).`,
    });
  const streamed = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async function bodySizeLimit(c, next) {
    const headers = c.req.raw.headers;
    const declared = headers.get("content-length");
    if (declared === null || headers.has("transfer-encoding")) {
      return await streamed(c, next);
    }
    // A length that is not a plain decimal cannot be judged (Hono's own
    // limit would let it through uncounted): refused, as a server in front
    // of the app usually does already.
    if (!/^\d{1,15}$/.test(declared)) {
      return errorJson({
        code: "BAD_INPUT",
        message: `The Content-Length header ${
          JSON.stringify(declared.slice(0, 40))
        } is not a byte count: send one plain decimal length, or none.`,
      });
    }
    // Only an oversized declaration needs to know whether a body came at all.
    if (Number(declared) > maxBytes && c.req.raw.body !== null) {
      return tooLarge();
    }
    await next();
  };
}
