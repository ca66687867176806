import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createChecker } from "../../src/check/mod.ts";
import { type LoadedGrammar, loadGrammar } from "../../src/check/_engine.ts";
import { grammarFor } from "../../src/check/languages.ts";
import { type CutNode, cutsOf } from "../../src/check/_regions.ts";
import { hashline } from "../cli/_cli.ts";
import { tempTree } from "../http/_helpers.ts";

/** A TypeScript file whose statements lean on one another across lines. */
const BASE = `#!/usr/bin/env -S deno run
import { join } from "node:path";
/* a header comment
   over two lines */
export const re = /a+b/;
let x = 1;
let s = "aab";
let y = x
y = y * 2
x = x + 1;
re.test(s);
// a line comment
const t = \`one
two \${x}\`;
export function f(a: number): number {
  if (a > 1) {
    return a * 2;
  }
  return a;
}
const o = { a: 1, b: [1, 2] }; const p = 2;
class K {
  m(): void {}
  n = 3;
}
for (const k of [1, 2]) x += k;
x = 3
;[1, 2].forEach((v) => v);
export default f;
`;

/** Lines that join or split statements when dropped in among the others. */
const FRAGMENTS = [
  "x = a",
  "/re/.test(s)",
  "(x)",
  "[1]",
  "`",
  "/*",
  "*/",
  "}",
  "{",
  "+ 1",
  "++x",
  "in o",
  "`${",
  "// c",
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

let grammar: LoadedGrammar;
let original: LoadedGrammar["parse"];
let parsed: number[] = [];

before(async () => {
  const g = await loadGrammar(grammarFor("a.ts")!);
  assert.notEqual(typeof g, "string", "the TypeScript grammar is installed");
  grammar = g as LoadedGrammar;
  // Records the length of every text the checker parses (the grammar object
  // is the one it shares).
  const parse = original = grammar.parse;
  grammar.parse = (text, ms, base) => {
    parsed.push(text.length);
    return parse(text, ms, base);
  };
});

after(() => {
  grammar.parse = original;
});

/** The errors of a whole parse of `text`, and its cuts. */
function whole(text: string): { errors: number; cuts: number[] } {
  const answer = grammar.parse(text, 5000);
  assert.equal(answer.kind, "parsed");
  if (answer.kind !== "parsed") throw new Error("unreachable");
  try {
    const root = (answer.tree as unknown as { rootNode: CutNode }).rootNode;
    return { errors: answer.errors.length, cuts: cutsOf(root) };
  } finally {
    answer.tree.delete();
  }
}

/** The receipts in a state folder's `checks/`. */
async function receiptsIn(state: string): Promise<{ cuts?: unknown }[]> {
  const folder = join(state, "checks");
  return await Promise.all(
    (await readdir(folder)).map(async (f) =>
      JSON.parse(await readFile(join(folder, f), "utf8"))
    ),
  );
}

/** Whether some receipt in the state folder holds exactly these cuts. */
async function holdsCuts(state: string, cuts: number[]): Promise<boolean> {
  const want = JSON.stringify(cuts);
  return (await receiptsIn(state)).some((r) => JSON.stringify(r.cuts) === want);
}

/**
 * Runs `body` with a fresh state folder that holds the receipt of a check of
 * `text` (clean, so with its cuts), then removes the folder.
 */
async function withReceipt(
  text: string,
  body: (state: string) => Promise<void>,
): Promise<void> {
  const state = await mkdtemp(join(tmpdir(), "hashline-regions-"));
  try {
    await createChecker({ stateDir: state }).check({
      path: "a.ts",
      before: null,
      after: text,
    });
    await body(state);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}

/** A seeded generator, so a failure names the edit that caused it. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(text: string, next: () => number): string {
  const lines = text.split("\n");
  const at = 1 + Math.floor(next() * (lines.length - 2));
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
      lines.splice(at, 0, pick(FRAGMENTS));
      break;
    default:
      lines[at] = pick(lines);
  }
  return lines.join("\n");
}

describe("checks judged by the region an edit changed", () => {
  it("cuts fall where a statement starts and nothing above runs across", () => {
    const { errors, cuts } = whole(BASE);
    assert.equal(errors, 0);
    const rows = BASE.split("\n");
    const at = (prefix: string) => rows.findIndex((l) => l.startsWith(prefix));
    // The header comment and the template literal span rows: no cut inside.
    assert.ok(cuts.includes(at("export const re")));
    assert.ok(!cuts.includes(at("   over two lines")));
    assert.ok(!cuts.includes(at("two ${x}")));
    // A comment starts no cut; the statement after it does.
    assert.ok(!cuts.includes(at("// a line comment")));
    assert.ok(cuts.includes(at("const t =")));
    // Inside a function or a class: no cut.
    assert.ok(!cuts.includes(at("  return a;")));
    assert.ok(!cuts.includes(at("  n = 3;")));
    // The `;` that opens the line below `x = 3` ends that statement: no cut
    // before that line.
    assert.ok(cuts.includes(at("x = 3")));
    assert.ok(!cuts.includes(at(";[1, 2]")));
    assert.ok(cuts.includes(at("export default")));
    assert.deepEqual([...cuts].sort((a, b) => a - b), cuts);
  });

  it("a later process parses only the region, and its answer and cuts match a whole parse", async () => {
    await withReceipt(BASE, async (state) => {
      // One process checks an edit and leaves a receipt with cuts.
      const first = createChecker({ stateDir: state, saveAll: true });
      const one = BASE.replace("let x = 1;", "let x = 10;");
      assert.equal(
        (await first.check({ path: "a.ts", before: BASE, after: one }))
          ?.status,
        "ok",
      );
      assert.ok(
        await holdsCuts(state, whole(one).cuts),
        "a receipt of the new text carries its cuts",
      );
      // The next process judges its edit by the region alone.
      const second = createChecker({ stateDir: state, saveAll: true });
      const two = one.replace("    return a * 2;", "    return a * 3;");
      parsed = [];
      const c = await second.check({ path: "a.ts", before: one, after: two });
      assert.equal(c?.status, "ok");
      assert.equal(second.parses, 1);
      assert.equal(parsed.length, 1);
      assert.ok(
        parsed[0] < two.length / 2,
        `parsed ${parsed[0]} of ${two.length} characters`,
      );
      // Its receipt is reused, and its cuts are those of a whole parse.
      parsed = [];
      const third = await createChecker({ stateDir: state }).check({
        path: "a.ts",
        before: null,
        after: two,
      });
      assert.equal(third?.reused, true);
      assert.equal(parsed.length, 0);
      assert.ok(await holdsCuts(state, whole(two).cuts));
    });
  });

  it("a changed line that joins the next statement is judged whole: `x = a` before `/re/.test(s)`", async () => {
    const text = BASE.replace("x = x + 1;", "x = x + 1;\n/a/.test(s);");
    await withReceipt(text, async (state) => {
      // Each half parses alone; together the line break is a division.
      const joined = text.replace("x = x + 1;\n", "x = x + 1\n");
      assert.ok(whole(joined).errors > 0);
      const broken = await createChecker({ stateDir: state }).check({
        path: "a.ts",
        before: text,
        after: joined,
      });
      assert.equal(broken?.status, "broken");
    });
    // `f` followed by `(x)` parses clean as a call: the region runs into the
    // next statement, so the whole text is parsed.
    const base = text.replace("x = x + 1;\n/a/.test(s);", "x = f;\n(x);");
    await withReceipt(base, async (state) => {
      const call = base.replace("x = f;\n", "x = f\n");
      parsed = [];
      const fine = await createChecker({ stateDir: state, saveAll: true })
        .check({ path: "a.ts", before: base, after: call });
      assert.equal(fine?.status, "ok");
      assert.ok(parsed.includes(call.length), "the whole text was parsed");
      assert.ok(await holdsCuts(state, whole(call).cuts));
    });
  });

  it("a receipt whose cuts could not be the text's is ignored: the whole text is parsed", async () => {
    await withReceipt(BASE, async (state) => {
      const folder = join(state, "checks");
      for (const bad of [[9, 4], [0, 3], [1, 10_000], ["2"]]) {
        // Every receipt gets them, that of the edit's text from the turn
        // before included.
        for (const f of await readdir(folder)) {
          const r = JSON.parse(await readFile(join(folder, f), "utf8"));
          r.cuts = bad;
          await writeFile(join(folder, f), JSON.stringify(r));
        }
        const after = BASE.replace("let x = 1;", "let x = 1");
        parsed = [];
        const c = await createChecker({ stateDir: state }).check({
          path: "a.ts",
          before: BASE,
          after,
        });
        assert.equal(c?.status, "ok", JSON.stringify(bad));
        assert.ok(parsed.includes(after.length), JSON.stringify(bad));
      }
    });
  });

  it("random edits of statements that lean on one another: the region never calls a broken text clean", async () => {
    await withReceipt(BASE, async (state) => {
      const next = random(20261204);
      let byRegion = 0;
      let broken = 0;
      for (let i = 0; i < 240; i++) {
        let after = mutate(BASE, next);
        if (next() < 0.3) after = mutate(after, next);
        if (after === BASE) continue;
        const truth = whole(after);
        parsed = [];
        const c = await createChecker({ stateDir: state }).check({
          path: "a.ts",
          before: BASE,
          after,
        });
        assert.equal(
          c?.status,
          truth.errors > 0 ? "broken" : "ok",
          `edit ${i}: ${JSON.stringify(after)}`,
        );
        if (truth.errors > 0) broken++;
        if (parsed.length === 1 && parsed[0] < after.length) byRegion++;
      }
      // The walk exercised both answers, and the region answered many.
      assert.ok(broken >= 40, `${broken} broken edits`);
      assert.ok(byRegion >= 40, `${byRegion} edits judged by their region`);
    });
  });

  it("a long-lived checker judges a chain of edits by their regions, and still gives trees for blocks", async () => {
    const checker = createChecker();
    assert.equal(
      (await checker.check({ path: "a.ts", before: null, after: BASE }))
        ?.status,
      "ok",
    );
    const next = random(4122026);
    let text = BASE;
    let byRegion = 0;
    let broken = 0;
    for (let i = 0; i < 160; i++) {
      const after = mutate(text, next);
      if (after === text) continue;
      const truth = whole(after);
      parsed = [];
      const c = await checker.check({ path: "a.ts", before: text, after });
      assert.equal(
        c?.status,
        truth.errors > 0 ? "broken" : "ok",
        `edit ${i}: ${JSON.stringify(text)} -> ${JSON.stringify(after)}`,
      );
      if (parsed.length === 1 && parsed[0] < after.length / 2) byRegion++;
      // An agent goes on from an edit that landed clean.
      if (truth.errors > 0) broken++;
      else text = after;
      if (i % 40 === 39) {
        // The structure of a text judged by its region is a real tree of it.
        const found = await checker.structure!("a.ts", text);
        assert.equal(found.kind, "tree");
        if (found.kind !== "tree") continue;
        const root = found.root as unknown as {
          text: string;
          hasError: boolean;
        };
        assert.equal(root.text, text);
        assert.equal(root.hasError, false);
      }
    }
    assert.ok(broken >= 20, `${broken} broken edits`);
    assert.ok(byRegion >= 40, `${byRegion} edits judged by their region`);
  });

  it("CLI: a patch process leaves the new text's cuts for the next one, which still refuses a join", async () => {
    const source = BASE.replace("x = x + 1;", "x = x + 1;\n/a/.test(s);");
    const tree = await tempTree({ "a.ts": source });
    try {
      const run = {
        cwd: tree.dir,
        env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
      };
      const read = await hashline(["read", "a.ts"], run);
      assert.equal(read.code, 0, read.stderr);
      const anchorOf = (text: string, line: string) =>
        text.split("\n").find((l) => l.endsWith(`|${line}`))!.split("|")[0];
      const first = await hashline(["patch", "-"], {
        ...run,
        input: `@@ a.ts\n= ${
          anchorOf(read.stdout, "let x = 1;")
        }\n~let x = 2;\n`,
      });
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(first.stdout, /Warning/);
      const now = await readFile(join(tree.dir, "a.ts"), "utf8");
      assert.ok(
        await holdsCuts(join(tree.dir, ".hashline"), whole(now).cuts),
        "the first process left the new text's cuts",
      );
      assert.ok(
        await holdsCuts(join(tree.dir, ".hashline"), whole(source).cuts),
        "and those of the text before, which it parsed whole",
      );
      const reread = await hashline(["read", "a.ts"], run);
      const refused = await hashline(["patch", "-", "--check", "refuse"], {
        ...run,
        input: `@@ a.ts\n= ${
          anchorOf(reread.stdout, "x = x + 1;")
        }\n~x = x + 1\n`,
      });
      assert.equal(refused.code, 1, refused.stdout + refused.stderr);
      assert.match(refused.stdout + refused.stderr, /SYNTAX|syntax error/);
      assert.equal(await readFile(join(tree.dir, "a.ts"), "utf8"), now);
    } finally {
      await tree.cleanup();
    }
  });
});
