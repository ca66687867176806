/**
 * One cold process of the syntax check, for `check_cost.ts`: loads the
 * checker's engine, `web-tree-sitter` and the TypeScript grammar, parses the
 * file named on the command line once, and prints what each step took as one
 * JSON line: wall milliseconds of each step, and the process's CPU time
 * (every thread) during the parse and in the 300 ms after it, when V8's
 * optimizing tier is still compiling the parser's hot functions in the
 * background.
 *
 * Usage: `deno run -A bench/_check_cold.ts FILE.ts`
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import process from "node:process";

function cpuMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

const file = process.argv[2];
if (!file) throw new TypeError("Name the TypeScript file to parse.");
const text = await readFile(file, "utf8");
const t0 = performance.now();
const { loadGrammar } = await import("../src/check/_engine.ts");
const { grammarFor } = await import("../src/check/languages.ts");
const t1 = performance.now();
const grammar = await loadGrammar(grammarFor("cold.ts")!);
if (typeof grammar === "string") throw new Error(grammar);
const t2 = performance.now();
const c0 = cpuMs();
const answer = grammar.parse(text, 60_000);
const t3 = performance.now();
const c1 = cpuMs();
if (answer.kind !== "parsed") throw new Error("the parse did not finish");
await new Promise((settle) => setTimeout(settle, 300));
const c2 = cpuMs();
console.log(JSON.stringify({
  modules: t1 - t0,
  grammar: t2 - t1,
  parse: t3 - t2,
  parseCpu: c1 - c0,
  afterCpu: c2 - c1,
}));
