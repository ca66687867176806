import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createChecker } from "../../src/check/checker.ts";
import type { Checker } from "../../src/check/checker.ts";
import { loadGrammar, rootOf } from "../../src/check/_engine.ts";
import { SyntaxGate } from "../../src/check/gate.ts";
import { GRAMMARS } from "../../src/check/languages.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";
import { SAMPLES } from "./_samples.ts";

/** A long TypeScript file: enough work for a parse to take many slices. */
function longSource(functions: number): string {
  const out: string[] = [];
  for (let i = 0; i < functions; i++) {
    out.push(
      `export function f${i}(x: number, ys: readonly number[]): number {`,
      `  const total = ys.reduce((a, b) => a + b, 0) * ${i};`,
      `  return x > total ? x - total : { value: total, at: [x, ${i}] }.value;`,
      `}`,
      "",
    );
  }
  return out.join("\n");
}

const BROKEN = longSource(300).replace("export function f150(", "function (") +
  "export const tail = {\n";

/** The tree of `text` as a string, and its errors, from a parse run whole. */
async function whole(path: string, text: string) {
  const grammar = await loadGrammar(
    GRAMMARS[path.slice(path.lastIndexOf("."))],
  );
  assert.notEqual(typeof grammar, "string");
  const g = grammar as Exclude<typeof grammar, string>;
  const a = g.parse(text, 10_000);
  assert.equal(a.kind, "parsed");
  if (a.kind !== "parsed") throw new Error("unreachable");
  const shape = String(rootOf(a.tree));
  a.tree.delete();
  return { g, shape, errors: a.errors };
}

