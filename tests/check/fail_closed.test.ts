import assert from "node:assert/strict";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createChecker, SyntaxGate } from "../../src/check/mod.ts";
import type { Checker } from "../../src/check/mod.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempDir } from "../cli/_cli.ts";

const MiB = 1024 * 1024;

/** A valid TypeScript text of about `bytes` bytes. */
function bigTs(bytes: number, seed = 0): string {
  const line = (i: number) => `export const value${seed}_${i} = ${i} + 1;\n`;
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = line(i);
    out.push(l);
    size += l.length;
  }
  return out.join("");
}

function lastAnchor(text: string): string {
  const lines = text.split("\n");
  lines.pop();
  return `${lines.length}:${lineHash(lines[lines.length - 1])}`;
}

async function refusedWith(run: Promise<unknown>): Promise<PatchRefusedError> {
  const error = await run.then(
    () => assert.fail("expected a refusal"),
    (e) => e,
  );
  assert.ok(error instanceof PatchRefusedError, String(error));
  return error;
}

describe("checks fail closed under refuse", () => {
  it(
    "a broken edit of a file over the size limit is UNCHECKED under refuse, lands with the note under warn",
    { timeout: 60_000 },
    async () => {
      const text = bigTs(2 * MiB + 4096);
      const t = await tempDir({ "big.ts": text });
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("big.ts", { offset: text.split("\n").length - 3 });
        const patch = `@@ big.ts\n+ ${lastAnchor(text)}\n~function (\n`;
        const e = await refusedWith(ws.patch(patch, { check: "refuse" }));
        assert.deepEqual(e.problems.map((p) => p.code), ["UNCHECKED"]);
        assert.match(e.message, /over the 2 MiB limit/);
        assert.equal(await readFile(join(t.dir, "big.ts"), "utf8"), text);
        const ok = await ws.patch(patch, { check: "warn" });
        assert.match(
          ok.warnings.join("\n"),
          /not checked: the file is over the 2 MiB limit/,
        );
        assert.equal(
          await readFile(join(t.dir, "big.ts"), "utf8"),
          `${text}function (\n`,
        );
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a patch of a dozen broken ~2 MiB files under refuse answers within 10 s and writes nothing",
    { timeout: 10_000 },
    async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 12; i++) {
        files[`f${i}.ts`] = bigTs(
          2 * MiB - 64 * 1024,
          i,
        );
      }
      const t = await tempDir(files);
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        const parts: string[] = [];
        for (const [name, text] of Object.entries(files)) {
          await ws.read(name, { offset: text.split("\n").length - 2 });
          parts.push(`@@ ${name}\n+ ${lastAnchor(text)}\n~function (\n`);
        }
        const e = await refusedWith(
          ws.patch(parts.join(""), { check: "refuse" }),
        );
        assert.ok(e.problems.length >= 12, JSON.stringify(e.problems));
        assert.ok(
          e.problems.every((p) =>
            p.code === "UNCHECKED" || p.code === "SYNTAX"
          ),
        );
        for (const [name, text] of Object.entries(files)) {
          assert.equal(await readFile(join(t.dir, name), "utf8"), text);
        }
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a checker failure and a missing grammar are UNCHECKED under refuse, notes under warn",
    { timeout: 30_000 },
    async () => {
      const failing: Checker = {
        parses: 0,
        check: () => Promise.reject(new Error("grammar crashed")),
      };
      const missing: Checker = {
        parses: 0,
        check: (input) =>
          Promise.resolve({
            path: input.path,
            language: "python",
            status: "skipped",
            errors: [],
            note:
              "not checked: install the npm package tree-sitter-python to check python syntax",
            reused: false,
          }),
      };
      const input = { path: "a.py", before: "x = 1\n", after: "x = (\n" };
      for (
        const [checker, why] of [[failing, /grammar crashed/], [
          missing,
          /tree-sitter-python/,
        ]] as const
      ) {
        const gate = new SyntaxGate("refuse", null, checker);
        const e = await refusedWith(gate.run([input]));
        assert.equal(e.problems[0].code, "UNCHECKED");
        assert.match(e.problems[0].message, why);
        const warned = await gate.run([input], "warn");
        assert.match(warned.warnings.join("\n"), why);
      }
    },
  );

  it("malformed and implausible receipts on disk are ignored and recomputed", {
    timeout: 30_000,
  }, async () => {
    const t = await tempDir();
    try {
      const stateDir = join(t.dir, ".state");
      const text = "export const a = 1;\nexport const b = 2;\n";
      const first = await createChecker({ stateDir }).check({
        path: "a.ts",
        before: null,
        after: text,
      });
      assert.equal(first?.status, "ok");
      const folder = join(stateDir, "checks");
      const names = (await readdir(folder)).filter((n) => n.endsWith(".json"));
      assert.ok(names.length > 0);
      const bodies = [
        "{ not json",
        (key: string) =>
          JSON.stringify({
            key,
            errors: [{ line: 999, column: 1, kind: "missing", token: "}" }],
          }),
        (key: string) =>
          JSON.stringify({
            key,
            errors: [{ line: -1, column: 0, kind: "missing", token: "}" }],
          }),
      ];
      for (const body of bodies) {
        for (const n of names) {
          const key = n.slice(0, -".json".length);
          await writeFile(
            join(folder, n),
            typeof body === "string" ? body : body(key),
          );
        }
        const checker = createChecker({ stateDir });
        const again = await checker.check({
          path: "a.ts",
          before: null,
          after: text,
        });
        assert.equal(again?.status, "ok");
        assert.equal(again?.reused, false);
        assert.equal(checker.parses, 1);
      }
    } finally {
      await t.cleanup();
    }
  });
});
