/**
 * Line splitting per docs/reads.md "Lines": a leading BOM is hidden, lines end at `\n` or
 * `\r\n`, a lone `\r` is content, and a final terminator ends the last line
 * rather than opening an empty one.
 *
 * @module
 */

/** What ends one line: `"\n"`, `"\r\n"`, or `""` for an unterminated last line. */
export type Terminator = "\n" | "\r\n" | "";

/** Content taken apart into lines, with everything needed to put it back byte for byte. */
export interface SplitContent {
  /** Whether the content starts with a BOM (U+FEFF), which is not part of line 1. */
  bom: boolean;
  /** The lines, without terminators. */
  lines: string[];
  /** Each line's own terminator; only the last may be `""`. */
  terminators: Terminator[];
  /** The terminator of line 1, or `null` when no line is terminated. */
  firstTerminator: "\n" | "\r\n" | null;
  /** Whether the last line is terminated (false for content without lines). */
  finalNewline: boolean;
}

/** The byte order mark a text may start with; no part of its first line. */
export const BOM = "\uFEFF";

/**
 * The text without its leading BOM, if it has one.
 *
 * @param text The text.
 * @returns The text from its first character after a BOM.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stripBom } from "./split.ts";
 *
 * assert.equal(stripBom("\uFEFFa\n"), "a\n");
 * assert.equal(stripBom("a\uFEFF"), "a\uFEFF");
 * ```
 */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Splits content into lines, remembering each line's terminator and the BOM.
 *
 * @param content The text of a file.
 * @returns The lines and what is needed to rebuild the exact content.
 * @throws {TypeError} When `content` is not a string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitLines } from "./split.ts";
 * const s = splitLines("\uFEFFa\r\nb\rc\nd");
 * assert.deepEqual(s.lines, ["a", "b\rc", "d"]);
 * assert.deepEqual(s.terminators, ["\r\n", "\n", ""]);
 * assert.equal(s.bom, true);
 * assert.equal(s.firstTerminator, "\r\n");
 * assert.equal(s.finalNewline, false);
 * assert.deepEqual(splitLines("\n").lines, [""]);
 * assert.deepEqual(splitLines("").lines, []);
 * ```
 */
export function splitLines(content: string): SplitContent {
  if (typeof content !== "string") {
    throw new TypeError(
      `Cannot split content: expected a string, got ${typeof content}.`,
    );
  }
  const bom = content.startsWith(BOM);
  const lines: string[] = [];
  const terminators: Terminator[] = [];
  let pos = bom ? 1 : 0;
  const len = content.length;
  while (pos < len) {
    const nl = content.indexOf("\n", pos);
    if (nl < 0) {
      lines.push(content.slice(pos));
      terminators.push("");
      break;
    }
    if (nl > pos && content.charCodeAt(nl - 1) === 13) {
      lines.push(content.slice(pos, nl - 1));
      terminators.push("\r\n");
    } else {
      lines.push(content.slice(pos, nl));
      terminators.push("\n");
    }
    pos = nl + 1;
  }
  const first = terminators.length > 0 ? terminators[0] : "";
  return {
    bom,
    lines,
    terminators,
    firstTerminator: first === "" ? null : first,
    finalNewline: terminators.length > 0 &&
      terminators[terminators.length - 1] !== "",
  };
}

/**
 * Rebuilds content from its lines: BOM, then each line followed by its terminator.
 *
 * @param split The BOM flag, lines and per-line terminators (as from {@link splitLines}).
 * @returns The content; `joinLines(splitLines(x)) === x` for every string `x`.
 * @throws {RangeError} When `lines` and `terminators` differ in length.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { joinLines, splitLines } from "./split.ts";
 * const text = "\uFEFFa\r\nb\nc";
 * assert.equal(joinLines(splitLines(text)), text);
 * assert.equal(
 *   joinLines({ bom: false, lines: ["x", "y"], terminators: ["\n", ""] }),
 *   "x\ny",
 * );
 * ```
 */
export function joinLines(
  split: Pick<SplitContent, "bom" | "lines" | "terminators">,
): string {
  const { lines, terminators } = split;
  if (lines.length !== terminators.length) {
    throw new RangeError(
      `Cannot join lines: ${lines.length} lines but ${terminators.length} terminators.`,
    );
  }
  const parts: string[] = new Array(lines.length * 2 + 1);
  parts[0] = split.bom ? BOM : "";
  for (let i = 0; i < lines.length; i++) {
    parts[2 * i + 1] = lines[i];
    parts[2 * i + 2] = terminators[i];
  }
  return parts.join("");
}
