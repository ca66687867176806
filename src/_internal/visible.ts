/**
 * Text safe to print for a person (docs/history.md, "Safe to print"): control characters and
 * bidirectional formatting characters shown as visible escapes, so text an
 * agent wrote can neither drive a reviewer's terminal nor disguise a line.
 *
 * @module
 */

// C0 but tab, DEL, C1; and the bidi marks, embeddings, overrides and isolates
// and the line and paragraph separators, which reorder or break what is shown.
const OTHERS = "\\x7f-\\x9f\\u061c\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069";
const UNSAFE = new RegExp(`[\\x00-\\x08\\x0a-\\x1f${OTHERS}]`, "g");
// What JSON leaves raw of them.
const RAW_IN_JSON = new RegExp(`[${OTHERS}]`, "g");

function escape(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/**
 * Shows control and bidirectional formatting characters as escapes
 * (`\x1b`, `<U+202E>`); everything else, tab included, is kept.
 *
 * @param text Text from a file, a name or an agent.
 * @returns The text with those characters made visible.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { visible } from "./visible.ts";
 * assert.equal(visible("a\x1b[2Jb"), "a\\x1b[2Jb");
 * assert.equal(visible("x\u202Ey"), "x<U+202E>y");
 * ```
 */
export function visible(text: string): string {
  return text.replace(UNSAFE, escape);
}

/**
 * Shows each line of a text with {@link visible}, keeping its line breaks.
 *
 * @param text Lines joined with `\n`.
 * @returns The lines, each made visible, joined with `\n`.
 */
export function visibleLines(text: string): string {
  return text.split("\n").map(visible).join("\n");
}

/**
 * JSON with the characters JSON leaves raw that a terminal acts on (C1,
 * bidirectional formatting, line separators) written as `\uXXXX` escapes:
 * the same value once parsed.
 *
 * @param value Any JSON value.
 * @returns Its JSON text, safe to print.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    RAW_IN_JSON,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
