/**
 * The region check against whole parses (docs/syntax-checks.md, "Regions"):
 * random edits of TypeScript texts whose statements lean on one another,
 * each judged by a long-lived checker (by the region it changed wherever
 * the region can prove it) and by a whole parse of the new text. Prints how
 * many answers agree, how many disagree (an edit the check would let
 * through broken, which makes it exit 1, or one it would refuse clean), and
 * how many the region answered. The edits go along a chain, as an agent's do: from a text that
 * parsed clean to the next.
 *
 * The texts and fragments hold what a region alone can misread: block
 * comments opened in one place and closed far below, `/*` at the start of a
 * regular expression, template literals and strings over several lines, and
 * lines that join or split statements under automatic semicolon insertion.
 *
 * Usage:
 *   deno task bench:check-fuzz [--edits=N] [--seed=N]
 *
 * `tests/check/lexical.test.ts` runs a few hundred of these edits.
 *
 * @module
 */
import process from "node:process";
import { createChecker } from "../src/check/mod.ts";
import { type LoadedGrammar, loadGrammar } from "../src/check/_engine.ts";
import { grammarFor } from "../src/check/languages.ts";

/** Texts the chains start from: each parses clean. */
export const FUZZ_BASES: readonly string[] = [
  [
    'import { join } from "node:path";',
    "/* a header comment",
    "   over two lines */",
    "export const re = /a+b/;",
    "let x = 1;",
    'let s = "aab";',
    "let y = x",
    "y = y * 2",
    "x = x + 1;",
    "re.test(s);",
    "// a line comment",
    "const t = `one",
    "two ${x}`;",
    "export function isJs(name: string): boolean {",
    '  return name.endsWith(".js");',
    "}",
    "const o = { a: 1, b: [1, 2] }; const p = 2;",
    "class K {",
    "  m(): void {}",
    "  n = 3;",
    "}",
    'const u = "a\\',
    'b";',
    "for (const k of [1, 2]) x += k;",
    "x = 3",
    ";[1, 2].forEach((v) => v);",
    "/** A doc comment. */",
    "export default isJs;",
    "",
  ].join("\n"),
  [
    "const star = /*x/;",
    "let a = 1;",
    "let b = `",
    "`;",
    "function g(): number {",
    "  return a;",
    "}",
    "let c = a + b.length;",
    "export { a, b, c, g, star };",
    "",
  ].join("\n"),
];

/** Lines that join, split or reopen statements when dropped in among the others. */
export const FUZZ_FRAGMENTS: readonly string[] = [
  "x = a",
  "/re/.test(s)",
  "(x)",
  "[1]",
  "`",
  "/*",
  "*/",
  "/* c */",
  "return /*.js$/.test(name);",
  "const r = /*x/;",
  'const q = "/*";',
  "// see /*",
  "let w = `a",
  "b`;",
  '"a\\',
  "}",
  "{",
  "+ 1",
  "++x",
  "`${",
  "let y = 2;",
  "function g() {",
  "  return 1;",
  "f(1)",
  "?.b",
  "<T>(v: T) => v",
  ";",
  "as const",
  '"',
];

/** A seeded generator, so a disagreement names the edit that caused it. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One random edit of a text: a line dropped, doubled, swapped with the next,
 * stripped of its `;`, a fragment put in, or a line replaced by another.
 */
export function fuzzEdit(text: string, next: () => number): string {
  const lines = text.split("\n");
  const at = Math.floor(next() * (lines.length - 1));
  const pick = <T>(list: readonly T[]) =>
    list[Math.floor(next() * list.length)];
  switch (Math.floor(next() * 6)) {
    case 0:
      lines.splice(at, 1);
      break;
    case 1:
      lines.splice(at, 0, lines[at]);
      break;
    case 2:
      [lines[at], lines[at + 1]] = [lines[at + 1] ?? "", lines[at]];
      break;
    case 3:
      lines[at] = lines[at].replace(/;\s*$/, "");
      break;
    case 4:
      lines.splice(at, 0, pick(FUZZ_FRAGMENTS));
      break;
    default:
      lines[at] = pick(lines);
  }
  return lines.join("\n");
}

