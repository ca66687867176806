/**
 * Rewriting one generated block of a Markdown file in place, between a
 * begin and an end marker, leaving the rest of the file as it was.
 *
 * @module
 */

/** Marker opening the throughput block. */
export const BEGIN = "<!-- throughput:begin -->";
/** Marker closing it. */
export const END = "<!-- throughput:end -->";

/**
 * The begin and end markers of the block named `name`.
 *
 * @param name The block's name, e.g. `headline`.
 * @returns Its two markers.
 */
export function markers(name: string): { begin: string; end: string } {
  return { begin: `<!-- ${name}:begin -->`, end: `<!-- ${name}:end -->` };
}

/**
 * Puts `block` between the markers of `doc`, or, when `doc` has none, at
 * offset `insertAt(doc)` with its markers around it.
 *
 * @param doc The document.
 * @param block The generated text.
 * @param insertAt Where a first block goes.
 * @param name The block's name (`throughput` unless given).
 * @returns The new document.
 * @throws {SyntaxError} When only one of the markers is there, or the end
 *   comes first: the block's extent is then unknown and nothing is guessed.
 */
export function replaceBetween(
  doc: string,
  block: string,
  insertAt: (doc: string) => number,
  name = "throughput",
): string {
  const { begin, end } = markers(name);
  const wrapped = `${begin}\n\n${block.trim()}\n\n${end}`;
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a >= 0 && b > a) {
    return doc.slice(0, a) + wrapped + doc.slice(b + end.length);
  }
  if (a >= 0 || b >= 0) {
    throw new SyntaxError(
      `The document has ${
        a >= 0 ? begin : end
      } without its partner in order; fix or remove the markers, then run again.`,
    );
  }
  const at = insertAt(doc);
  const before = doc.slice(0, at).replace(/\n*$/, "");
  const after = doc.slice(at).replace(/^\n*/, "");
  return `${before}${before ? "\n\n" : ""}${wrapped}\n${
    after ? `\n${after}` : ""
  }`;
}

/**
 * The offset just after the first paragraph under the heading `heading`
 * (or the end of the document when the heading is missing).
 *
 * @param heading A full heading line, e.g. `## Benchmarks`.
 * @returns A function for `replaceBetween`.
 */
export function afterFirstParagraph(
  heading: string,
): (doc: string) => number {
  return (doc) => {
    const h = doc.startsWith(`${heading}\n`)
      ? 0
      : doc.indexOf(`\n${heading}\n`);
    if (h < 0) return doc.length;
    const body = doc.indexOf("\n\n", h + heading.length);
    if (body < 0) return doc.length;
    const end = doc.indexOf("\n\n", body + 2);
    return end < 0 ? doc.length : end + 1;
  };
}
