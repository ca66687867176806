/**
 * A JSON answer whose long strings are sent in pieces (docs/history.md,
 * "Memory of large changes"): the whole diff of a 20 MB entry is one
 * string already held; serialising it whole would make a second copy as
 * JSON text and a third as UTF-8 bytes. Here the rest of the body is
 * serialised at once and each long string is escaped and encoded 1 MiB at
 * a time, as the client reads.
 *
 * @module
 */
import { JSON_TYPE, jsonText } from "./_respond.ts";

/** Where a string counts as long, and how much of it each piece takes. */
export interface PieceSizes {
  /** Strings longer than this (in UTF-16 units) are sent in pieces. */
  longer: number;
  /** UTF-16 units per piece. */
  piece: number;
}

const SIZES: PieceSizes = { longer: 1 << 20, piece: 1 << 20 };

/**
 * The body as JSON, its long strings sent in pieces; the same text
 * `JSON.stringify(body)` gives.
 *
 * @param body A JSON-serialisable value.
 * @param status The HTTP status.
 * @param sizes Where a string counts as long (tests make it small).
 * @returns The answer.
 */
export function jsonPieces(
  body: unknown,
  status = 200,
  sizes: PieceSizes = SIZES,
): Response {
  const long: string[] = [];
  // A mark no value holds: a random name, checked below.
  const mark = `\u0000long:${crypto.randomUUID()}\u0000`;
  const head = JSON.stringify(body, (_key, value) => {
    if (typeof value !== "string" || value.length <= sizes.longer) {
      return value;
    }
    long.push(value);
    return mark;
  });
  const parts = head.split(JSON.stringify(mark));
  if (long.length === 0 || parts.length !== long.length + 1) {
    return jsonText(long.length === 0 ? head : JSON.stringify(body), status);
  }
  const encoder = new TextEncoder();
  let part = 0;
  let at = -1;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // One piece per pull: the part before a long string, or a piece of it.
      if (at < 0) {
        const text = parts[part];
        if (part === long.length) {
          controller.enqueue(encoder.encode(text));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(text + '"'));
        at = 0;
        return;
      }
      const s = long[part];
      let end = Math.min(s.length, at + sizes.piece);
      // A surrogate pair is never cut: escaped apart, each half would be
      // written as a lone `\ud83d`, not as the character.
      const last = s.charCodeAt(end - 1);
      if (end < s.length && last >= 0xd800 && last <= 0xdbff) {
        end = end - 1 > at ? end - 1 : end + 1;
      }
      const escaped = JSON.stringify(s.slice(at, end));
      controller.enqueue(
        encoder.encode(
          escaped.slice(1, -1) + (end === s.length ? '"' : ""),
        ),
      );
      if (end === s.length) {
        long[part] = "";
        part++;
        at = -1;
      } else at = end;
    },
  });
  return new Response(stream, {
    status,
    headers: { "content-type": JSON_TYPE },
  });
}
