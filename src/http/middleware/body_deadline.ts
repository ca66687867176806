/**
 * A deadline for receiving a request body (Hono middleware): a client that
 * trickles its body (or never finishes it) is cut off with 408
 * `REQUEST_TIMEOUT` instead of holding a handler forever. Only the reading
 * is timed, never the work that follows it: a body of declared length gets
 * a deadline that its one reader (`jsonBody`) enforces with a single timer;
 * a streamed body of unknown length (which `bodyLimit` buffers) is wrapped
 * in a stream that fails when the deadline passes.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { HttpEnv } from "../_env.ts";
import { errorJson } from "../_respond.ts";

/** The 408 answer, as an exception any body reader can throw. */
export function lateBody(ms: number): HTTPException {
  return new HTTPException(408, {
    res: errorJson({
      code: "REQUEST_TIMEOUT",
      message:
        `The request body did not arrive within ${ms} ms: send it at once, or send less.`,
    }),
  });
}

/**
 * Creates the deadline.
 *
 * @param ms How long the whole body may take to arrive, in milliseconds.
 * @returns Middleware answering 408 when the body is not in by then.
 * @throws {TypeError} When `ms` is not a whole number ≥ 1.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Hono } from "hono";
 * import { bodyDeadline } from "./body_deadline.ts";
 * const app = new Hono().use(bodyDeadline(1000)).post("/", async (c) => c.text(await c.req.text()));
 * const res = await app.request("/", { method: "POST", body: "hi" });
 * assert.equal(await res.text(), "hi");
 * ```
 */
export function bodyDeadline(ms: number): MiddlewareHandler<HttpEnv> {
  if (!Number.isSafeInteger(ms) || ms < 1) {
    throw new TypeError(
      `bodyTimeoutMs must be a whole number of milliseconds ≥ 1, got ${ms}.`,
    );
  }
  const late = (): HTTPException => lateBody(ms);
  return async function bodyDeadline(c, next) {
    const raw = c.req.raw;
    // Judged from the headers first: asking for `body` makes it a JavaScript
    // stream on some runtimes (Deno), and the one reader of a declared
    // length then pulls it chunk by chunk instead of taking it whole.
    if (
      raw.headers.has("content-length") && !raw.headers.has("transfer-encoding")
    ) {
      c.set("bodyDeadline", Date.now() + ms);
      return await next();
    }
    if (raw.body === null) return await next();
    const reader = raw.body.getReader();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let expired = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setTimeout(() => {
          expired = true;
          controller.error(late());
          reader.cancel().catch(() => {});
        }, ms);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (expired) return;
          if (done) {
            clearTimeout(timer);
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          clearTimeout(timer);
          if (!expired) controller.error(error);
        }
      },
      cancel(reason) {
        clearTimeout(timer);
        return reader.cancel(reason);
      },
    });
    c.req.raw = new Request(raw, {
      body,
      // @ts-ignore: Node's Request needs it for a stream body; others ignore it.
      duplex: "half",
    });
    try {
      await next();
    } finally {
      clearTimeout(timer);
    }
  };
}
