/**
 * Whether the tokens of a region parsed alone are those a whole parse of
 * the new text would see (docs/syntax-checks.md, "Regions"). Parsed alone,
 * a region ends where the text does; in place, the text goes on. Most
 * tokens cannot tell: they end at a line break or at a character of their
 * own. A block comment can: `/*` opens one that runs to the first closing star-slash
 * after it, however far, and where none follows the lexer takes the `/` as
 * a division or the start of a regular expression instead. So
 * `return /*.js$/.test(name);` is a regular expression in a region that
 * holds no closing star-slash, and the start of a comment in a file that holds one
 * further down.
 *
 * Two places can differ. Inside the region, a `/*` with no closing star-slash after it
 * in the region may open, in place, a comment that ends below the region.
 * Above it, a `/*` with no closing star-slash after it above the region was not a comment
 * in the text before the edit (a comment there would have run across the
 * region's first row, which is a cut), so no closing star-slash followed it anywhere; a
 * closing star-slash the region brings would make it one. Either way the region proves
 * nothing, and the caller parses the whole text.
 *
 * @module
 */

/**
 * Whether `text[from, to)` holds a `/*` with no closing star-slash after it inside that
 * span.
 *
 * @param text The text.
 * @param from Where the span starts (UTF-16 index).
 * @param to Where it ends (exclusive).
 * @returns True when such a `/*` stands in the span.
 */
export function openCommentIn(text: string, from: number, to: number): boolean {
  if (to - from < 2) return false;
  // The last `*/` that ends inside the span; a `/*` at p has a `*/` after
  // it exactly when that one starts at p + 2 or later.
  const close = text.lastIndexOf("*/", to - 2);
  const after = close >= from ? close - 1 : from;
  const open = text.indexOf("/*", Math.max(from, after));
  return open >= 0 && open + 2 <= to;
}

/**
 * Whether a region of `after` that parsed alone without an error lexes as
 * it does in place: no `/*` in it lacks a closing star-slash after it inside it, and,
 * when it holds a closing star-slash, none above it does either.
 *
 * @param after The new text.
 * @param start Where the region starts in it (UTF-16 index).
 * @param end Where the region ends (exclusive).
 * @returns True when the region's parse can stand for the text's.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameTokensInPlace } from "./_lexical.ts";
 * const text = "let a = 1;\nreturn /*.js$/.test(n);\n/* c *\/\n";
 * const end = text.indexOf("/* c");
 * assert.equal(sameTokensInPlace(text, 11, end), false);
 * assert.equal(sameTokensInPlace("let a = 1;\nlet b = 2;\n", 11, 22), true);
 * ```
 */
export function sameTokensInPlace(
  after: string,
  start: number,
  end: number,
): boolean {
  if (openCommentIn(after, start, end)) return false;
  if (!openCommentIn(after, 0, start)) return true;
  const close = after.indexOf("*/", start);
  return close < 0 || close + 2 > end;
}
