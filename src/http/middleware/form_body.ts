/**
 * Reading a small request body (the review page's forms) under a byte
 * limit and a deadline, judged while it streams: a declared length over
 * the limit is refused before a byte is read, and a chunked body is cut off
 * at the first chunk past the limit, or when the deadline passes.
 *
 * @module
 */

/** What {@link readSmallBody} got: the text, or why it stopped. */
export type SmallBody =
  | { ok: true; text: string }
  | { ok: false; status: 400 | 408 | 413; message: string };

/**
 * Reads a request body of at most `maxBytes` bytes that must arrive within
 * `timeoutMs` milliseconds, as UTF-8 text.
 *
 * @param request The request.
 * @param maxBytes Largest body accepted, in bytes.
 * @param timeoutMs How long the whole body may take to arrive.
 * @returns The text, or the status and sentence to answer with.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSmallBody } from "./form_body.ts";
 * const small = await readSmallBody(new Request("http://x/", { method: "POST", body: "a=1" }), 16, 1000);
 * assert.deepEqual(small, { ok: true, text: "a=1" });
 * const big = await readSmallBody(new Request("http://x/", { method: "POST", body: "a".repeat(17) }), 16, 1000);
 * assert.equal(big.ok ? 0 : big.status, 413);
 * ```
 */
export async function readSmallBody(
  request: Request,
  maxBytes: number,
  timeoutMs: number,
): Promise<SmallBody> {
  const tooLarge: SmallBody = {
    ok: false,
    status: 413,
    message: `The form is over the limit of ${maxBytes} bytes.`,
  };
  const declared = request.headers.get("content-length");
  if (declared !== null && !request.headers.has("transfer-encoding")) {
    if (!/^\d{1,15}$/.test(declared)) {
      return {
        ok: false,
        status: 400,
        message: "The Content-Length header is not a byte count.",
      };
    }
    if (Number(declared) > maxBytes) return tooLarge;
  }
  if (request.body === null) return { ok: true, text: "" };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  try {
    for (;;) {
      const got = await Promise.race([reader.read(), late]);
      if (got === "late") {
        return {
          ok: false,
          status: 408,
          message:
            `The form did not arrive within ${timeoutMs} ms: send it again.`,
        };
      }
      if (got.done) break;
      total += got.value.byteLength;
      if (total > maxBytes) return tooLarge;
      chunks.push(got.value);
    }
  } finally {
    clearTimeout(timer);
    // Stop the rest of a refused body from being read at all.
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