/** What a fuzz run found. */
export interface FuzzTally {
  /** Edits judged. */
  edits: number;
  /** Edits whose check agreed with the whole parse. */
  agreements: number;
  /** Edits whose check did not (the first ones listed in `examples`). */
  disagreements: number;
  /** Of those, edits the check called clean that a whole parse finds broken. */
  letThrough: number;
  /** Edits the whole parse found broken. */
  broken: number;
  /** Edits judged by their region (one parse, shorter than the text). */
  byRegion: number;
  /** The first disagreements: the text before and after. */
  examples: { before: string; after: string; check: string; whole: number }[];
}

/**
 * Runs `edits` random edits (each changing its text) along chains from
 * {@link FUZZ_BASES}, each checked by one long-lived checker and by a whole
 * parse.
 *
 * @param edits How many edits.
 * @param seed The generator's seed.
 * @returns The tally.
 */
export async function fuzzRegions(
  edits: number,
  seed: number,
): Promise<FuzzTally> {
  const loaded = await loadGrammar(grammarFor("a.ts")!);
  if (typeof loaded === "string") throw new Error(loaded);
  const grammar: LoadedGrammar = loaded;
  const parse = grammar.parse;
  let parsed: number[] = [];
  // The checker shares this grammar object: every text it parses is seen.
  grammar.parse = (text, ms, base) => {
    parsed.push(text.length);
    return parse(text, ms, base);
  };
  const whole = (text: string): number => {
    const answer = parse(text, 5000);
    if (answer.kind !== "parsed") throw new Error("a whole parse timed out");
    answer.tree.delete();
    return answer.errors.length;
  };
  const tally: FuzzTally = {
    edits: 0,
    agreements: 0,
    disagreements: 0,
    letThrough: 0,
    broken: 0,
    byRegion: 0,
    examples: [],
  };
  try {
    const next = seeded(seed);
    let checker = createChecker();
    let text = "";
    for (let i = 0; tally.edits < edits; i++) {
      // A fresh chain now and then, so texts stay near their bases.
      if (i % 200 === 0) {
        checker = createChecker();
        text = FUZZ_BASES[(i / 200) % FUZZ_BASES.length];
        await checker.check({ path: "a.ts", before: null, after: text });
      }
      let after = fuzzEdit(text, next);
      if (next() < 0.3) after = fuzzEdit(after, next);
      if (after === text) continue;
      const truth = whole(after);
      parsed = [];
      const c = await checker.check({ path: "a.ts", before: text, after });
      tally.edits++;
      if (truth > 0) tally.broken++;
      if (parsed.length === 1 && parsed[0] < after.length) tally.byRegion++;
      const want = truth > 0 ? "broken" : "ok";
      if (c?.status === want) tally.agreements++;
      else {
        tally.disagreements++;
        if (truth > 0) tally.letThrough++;
        if (tally.examples.length < 5) {
          tally.examples.push({
            before: text,
            after,
            check: c?.status ?? "none",
            whole: truth,
          });
        }
      }
      if (truth === 0) text = after;
    }
  } finally {
    grammar.parse = parse;
  }
  return tally;
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) =>
    Number(
      process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ??
        fallback,
    );
  const edits = arg("edits", 100_000);
  const seed = arg("seed", 20261207);
  const t0 = performance.now();
  const tally = await fuzzRegions(edits, seed);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(
    `check fuzz: ${tally.edits} edits (seed ${seed}, ${seconds} s): ` +
      `${tally.agreements} agreements, ${tally.disagreements} disagreements ` +
      `(${tally.letThrough} broken edits called clean, ` +
      `${tally.disagreements - tally.letThrough} clean edits called broken); ` +
      `${tally.broken} broken, ${tally.byRegion} judged by their region`,
  );
  for (const e of tally.examples) {
    console.log(
      `disagreement: check ${e.check}, whole parse ${e.whole} errors\n` +
        `before: ${JSON.stringify(e.before)}\nafter:  ${
          JSON.stringify(e.after)
        }`,
    );
  }
  // A broken edit called clean is what `refuse` must never do.
  if (tally.letThrough > 0) process.exitCode = 1;
}
