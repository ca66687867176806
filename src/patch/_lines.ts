/** Splits one entry of an op's `lines` at embedded line breaks (`\n` or `\r\n`). */
export function splitEntry(entry: string): string[] {
  return entry.includes("\n") ? entry.split(/\r?\n/) : [entry];
}

/** The new lines of an op, with embedded line breaks split into separate lines. */
export function newLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of lines) {
    if (entry.includes("\n")) out.push(...splitEntry(entry));
    else out.push(entry);
  }
  return out;
}
