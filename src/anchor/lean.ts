/**
 * Lean reads (docs/reads.md#lean-reads): lines shown as `LINE|content`, and
 * ops that name a line by its number alone (`12`, `12*`), checked against
 * the session's read record instead of a hash in the anchor.
 *
 * @module
 */

/** How a read shows each line: `"hash"` (`LINE:HH|content`, the default) or `"lean"` (`LINE|content`). */
export type AnchorForm = "hash" | "lean";

/** A line named by its number alone. */
export interface BareAnchor {
  /** 1-based line number. */
  line: number;
  /** Whether it names the block that opens on the line (`12*`). */
  block: boolean;
}

const BARE = /^(\d+)(\*)?$/;
const HASHED_PREFIX = /^(\d+):[0-9a-fA-F]{2}\|/gm;

/**
 * Parses a line number alone (`12`, or `12*` for a block), or null when the
 * text is something else (such as a full `12:a3` anchor).
 *
 * @param text The anchor as written (surrounding spaces are ignored).
 * @returns The line and whether it names a block, or null.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseBareAnchor } from "./lean.ts";
 * assert.deepEqual(parseBareAnchor("12"), { line: 12, block: false });
 * assert.deepEqual(parseBareAnchor(" 7* "), { line: 7, block: true });
 * assert.equal(parseBareAnchor("12:a3"), null);
 * assert.equal(parseBareAnchor("0"), null);
 * ```
 */
export function parseBareAnchor(text: unknown): BareAnchor | null {
  if (typeof text !== "string") return null;
  const m = BARE.exec(text.trim());
  if (!m) return null;
  const line = Number(m[1]);
  if (line < 1 || !Number.isSafeInteger(line)) return null;
  return { line, block: m[2] === "*" };
}

/**
 * Rewrites every `LINE:HH|` read prefix that starts a line of `text` as
 * `LINE|`: a read, a result's fresh anchors or a refusal's listing in the
 * lean form.
 *
 * @param text Rendered lines, joined with `\n`.
 * @returns The same lines in the lean form.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leanLines } from "./lean.ts";
 * assert.equal(leanLines("1:ed|a\n2:23|b"), "1|a\n2|b");
 * ```
 */
export function leanLines(text: string): string {
  return text.replace(HASHED_PREFIX, "$1|");
}

/**
 * Checks an `anchors` option: `"hash"` or `"lean"` (undefined: `"hash"`).
 *
 * @param value The option as given.
 * @returns The form.
 * @throws {TypeError} When it is anything else.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { anchorForm } from "./lean.ts";
 * assert.equal(anchorForm(undefined), "hash");
 * assert.equal(anchorForm("lean"), "lean");
 * assert.throws(() => anchorForm("short"), TypeError);
 * ```
 */
export function anchorForm(value: unknown): AnchorForm {
  if (value === undefined || value === "hash") return "hash";
  if (value === "lean") return "lean";
  throw new TypeError(
    `Cannot read: anchors must be "hash" (LINE:HH|content, the default) or "lean" (LINE|content), got ${
      JSON.stringify(value)
    }.`,
  );
}
