/**
 * Edit cost on content in memory (not a test): one replaced line in a
 * 10,000-line file through `applyPatch` (ops and text form), `editContent`
 * and `applyHashlineEdit`, each as a ratio against a slice floor measured in
 * the same run — the least any edit by line number must do: find the line's
 * offsets with an `indexOf` loop and splice the new line in with two slices.
 * A split-and-join of the whole content is printed too, as the cost every
 * edit used to pay.
 *
 *   node_modules/.bin/deno task bench:patch [--lines N] [--line K] [--rounds R] [--json]
 *
 * `--json` adds a last line `RESULT {json}` with the medians.
 */
import process from "node:process";
import { joinLines, splitLines } from "../src/anchor/split.ts";
import { foldHash, hex2, lineHash32 } from "../src/hash/fnv.ts";
import { applyHashlineEdit } from "../src/patch/hashline_edit.ts";
import { applyPatch, editContent } from "../src/patch/apply.ts";
import type { PatchOp } from "../src/patch/types.ts";
import { printSummary } from "./_summary.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const LINES = flag("lines", 10_000);
const LINE = flag("line", Math.floor(LINES / 2));
const ROUNDS = flag("rounds", 9);
const CALLS = 500;

const content = Array.from(
  { length: LINES },
  (_, i) => `  const value${i} = compute(${i}, "item-${i * 7919 % 10007}");`,
).join("\n") + "\n";
const old = splitLines(content).lines[LINE - 1];
const hash = hex2(foldHash(lineHash32(old)));
const NEW = "  const replaced = true;";
const ops: PatchOp[] = [{
  op: "replace",
  start: `${LINE}:${hash}`,
  lines: [NEW],
}];
const patchText = `= ${LINE}:${hash}\n~${NEW}\n`;

/** Finds line k's offsets with an indexOf loop and splices the new line in. */
function sliceFloor(text: string, k: number, line: string): string {
  let start = 0;
  for (let n = 1; n < k; n++) start = text.indexOf("\n", start) + 1;
  const end = text.indexOf("\n", start);
  return text.slice(0, start) + line + text.slice(end);
}

const cases: [string, () => string][] = [
  ["slice floor", () => sliceFloor(content, LINE, NEW)],
  ["applyPatch (ops)", () => applyPatch(content, ops)],
  ["applyPatch (text form)", () => applyPatch(content, patchText)],
  ["editContent", () => editContent(content, ops).content],
  [
    "applyHashlineEdit",
    () =>
      applyHashlineEdit(content, {
        startLine: LINE,
        startHash: hash,
        newContent: NEW,
      }).content,
  ],
  ["split + join (whole content)", () => {
    const s = splitLines(content);
    s.lines[LINE - 1] = NEW;
    return joinLines(s);
  }],
];

const expected = sliceFloor(content, LINE, NEW);
for (const [name, run] of cases.slice(0, 5)) {
  if (run() !== expected) throw new Error(`${name} gave another result`);
}

let sink = 0;
const samples = new Map<string, number[]>(cases.map(([n]) => [n, []]));
for (let r = 0; r < ROUNDS + 1; r++) {
  for (const [name, run] of cases) {
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) sink += run().length;
    const per = (performance.now() - t0) * 1000 / CALLS;
    if (r > 0) samples.get(name)!.push(per);
  }
}
const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const floor = median(samples.get("slice floor")!);
console.log(
  `One replaced line (line ${LINE}) in ${LINES} lines, ${content.length} chars; median of ${ROUNDS} rounds × ${CALLS} calls.`,
);
console.log("| call | µs per call | × slice floor |");
console.log("| --- | ---: | ---: |");
for (const [name] of cases) {
  const m = median(samples.get(name)!);
  console.log(`| ${name} | ${m.toFixed(1)} | ${(m / floor).toFixed(2)} |`);
}
if (sink === 0) console.log("");
printSummary("patch", {
  lines: LINES,
  line: LINE,
  chars: content.length,
  rounds: ROUNDS,
  calls: CALLS,
  cases: cases.map(([name]) => ({
    name,
    usPerCall: median(samples.get(name)!),
  })),
});
