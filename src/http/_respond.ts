/**
 * Small Web-standard helpers of the HTTP app: JSON answers in the one error
 * shape, with the status decided from the error code, and ETag matching.
 *
 * @module
 */
import { toErrorBody } from "../tools/error_body.ts";
import type { ToolError } from "../tools/types.ts";
import { statusOf } from "./_status.ts";

/** The content type of every JSON answer. */
export const JSON_TYPE = "application/json; charset=utf-8";

/** A JSON answer. */
export function json(
  body: unknown,
  status = 200,
  headers?: Record<string, string>,
): Response {
  return jsonText(JSON.stringify(body), status, headers);
}

/** A JSON answer from UTF-8 bytes that are already JSON. */
export function jsonBytes(
  bytes: Uint8Array<ArrayBuffer>,
  status = 200,
): Response {
  return new Response(bytes, {
    status,
    headers: { "content-type": JSON_TYPE },
  });
}

/** A JSON answer from text that is already JSON. */
export function jsonText(
  text: string,
  status = 200,
  headers?: Record<string, string>,
): Response {
  return new Response(text, {
    status,
    headers: headers
      ? { ...headers, "content-type": JSON_TYPE }
      : { "content-type": JSON_TYPE },
  });
}

/** A refusal in the one error shape, `{ ok: false, error }`, with its code's status. */
export function errorJson(
  error: ToolError,
  headers?: Record<string, string>,
): Response {
  return json({ ok: false, error }, statusOf(error.code), headers);
}

/** Whatever was thrown, answered in the error shape with its code's status. */
export function errorResponse(thrown: unknown): Response {
  return errorJson(toErrorBody(thrown));
}

/** Whether an `If-None-Match` header names this entity tag (quoted or not, weak or strong, or `*`). */
export function etagMatches(header: string | null, tag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((part) => {
    const t = part.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
    return t === "*" || t === tag;
  });
}
