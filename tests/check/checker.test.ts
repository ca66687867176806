import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createChecker, describeCheck } from "../../src/check/mod.ts";
import { loadGrammar } from "../../src/check/_engine.ts";
import { Receipts } from "../../src/check/_receipts.ts";
import { applyEdit, SAMPLES } from "./_samples.ts";

describe("syntax checker with the real grammars", () => {
  for (const s of SAMPLES) {
    it(`${s.path}: catches the introduced error, and no alarm on the correct edit`, async () => {
      const checker = createChecker();
      const clean = await checker.check({
        path: s.path,
        before: null,
        after: s.text,
      });
      assert.equal(
        clean?.status,
        "ok",
        `the sample itself parses: ${JSON.stringify(clean)}`,
      );
      const good = await checker.check({
        path: s.path,
        before: s.text,
        after: applyEdit(s.text, s.good),
      });
      assert.equal(good?.status, "ok", JSON.stringify(good));
      const badText = applyEdit(s.text, s.bad);
      const bad = await checker.check({
        path: s.path,
        before: s.text,
        after: badText,
      });
      assert.equal(bad?.status, "broken", `${s.path}: ${JSON.stringify(bad)}`);
      assert.ok(bad.errors.length >= 1);
      const lines = badText.split("\n");
      for (const e of bad.errors) {
        assert.match(e.anchor, /^\d+:[0-9a-f]{2}$/);
        assert.equal(Number(e.anchor.split(":")[0]), e.line);
        assert.ok(e.context.includes(`${e.anchor}|${lines[e.line - 1]}`));
      }
      assert.match(describeCheck(bad), /introduces \d+ .* syntax error/);
    });
  }

  it("a TS edit dropping a closing brace names the line of the error", async () => {
    const before = "function f() {\n  return 1;\n}\n\nexport const x = f();\n";
    const after = "function f() {\n  return 1;\n\nexport const x = f();\n";
    const c = await createChecker().check({ path: "a.ts", before, after });
    assert.equal(c?.status, "broken");
    assert.equal(c.errors[0].message, 'missing "}"');
    assert.equal(c.errors[0].line, 4);
    assert.match(describeCheck(c), /- line 4 \(4:[0-9a-f]{2}\): missing "\}"/);
    assert.match(c.errors[0].context, /^2:[0-9a-f]{2}\| {2}return 1;\n3:/);
  });

  it("an error that was there before gets no blame for a valid edit elsewhere", async () => {
    const checker = createChecker();
    const broken = [
      "export function a(x: number) {",
      "  return (x + 1;",
      "}",
      "",
      ...Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i};`),
      "",
    ].join("\n");
    const moved = "// header\n// more\n" +
      broken.replace(
        "export const v20 = 20;",
        "export const v20 = 21;\nexport const w = [1, 2];",
      );
    const c = await checker.check({
      path: "x.ts",
      before: broken,
      after: moved,
    });
    assert.equal(c?.status, "ok", JSON.stringify(c));
    // The same edit that breaks something new is still caught.
    const worse = moved.replace(
      "export const w = [1, 2];",
      "export const w = [1, 2;",
    );
    const d = await checker.check({
      path: "x.ts",
      before: broken,
      after: worse,
    });
    assert.equal(d?.status, "broken");
    assert.equal(d.errors.length, 1);
    assert.ok(d.errors[0].context.includes("[1, 2;"));
  });

  it("re-checking unchanged content reuses the receipt, in memory and from the state folder", async () => {
    const state = await mkdtemp(join(tmpdir(), "hashline-check-"));
    try {
      const s = SAMPLES[0];
      const bad = applyEdit(s.text, s.bad);
      const first = createChecker({ stateDir: state });
      const a = await first.check({ path: s.path, before: s.text, after: bad });
      assert.equal(a?.reused, false);
      assert.equal(
        first.parses,
        2,
        "the new content, then the old one to subtract its errors",
      );
      const again = await first.check({
        path: s.path,
        before: s.text,
        after: bad,
      });
      assert.equal(first.parses, 2, "a lookup, no parse");
      assert.equal(again?.reused, true);
      assert.deepEqual(again?.errors, a?.errors);
      assert.ok((await readdir(join(state, "checks"))).length >= 2);
      const second = createChecker({ stateDir: state });
      const b = await second.check({
        path: s.path,
        before: s.text,
        after: bad,
      });
      assert.equal(
        second.parses,
        0,
        "another process reads the receipts from the state folder",
      );
      assert.equal(b?.reused, true);
      assert.deepEqual(b?.errors, a?.errors);
      // Other options are another checker identity: no reuse.
      const other = createChecker({ stateDir: state, maxBytes: 1024 * 1024 });
      await other.check({ path: s.path, before: s.text, after: bad });
      assert.equal(other.parses, 2);
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });

  it("the receipts folder stays bounded: the oldest receipts go first", async () => {
    const state = await mkdtemp(join(tmpdir(), "hashline-check-"));
    try {
      const folder = join(state, "checks");
      const receipts = new Receipts(folder, 4, {
        maxFiles: 10,
        pruneChance: 1,
      });
      const keys: string[] = [];
      for (let i = 0; i < 30; i++) {
        const key = await receipts.keyOf(`sha${i}`, "identity", "options");
        keys.push(key);
        await receipts.put(key, { errors: [] });
        // Distinct modification times, whatever the file system's grain.
        await utimes(join(folder, `${key}.json`), 1000 + i, 1000 + i);
      }
      const left = (await readdir(folder)).map((f) => f.replace(/\.json$/, ""));
      assert.ok(left.length <= 10, `${left.length} receipts left`);
      assert.ok(left.length >= 7);
      // The newest are kept, the oldest gone; a pruned receipt is a miss.
      assert.deepEqual(left.sort(), keys.slice(-left.length).sort());
      const fresh = new Receipts(folder, 4);
      assert.equal(await fresh.get(keys[0]), null);
      assert.deepEqual(await fresh.get(keys[29]), { errors: [] });
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  });

  it("a chain of edits parsed incrementally finds what a fresh parse finds", async () => {
    const chained = createChecker();
    let text = SAMPLES[0].text;
    await chained.check({ path: "c.ts", before: null, after: text });
    const steps: [string, string][] = [
      SAMPLES[0].good,
      [
        "export interface Point {\n",
        "// a comment\nexport interface Point {\n",
      ],
      SAMPLES[0].bad,
      ["  y: number;\n", "  y: number;\n  z?: number;\n"],
    ];
    for (const step of steps) {
      const next = applyEdit(text, step);
      const parsesBefore = chained.parses;
      const a = await chained.check({
        path: "c.ts",
        before: text,
        after: next,
      });
      assert.equal(
        chained.parses - parsesBefore,
        1,
        "one (incremental) parse per edit",
      );
      const fresh = await createChecker().check({
        path: "c.ts",
        before: text,
        after: next,
      });
      assert.deepEqual(a?.errors, fresh?.errors);
      assert.equal(a?.status, fresh?.status);
      text = next;
    }
  });

  it("does not check files over the size bound, nor parses past the deadline, and says so", async () => {
    const big = "export const a = 1;\n".repeat(200_000);
    const c = await createChecker().check({
      path: "big.ts",
      before: null,
      after: big,
    });
    assert.equal(c?.status, "skipped");
    assert.match(c.note ?? "", /over the 2 MiB limit/);
    const slow = createChecker({ timeoutMs: 0 });
    const d = await slow.check({
      path: "slow.ts",
      before: null,
      after: big.slice(0, 1_500_000),
    });
    assert.equal(d?.status, "skipped");
    assert.match(d.note ?? "", /parsing took over 0 ms/);
  });

  it("a missing grammar package means no check, with a note naming it", async () => {
    const note = await loadGrammar({
      language: "cobol",
      package: "tree-sitter-surely-not-installed",
      wasm: "tree-sitter-cobol.wasm",
    });
    assert.equal(typeof note, "string");
    assert.match(
      note as string,
      /install the npm package tree-sitter-surely-not-installed/,
    );
  });

  it("files without a grammar are not checked at all", async () => {
    assert.equal(
      await createChecker().check({
        path: "README.md",
        before: null,
        after: "# x",
      }),
      null,
    );
  });
});
