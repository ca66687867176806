/**
 * A generated TypeScript file of about 2,000 lines: documented classes
 * whose methods run 21 lines with their doc comments, a field, and
 * documented top-level functions, for outline measurements
 * in `bench:tools` and the outline tests.
 */

/** The file's text and which of its lines open a declaration or member. */
export interface OutlineSample {
  text: string;
  /** 1-based lines of top-level declarations and class members. */
  heads: number[];
}

/**
 * Builds the sample.
 *
 * @param lines About how many lines (default 2,000).
 * @returns The text and the lines an outline must show.
 */
export function outlineSample(lines = 2000): OutlineSample {
  const out: string[] = ['import { readFile } from "node:fs/promises";', ""];
  const heads: number[] = [1];
  const push = (line: string, head = false) => {
    out.push(line);
    if (head) heads.push(out.length);
  };
  let k = 0;
  while (out.length + 119 <= lines) {
    k++;
    push(`/** Totals of the files behind service ${k}, cached by id. */`);
    push(`export class Service${k} {`, true);
    push(`  private readonly cache = new Map<string, number>();`, true);
    for (let m = 0; m < 5; m++) {
      push(`  /**`);
      push(
        `   * Sums the lengths of the first lines of a file, weighted by ${
          m + 2
        }.`,
      );
      push(`   */`);
      push(
        `  async method${m}(id: string, limit = ${m + 1}): Promise<number> {`,
        true,
      );
      push(`    if (id === "") {`);
      push(
        `      throw new TypeError("Cannot total service ${k}: the id is empty.");`,
      );
      push(`    }`);
      push(`    const key = \`\${id}:${k}:${m}\`;`);
      push(`    const hit = this.cache.get(key);`);
      push(`    if (hit !== undefined) {`);
      push(`      return hit;`);
      push(`    }`);
      push(`    const text = await readFile(id, "utf8");`);
      push(`    let total = 0;`);
      push(`    for (const line of text.split("\\n").slice(0, limit)) {`);
      push(`      total += line.length * ${m + 2};`);
      push(`    }`);
      push(`    this.cache.set(key, total);`);
      push(`    return total;`);
      push(`  }`);
      push(``);
    }
    push(`}`);
    push(``);
    push(`/** Scales and sums the values. */`);
    push(`export function helper${k}(values: number[]): number {`, true);
    push(`  let sum = 0;`);
    push(`  for (const v of values) {`);
    push(`    sum += v * ${k};`);
    push(`  }`);
    push(`  return sum;`);
    push(`}`);
    push(``);
  }
  // A lookup table fills the file to `lines`: one declaration, a long body.
  push(`export const TABLE: readonly number[] = [`, true);
  for (let i = 0; out.length < lines - 1; i++) push(`  ${i * 7919 % 1000},`);
  push(`];`);
  return { text: out.join("\n") + "\n", heads };
}
