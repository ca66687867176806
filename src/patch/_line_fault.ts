const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a new line could not be written so that a read shows it as given
 * (docs/patch-format.md#new-lines), or null when it can. A `\n` (alone or in
 * `\r\n`) would end the line early; a NUL makes the file binary to every
 * read; a lone surrogate has no UTF-8 form. A `\r` is content anywhere: the
 * writer ends a line that ends in `\r` with `\r\n`, so it reads back whole.
 */
export function lineFault(line: string): string | null {
  const nl = line.indexOf("\n");
  if (nl >= 0) {
    return `holds a line break at character ${
      nl + 1
    }: give each line as its own entry, without terminators`;
  }
  const nul = line.indexOf("\0");
  if (nul >= 0) {
    return `holds a NUL character at character ${
      nul + 1
    }, which would make the file binary to every read: remove it`;
  }
  const m = LONE_SURROGATE.exec(line);
  if (m) {
    return `holds a lone surrogate (U+${
      m[0].charCodeAt(0).toString(16).toUpperCase()
    }) at character ${
      m.index + 1
    }, which is not text and cannot be written as UTF-8: send the whole character`;
  }
  return null;
}
