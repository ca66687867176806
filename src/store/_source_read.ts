/**
 * Bounded windows of a source (docs/store.md "Source reads").
 *
 * @module
 */
import { DEFAULT_SOURCE_LIMIT, MAX_SOURCE_LIMIT } from "./limits.ts";
import { describe } from "./_ref.ts";
import type { SourceRead, SourceReadOptions } from "./types.ts";

/** Lines of context shown above a query's match. */
const CONTEXT_LINES = 2;

/**
 * Cuts the window a source read asks for.
 *
 * @param text The whole source.
 * @param options Query, offset and limit as the caller sent them.
 * @throws {TypeError} A wrong type or an empty query.
 * @throws {RangeError} Limit outside 1..16000, offset past the end.
 */
export function sourceWindow(
  text: string,
  options: SourceReadOptions = {},
): SourceRead {
  if (
    options === null || typeof options !== "object" || Array.isArray(options)
  ) {
    throw new TypeError(
      `Source read options must be an object, got ${describe(options)}.`,
    );
  }
  const { query } = options;
  const offset = wholeNumber(options.offset, "offset", 0) ?? 0;
  const limit = wholeNumber(options.limit, "limit", 1) ?? DEFAULT_SOURCE_LIMIT;
  if (limit > MAX_SOURCE_LIMIT) {
    throw new RangeError(
      `limit ${limit} is over the maximum of ${MAX_SOURCE_LIMIT} chars; read in windows of at most ${MAX_SOURCE_LIMIT} and follow nextOffset.`,
    );
  }
  if (query !== undefined && (typeof query !== "string" || query === "")) {
    throw new TypeError(
      `query must be a non-empty string, got ${
        typeof query === "string" ? "an empty string" : describe(query)
      }.`,
    );
  }
  const total = text.length;
  if (offset >= total && !(offset === 0 && total === 0)) {
    throw new RangeError(
      `offset ${offset} is past the end: the source has ${total} chars (UTF-16 units), so offset must be below ${total}.`,
    );
  }
  let start = offset;
  if (query !== undefined) {
    const at = text.indexOf(query, offset);
    if (at === -1) {
      return {
        found: false,
        code: "",
        offset,
        nextOffset: null,
        totalChars: total,
      };
    }
    start = contextStart(text, at, Math.floor(limit / 4));
  }
  if (isLow(text, start) && isHigh(text, start - 1)) start--;
  let end = Math.min(total, start + limit);
  if (end < total && isLow(text, end) && isHigh(text, end - 1)) {
    end = end - 1 > start ? end - 1 : end + 1;
  }
  return {
    found: true,
    code: text.slice(start, end),
    offset: start,
    nextOffset: end < total ? end : null,
    totalChars: total,
  };
}

/** Start of the line holding `at`, moved up a few lines, but at most `maxBefore` units before it. */
function contextStart(text: string, at: number, maxBefore: number): number {
  let start = lineStartOf(text, at);
  if (at - start > maxBefore) return at - maxBefore;
  for (let n = 0; n < CONTEXT_LINES && start > 0; n++) {
    const above = lineStartOf(text, start - 1);
    if (at - above > maxBefore) break;
    start = above;
  }
  return start;
}

function lineStartOf(text: string, pos: number): number {
  return pos === 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
}

function wholeNumber(
  value: unknown,
  name: string,
  min: number,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value)) {
    throw new TypeError(
      `${name} must be a whole number, got ${
        typeof value === "number" ? value : describe(value)
      }.`,
    );
  }
  if (value < min) {
    throw new RangeError(`${name} must be at least ${min}, got ${value}.`);
  }
  return value;
}

function isHigh(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}