describe("parsing ahead of a check, a slice at a time", () => {
  it("a parse run in slices gives the tree and errors a whole parse gives", {
    timeout: 60_000,
  }, async () => {
    const texts: [string, string][] = [
      ["long.ts", longSource(300)],
      ["broken.ts", BROKEN],
      ...SAMPLES.map((s) => [s.path, s.text] as [string, string]),
    ];
    for (const [path, text] of texts) {
      const { g, shape, errors } = await whole(path, text);
      const sliced = await g.parseInSlices(text, 10_000).done;
      assert.equal(sliced.kind, "parsed", path);
      if (sliced.kind !== "parsed") continue;
      assert.deepEqual(sliced.errors, errors, path);
      assert.equal(String(rootOf(sliced.tree)), shape, path);
      sliced.tree.delete();
    }
  });

  it(
    "finishing a sliced parse at once, and one waiting behind another, give the same answer",
    {
      timeout: 60_000,
    },
    async () => {
      const text = BROKEN;
      const { g, shape, errors } = await whole("a.ts", text);
      const first = g.parseInSlices(longSource(400), 10_000);
      const second = g.parseInSlices(text, 10_000);
      // The second waits for the first: finishing it now parses it whole.
      const now = second.finish();
      assert.equal(now?.kind, "parsed");
      assert.deepEqual(now?.kind === "parsed" && now.errors, errors);
      assert.equal(now?.kind === "parsed" && String(rootOf(now.tree)), shape);
      assert.equal(await second.done, now);
      const firstNow = first.finish();
      assert.equal(firstNow?.kind, "parsed");
      assert.equal(await first.done, firstNow);
      // A third, started after both ended, is finished part way through.
      const third = g.parseInSlices(text, 10_000);
      await new Promise((r) => setTimeout(r, 0));
      const done = third.finish();
      assert.equal(done?.kind, "parsed");
      assert.deepEqual(done?.kind === "parsed" && done.errors, errors);
      assert.equal(done?.kind === "parsed" && String(rootOf(done.tree)), shape);
      for (const a of [now, firstNow, done]) {
        if (a?.kind === "parsed") a.tree.delete();
      }
    },
  );

  it(
    "a sliced parse never resumes another text's parse cut short, even behind one finished early",
    {
      timeout: 60_000,
    },
    async () => {
      const long = longSource(400);
      const small = "export const a = { b: [1, 2] };\n";
      const other = "function f(x: number) {\n  return x + 1;\n}\n";
      const wantLong = await whole("a.ts", long);
      const wantOther = await whole("a.ts", other);
      const g = wantLong.g;
      const first = g.parseInSlices(long, 10_000);
      const second = g.parseInSlices(small, 10_000);
      assert.equal(second.finish()?.kind, "parsed");
      // A few turns of the event loop: the first parse runs, cut into slices.
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      const third = g.parseInSlices(other, 10_000);
      for (
        const [job, want] of [[third, wantOther], [first, wantLong]] as const
      ) {
        const a = await job.done;
        assert.equal(a.kind, "parsed");
        if (a.kind !== "parsed") continue;
        assert.equal(String(rootOf(a.tree)), want.shape);
        assert.deepEqual(a.errors, want.errors);
        a.tree.delete();
      }
    },
  );

  it(
    "a check after a prime parses incrementally and answers as a check without one",
    {
      timeout: 60_000,
    },
    async () => {
      const before = longSource(200);
      const after = before.replace(
        "export function f120(x: number",
        "export function f120(x: number,,",
      );
      const plain = await createChecker().check({
        path: "a.ts",
        before,
        after,
      });
      const primed = createChecker();
      primed.prime!("a.ts", before);
      const c = await primed.check({ path: "a.ts", before, after });
      assert.equal(c?.status, "broken");
      assert.deepEqual(c, plain);
      assert.equal(
        primed.parses,
        3,
        "the prime's parse, the edit's region (which has the error), and one incremental",
      );
      const again = await primed.check({ path: "a.ts", before, after: before });
      assert.equal(again?.status, "ok");
      assert.equal(again?.reused, true, "the primed text's answer is reused");
      assert.equal(
        primed.holds!("a.ts"),
        true,
        "it holds the last text's tree",
      );
      assert.equal(primed.holds!("b.ts"), false);
    },
  );

  it(
    "the gate primes the files a patch names, text and JSON forms, never under off, nor a file whose tree it holds",
    {
      timeout: 30_000,
    },
    async () => {
      const seen: string[] = [];
      const reads: string[] = [];
      const checker: Checker = {
        parses: 0,
        check: () => Promise.resolve(null),
        prime(path, text) {
          seen.push(`${path}=${text}`);
        },
        holds: (path) => path === "held.ts",
      };
      const read = (path: string) => {
        reads.push(path);
        return Promise.resolve(
          path.endsWith("gone.ts") ? null : `text of ${path}`,
        );
      };
      const primed = async (patch: unknown, mode?: string) => {
        seen.length = 0;
        reads.length = 0;
        const gate = new SyntaxGate("warn", null, checker);
        gate.prime(patch, mode, read);
        // A check waits for the primes to hand their files over.
        await gate.run([{ path: "notes.txt", before: "", after: "x" }]);
        return [...seen];
      };
      assert.deepEqual(
        await primed(
          "@@ src/a.ts\n= 1:aa\n~x\n@@ notes.md\n- 2:bb\n@@+ src/new.ts\n+\n~y\n@@ src/a.ts\n- 3:cc\n@@ src/gone.ts\n- 1:dd\n@@ src/b.py\n- 1:ee\n",
        ),
        ["src/a.ts=text of src/a.ts", "src/b.py=text of src/b.py"],
      );
      assert.deepEqual(
        await primed(
          JSON.stringify({
            files: [
              { path: "x.ts", ops: [] },
              { path: "y.ts", create: true, ops: [] },
              { path: "z.json", ops: [] },
            ],
          }),
          "refuse",
        ),
        ["x.ts=text of x.ts", "z.json=text of z.json"],
      );
      assert.deepEqual(
        await primed({ files: [{ path: "o.ts", ops: [] }] }),
        ["o.ts=text of o.ts"],
      );
      assert.deepEqual(
        await primed({ files: [{ path: "o.ts", ops: [] }] }, "off"),
        [],
      );
      assert.deepEqual(reads, [], "nothing is read under off");
      // A file whose tree the checker still holds is not read again.
      assert.deepEqual(
        await primed({
          files: [{ path: "held.ts", ops: [] }, { path: "o.ts", ops: [] }],
        }),
        ["o.ts=text of o.ts"],
      );
      assert.deepEqual(reads, ["o.ts"]);
      assert.deepEqual(await primed("not a patch at all"), []);
      // A read that never answers holds a check up briefly, once.
      const stuck = new SyntaxGate("warn", null, checker);
      stuck.prime(
        { files: [{ path: "s.ts", ops: [] }] },
        undefined,
        () => new Promise<null>(() => {}),
      );
      const input = { path: "notes.txt", before: "", after: "x" };
      assert.deepEqual(await stuck.run([input]), { checks: [], warnings: [] });
      assert.deepEqual(await stuck.run([input]), { checks: [], warnings: [] });
    },
  );

  it(
    "a workspace patch of a primed file: the same warnings, and refuse leaves the bytes",
    {
      timeout: 60_000,
    },
    async () => {
      const source = longSource(120);
      const tree = await tempTree({ "src/a.ts": source });
      try {
        const file = join(tree.dir, "src/a.ts");
        const ws = openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
          check: "refuse",
        });
        const view = (await ws.read("src/a.ts", { limit: 4 })).text;
        const anchor = view.split("\n")[3].split("|")[0];
        const patch = `@@ src/a.ts\n= ${anchor}\n~\n`;
        await assert.rejects(
          ws.patch(patch),
          (e: Error & { code?: string }) => {
            assert.equal(e.code, "SYNTAX");
            assert.match(
              e.message,
              /the edit introduces 1 typescript syntax error/,
            );
            assert.match(
              e.message,
              /- line \d+ \(\d+:[0-9a-f]{2}\): missing "\}"/,
            );
            return true;
          },
        );
        assert.equal(await readFile(file, "utf8"), source, "bytes unchanged");
        const r = await ws.patch(patch, { check: "warn" });
        assert.equal(r.checks[0].status, "broken");
        const expected = await createChecker().check({
          path: "src/a.ts",
          before: source,
          after: await readFile(file, "utf8"),
        });
        // The refused edit's answer is reused; the rest is as a fresh check's.
        assert.deepEqual(r.checks[0], { ...expected, reused: true });
      } finally {
        await tree.cleanup();
      }
    },
  );
});
