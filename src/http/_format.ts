/**
 * `POST /v1/format`'s view: the same answer as `formatHashlines`, with the
 * anchor bytes of every line computed by the hash engine (Wasm where it can
 * run) in one pass over the UTF-8 bytes, instead of line by line in
 * JavaScript — that pass is most of the route's cost.
 *
 * @module
 */
import { formatHashlines, formatLine, readWindow } from "../anchor/format.ts";
import { splitLines } from "../anchor/split.ts";
import type { HashlineView } from "../anchor/format.ts";
import { hashLines } from "../hash/mod.ts";

const encoder = new TextEncoder();

/**
 * The anchored view of `content` for a window.
 *
 * @throws {RangeError} An offset past the last line, or a bad window.
 */
export function formatView(
  content: string,
  window: { offset?: number; limit?: number },
): HashlineView {
  // A lone surrogate has no UTF-8 form: the engine would hash U+FFFD instead.
  if (!content.isWellFormed()) return formatHashlines(content, window);
  readWindow(Number.MAX_SAFE_INTEGER, window);
  const { lines } = splitLines(content);
  const win = readWindow(lines.length, window);
  const folds = hashLines(encoder.encode(content));
  const out: string[] = new Array(Math.max(0, win.endLine - win.startLine + 1));
  for (let n = win.startLine; n <= win.endLine; n++) {
    out[n - win.startLine] = formatLine(
      n,
      lines[n - 1],
      win.maxLineChars,
      folds[n - 1],
    );
  }
  return {
    text: out.join("\n"),
    totalLines: lines.length,
    startLine: win.startLine,
    endLine: win.endLine,
    nextOffset: win.nextOffset,
  };
}
