import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { createChecker } from "../../src/check/mod.ts";
import { type LoadedGrammar, loadGrammar } from "../../src/check/_engine.ts";
import { grammarFor } from "../../src/check/languages.ts";
import { openCommentIn, sameTokensInPlace } from "../../src/check/_lexical.ts";
import { fuzzRegions } from "../../bench/check_fuzz.ts";

/** `n` independent statements, so a region is a small part of the text. */
function filler(from: number, n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => `export const v${from + i} = ${from + i};`,
  );
}

/** A text of filler statements with `middle` between them and `end` below. */
function text(middle: string[], end: string[] = []): string {
  return [...filler(0, 20), ...middle, ...filler(20, 20), ...end, ""].join(
    "\n",
  );
}

/**
 * Edits after which a region parsed alone lexes otherwise than the whole
 * text does: each `after` is broken, and each `before` clean.
 */
const ACROSS_CUTS: { name: string; before: string; after: string }[] = [
  {
    name:
      "a `/*` that starts a regular expression in the region opens, in place, a comment closed below it",
    before: text([
      "export function isJs(name: string): boolean {",
      '  return name.endsWith(".js");',
      "}",
    ], ["/* a comment further down */", "export const z = 1;"]),
    after: text([
      "export function isJs(name: string): boolean {",
      "  return /*.js$/.test(name);",
      "}",
    ], ["/* a comment further down */", "export const z = 1;"]),
  },
  {
    name:
      "a `/*` regular expression above the region becomes a comment when the edit brings a `*/`",
    before: [
      "export const star = /*x/;",
      ...filler(0, 40),
      "export const w = 1;",
      ...filler(40, 20),
      "",
    ].join("\n"),
    after: [
      "export const star = /*x/;",
      ...filler(0, 40),
      "export const w = 1; /* note */",
      ...filler(40, 20),
      "",
    ].join("\n"),
  },
  {
    name: "a template literal opened in the region closes further down",
    before: text(["export const t = 1;"], ["export const u = `a", "b`;"]),
    after: text(["export const t = `1;"], ["export const u = `a", "b`;"]),
  },
  {
    name: "a string continued with a backslash runs across the next cut",
    before: text(['export const s = "a";', "export const k = 2;"]),
    after: text(['export const s = "a\\', "export const k = 2;"]),
  },
];

let grammar: LoadedGrammar;

before(async () => {
  const g = await loadGrammar(grammarFor("a.ts")!);
  assert.notEqual(typeof g, "string", "the TypeScript grammar is installed");
  grammar = g as LoadedGrammar;
});

/** The number of errors of a whole parse of `source`. */
function wholeErrors(source: string): number {
  const answer = grammar.parse(source, 5000);
  assert.equal(answer.kind, "parsed");
  if (answer.kind !== "parsed") return -1;
  answer.tree.delete();
  return answer.errors.length;
}

describe("the region check sees the tokens a whole parse sees", () => {
  it("finds a `/*` with no `*/` after it in a span", () => {
    const cases: [string, number, number, boolean][] = [
      ["a /* b */ c", 0, 11, false],
      ["a /* b", 0, 6, true],
      ["a /*/ b", 0, 7, true],
      ["a /**/ b", 0, 8, false],
      ["/* a */ /* b", 0, 12, true],
      ["x /* y */", 0, 6, true],
      ["x /* y */", 4, 9, false],
      ["", 0, 0, false],
    ];
    for (const [source, from, to, want] of cases) {
      assert.equal(openCommentIn(source, from, to), want, source);
    }
    const head = "const r = /*x/;\n";
    const region = "let w = 1; /* c */\n";
    const all = head + region + "let z = 2;\n";
    assert.equal(
      sameTokensInPlace(all, head.length, head.length + region.length),
      false,
    );
    assert.equal(
      sameTokensInPlace(
        head + "let w = 1;\n/* c */",
        head.length,
        head.length + 11,
      ),
      true,
      "a `*/` below the region leaves the regular expression above it be",
    );
  });

  for (const { name, before: old, after } of ACROSS_CUTS) {
    it(`long-lived checker: ${name}`, { timeout: 60_000 }, async () => {
      assert.equal(wholeErrors(old), 0, "the text before parses clean");
      assert.ok(wholeErrors(after) > 0, "the text after is broken");
      const checker = createChecker();
      assert.equal(
        (await checker.check({ path: "a.ts", before: null, after: old }))
          ?.status,
        "ok",
      );
      const c = await checker.check({ path: "a.ts", before: old, after });
      assert.equal(c?.status, "broken");
    });

    it(`later process (cuts from a receipt): ${name}`, {
      timeout: 60_000,
    }, async () => {
      const state = await mkdtemp(join(tmpdir(), "hashline-lexical-"));
      try {
        await createChecker({ stateDir: state }).check({
          path: "a.ts",
          before: null,
          after: old,
        });
        const c = await createChecker({ stateDir: state }).check({
          path: "a.ts",
          before: old,
          after,
        });
        assert.equal(c?.status, "broken");
      } finally {
        await rm(state, { recursive: true, force: true });
      }
    });
  }

  it(
    "random edits with comments, regular expressions, templates and strings: every answer agrees with a whole parse",
    {
      timeout: 120_000,
    },
    async () => {
      const tally = await fuzzRegions(400, 7122026);
      assert.equal(tally.letThrough, 0, JSON.stringify(tally.examples[0]));
      assert.equal(
        tally.disagreements,
        0,
        JSON.stringify(tally.examples[0] ?? null),
      );
      assert.ok(tally.broken >= 40, `${tally.broken} broken edits`);
      assert.ok(
        tally.byRegion >= 40,
        `${tally.byRegion} judged by their region`,
      );
    },
  );
});
