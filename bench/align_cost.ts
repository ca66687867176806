/**
 * What the drift alignment costs on a 100,000-line file: the record of a
 * whole read aligned with the file after a small drift and after a large
 * one, a few queried lines, best of a few rounds.
 *
 * Run: `deno task bench:align` (or `deno run -A bench/align_cost.ts`).
 *
 * @module
 */
import { alignRecord } from "../src/patch/align.ts";
import { lineHash32 } from "../src/hash/fnv.ts";

const LINES = 100_000;
const ROUNDS = 3;

function source(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = i % 12;
    out.push(
      k === 0
        ? `export function f${i}(x: number): number {`
        : k === 11
        ? "}"
        : k === 6
        ? ""
        : `  const v${i} = x * ${i % 97} + ${k};`,
    );
  }
  return out;
}

function drifted(
  read: string[],
  edits: number,
  block: number,
  copies: boolean,
): string[] {
  const now = read.slice();
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(((e + 1) * now.length) / (edits + 2));
    const added = Array.from(
      { length: block },
      (_, k) => copies ? read[at + k] : `// ${e}.${k}`,
    );
    now.splice(at, 0, ...added);
    now.splice(at + block + 50, 1);
  }
  return now;
}

const read = source(LINES);
const lines = read.map((_, i) => i + 1);
const hashes = read.map(lineHash32);
const query = [10, 50_000, 99_990];
const rows: [string, number, number, number][] = [];
for (
  const [name, edits, block, copies] of [
    ["unchanged", 0, 0, false],
    ["small drift (5 new lines, 5 removed)", 5, 1, false],
    ["large drift (2,000 new lines, 20 removed)", 20, 100, false],
    ["small drift of copies (5 lines copied, 5 removed)", 5, 1, true],
    ["large drift of copies (2,000 lines copied, 20 removed)", 20, 100, true],
  ] as const
) {
  const now = drifted(read, edits, block, copies).map(lineHash32);
  let best = Infinity;
  let pairs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    pairs = alignRecord(lines, hashes, now, query).pairs;
    best = Math.min(best, performance.now() - t);
  }
  rows.push([name, now.length, pairs, best]);
}
console.log(
  `alignment of a ${
    LINES.toLocaleString("en")
  }-line record, best of ${ROUNDS}:`,
);
console.log("| drift | lines now | pairs | ms |");
console.log("| --- | ---: | ---: | ---: |");
for (const [name, n, pairs, ms] of rows) {
  console.log(`| ${name} | ${n} | ${pairs} | ${ms.toFixed(1)} |`);
}
