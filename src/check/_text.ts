/**
 * Small questions a check asks of a text before it parses it: how many
 * UTF-8 bytes it holds (up to a bound). A leading BOM is taken off with
 * `stripBom` (`src/anchor/split.ts`), the one BOM strip.
 *
 * @module
 */

/**
 * The UTF-8 length of `text`, or any number past `over` once it is surely
 * past it (a text of at most `over / 3` code units is not encoded).
 *
 * @param text The text.
 * @param over The bound the caller compares against.
 * @returns The length in bytes.
 */
export function utf8Length(text: string, over: number): number {
  if (text.length * 3 <= over) return text.length;
  return new TextEncoder().encode(text).length;
}
