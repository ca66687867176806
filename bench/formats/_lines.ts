/**
 * Lines of LF text, the final newline not opening an empty line.
 *
 * @module
 */

/**
 * Splits LF text into lines.
 *
 * @param text Text with `\n` line ends.
 * @returns The lines, without terminators.
 */
export function toLines(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

/**
 * Joins lines with `\n`, with a final newline when `final` is true.
 *
 * @param lines The lines.
 * @param final Whether the text ends with a newline.
 * @returns The text.
 */
export function fromLines(lines: readonly string[], final = true): string {
  return lines.length === 0 ? "" : lines.join("\n") + (final ? "\n" : "");
}

/**
 * Counts the non-overlapping occurrences of `needle` in `hay`, stopping at `stop`.
 *
 * @param hay Text searched.
 * @param needle Text sought (empty counts as unbounded).
 * @param stop Count at which to stop.
 * @returns The count (at most `stop`).
 */
export function countOccurrences(
  hay: string,
  needle: string,
  stop = 2,
): number {
  if (needle === "") return stop;
  let n = 0;
  let at = hay.indexOf(needle);
  while (at >= 0 && n < stop) {
    n++;
    at = hay.indexOf(needle, at + needle.length);
  }
  return n;
}
