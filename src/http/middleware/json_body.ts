/**
 * Strict JSON request bodies (Hono middleware): the body is decoded as UTF-8
 * with invalid bytes refused (never replaced by U+FFFD, which would write
 * characters nobody sent), parsed once, and left on the context as `body`.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { invalidUtf8At } from "../../_internal/utf8.ts";
import { errorJson } from "../_respond.ts";
import type { HttpEnv } from "../_env.ts";
import { lateBody } from "./body_deadline.ts";

const strict = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * Decodes a request body strictly.
 *
 * The lenient decoder is several times faster than the strict one, and
 * turns every ill-formed sequence into U+FFFD: text without U+FFFD came
 * from well-formed bytes and is exactly what the strict decoder returns.
 * Only a body holding U+FFFD (sent, or made up) is decoded again strictly.
 *
 * @throws {TypeError} Bytes that are not UTF-8 (the message names the offset).
 */
export function decodeBody(bytes: Uint8Array): string {
  const text = lenient.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return strict.decode(bytes);
  } catch {
    const at = invalidUtf8At(bytes);
    throw new TypeError(
      `Request body is not valid UTF-8 (bad byte at offset ${at}): send JSON encoded as UTF-8.`,
    );
  }
}

/** A body read waiting for its bytes, with the moment it is refused. */
interface Waiter {
  at: number;
  ms: number;
  reject(error: unknown): void;
}

/**
 * Every body read in flight, served by one timer set for the earliest
 * deadline: a busy server starts and stops no timer per request (each costs
 * more than the rest of a small route's guards), and no timer is left
 * behind once nothing waits.
 */
const waiting = new Set<Waiter>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(expire, Math.max(0, at - Date.now()));
}

function expire(): void {
  timer = undefined;
  timerAt = Infinity;
  const now = Date.now();
  let next = Infinity;
  for (const w of waiting) {
    if (w.at <= now) {
      waiting.delete(w);
      w.reject(lateBody(w.ms));
    } else if (w.at < next) next = w.at;
  }
  if (next !== Infinity) arm(next);
}

function watch(w: Waiter): void {
  waiting.add(w);
  if (w.at < timerAt) arm(w.at);
}

function unwatch(w: Waiter): void {
  waiting.delete(w);
  if (waiting.size === 0 && timer !== undefined) {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
  }
}

/** The body's bytes, refused with 408 when they are not all in by `deadline`. */
function readBytes(
  request: Request,
  deadline: number | undefined,
): Promise<Uint8Array> {
  const reading = request.arrayBuffer();
  if (deadline === undefined) return reading.then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const w: Waiter = {
      at: deadline,
      ms: Math.max(0, deadline - Date.now()),
      reject,
    };
    watch(w);
    reading.then((b) => {
      unwatch(w);
      resolve(new Uint8Array(b));
    }, (error) => {
      unwatch(w);
      reject(error);
    });
  });
}

/** A body that could not be read or decoded: 400 for a `TypeError`, else rethrown. */
function refused(error: unknown): Response {
  if (!(error instanceof TypeError)) throw error;
  return errorJson({ code: "BAD_INPUT", message: error.message });
}

/**
 * Creates the parser.
 *
 * @param shortcut Given the body's bytes before they are decoded, may answer
 *   the request itself (a route's fast path for the bodies it knows); when
 *   it returns null, the body is decoded and parsed as usual. It must not
 *   throw.
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
export function jsonBody(
  shortcut?: (bytes: Uint8Array) => Response | null,
): MiddlewareHandler<HttpEnv> {
  return async function jsonBody(c, next) {
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(c.req.raw, c.var.bodyDeadline);
    } catch (error) {
      return refused(error);
    }
    if (shortcut !== undefined) {
      const answer = shortcut(bytes);
      if (answer !== null) return answer;
    }
    let text: string;
    try {
      text = decodeBody(bytes);
    } catch (error) {
      return refused(error);
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
