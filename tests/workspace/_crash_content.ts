/** The content of file `name` at generation `gen` in the crash tests. */
export function generation(name: string, gen: number): string {
  return Array.from(
    { length: 300 },
    (_, i) => `${name} generation ${gen} line ${i}`,
  ).join("\n") +
    "\n";
}
