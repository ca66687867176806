/**
 * Small Web-standard helpers of the HTTP app: bounded body reading, JSON
 * answers in the one error shape, bearer-token comparison, and ETag matching.
 *
 * @module
 */
import { TooLargeError } from "../errors.ts";
import { type ErrorBody, mapError } from "./_errors.ts";

/** A JSON answer. */
export function json(
  body: unknown,
  status = 200,
  headers: HeadersInit = {},
): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** A refusal in the one error shape, `{ ok: false, error }`. */
export function errorJson(
  status: number,
  error: ErrorBody,
  headers: HeadersInit = {},
): Response {
  return json({ ok: false, error }, status, headers);
}

/** Whatever was thrown, answered with its status and error body. */
export function errorResponse(thrown: unknown): Response {
  const { status, body } = mapError(thrown);
  return errorJson(status, body);
}

function tooLarge(max: number): TooLargeError {
  return new TooLargeError(
    `Request body is over the limit of ${max} bytes: send less (a smaller patch, or a window of the content).`,
  );
}

/**
 * Reads a request body as UTF-8 text, refusing (before parsing anything) a
 * body over `max` bytes, whether declared by `Content-Length` or seen while
 * streaming.
 *
 * @throws {TooLargeError} Over the limit.
 */
export async function readBodyText(
  request: Request,
  max: number,
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > max) throw tooLarge(max);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge(max);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a request body as JSON.
 *
 * @throws {TooLargeError} Over the limit.
 * @throws {TypeError} Empty body.
 * @throws {SyntaxError} Not JSON.
 */
export async function readJson(
  request: Request,
  max: number,
): Promise<unknown> {
  const text = await readBodyText(request, max);
  if (text.trim() === "") {
    throw new TypeError("Request body is empty: send a JSON object.");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(
      `Request body is not valid JSON (${
        (error as Error).message
      }): send a JSON object.`,
    );
  }
}

/**
 * Compares a presented token with the configured one in constant time
 * (both are hashed first, so neither length nor prefix leaks).
 */
export async function tokenMatches(
  presented: string,
  expected: string,
): Promise<boolean> {
  const enc = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", enc.encode(presented)),
    crypto.subtle.digest("SHA-256", enc.encode(expected)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

/** Whether an `If-None-Match` header names this entity tag (quoted or not, weak or strong, or `*`). */
export function etagMatches(header: string | null, tag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((part) => {
    const t = part.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
    return t === "*" || t === tag;
  });
}
