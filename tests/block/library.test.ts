import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { at, JSON_TEXT, MD, PY, TS } from "./_files.ts";

const T = { timeout: 60_000 };

async function withFile(
  name: string,
  text: string,
  body: (
    ws: ReturnType<typeof openWorkspace>,
    file: string,
  ) => Promise<void>,
): Promise<void> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-block-")));
  try {
    await writeFile(join(dir, name), text);
    const ws = openWorkspace(dir, { stateDir: join(dir, ".state") });
    await body(ws, join(dir, name));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function lines(text: string, drop: [number, number], put: string[] = []) {
  const all = text.split("\n");
  all.splice(drop[0] - 1, drop[1] - drop[0] + 1, ...put);
  return all.join("\n");
}

async function refused(
  run: Promise<unknown>,
  code: string,
): Promise<PatchRefusedError> {
  const error = await run.then(
    () => assert.fail("the patch was expected to be refused"),
    (e) => e,
  );
  assert.ok(error instanceof PatchRefusedError, String(error));
  assert.ok(
    error.problems.some((p) => p.code === code),
    `expected ${code}, got ${JSON.stringify(error.problems)}`,
  );
  return error;
}

describe("block anchors through openWorkspace().patch", () => {
  const cases: {
    name: string;
    file: string;
    text: string;
    patch: (text: string) => string;
    want: (text: string) => string;
    span: string;
  }[] = [
    {
      name: "TypeScript: replace a class method",
      file: "s.ts",
      text: TS,
      patch: (t) => `@@ s.ts\n= ${at(t, 14)}*\n~  put() {}\n`,
      want: (t) => lines(t, [14, 18], ["  put() {}"]),
      span: "block 14–18",
    },
    {
      name: "TypeScript: delete an exported function",
      file: "s.ts",
      text: TS,
      patch: (t) => `@@ s.ts\n- ${at(t, 4)}*\n`,
      want: (t) => lines(t, [4, 6]),
      span: "block 4–6",
    },
    {
      name: "TypeScript: insert after a decorated class",
      file: "s.ts",
      text: TS,
      patch: (t) =>
        `@@ s.ts\n+ ${at(t, 8)}*\n~export const S = new Service();\n`,
      want: (t) => lines(t, [20, 19], ["export const S = new Service();"]),
      span: "block 8–19",
    },
    {
      name: "TypeScript: a documented declaration's comment is its own block",
      file: "s.ts",
      text: TS.replace("/** Adds one. */", "/**\n * Adds one.\n */"),
      patch: (t) => `@@ s.ts\n- ${at(t, 3)}*\n`,
      want: (t) => lines(t, [3, 5]),
      span: "block 3–5",
    },
    {
      name: "Python: replace a decorated def from its decorator line",
      file: "app.py",
      text: PY,
      patch: (t) =>
        `@@ app.py\n= ${at(t, 3)}*\n~def index():\n~    return "/"\n`,
      want: (t) => lines(t, [3, 5], ["def index():", '    return "/"']),
      span: "block 3–5",
    },
    {
      name: "Markdown: delete a nested section with its subsection",
      file: "guide.md",
      text: MD,
      patch: (t) => `@@ guide.md\n- ${at(t, 3)}*\n`,
      want: (t) => lines(t, [3, 6]),
      span: "block 3–6",
    },
    {
      name: "Markdown: insert after a subsection",
      file: "guide.md",
      text: MD,
      patch: (t) => `@@ guide.md\n+ ${at(t, 5)}*\n~or brew\n`,
      want: (t) => lines(t, [7, 6], ["or brew"]),
      span: "block 5–6",
    },
    {
      name: "JSON: replace a pair with its trailing comma",
      file: "package.json",
      text: JSON_TEXT,
      patch: (t) => `@@ package.json\n= ${at(t, 3)}*\n~  "scripts": {},\n`,
      want: (t) => lines(t, [3, 5], ['  "scripts": {},']),
      span: "block 3–5",
    },
  ];
  for (const c of cases) {
    it(c.name, T, async () => {
      await withFile(c.file, c.text, async (ws, file) => {
        await ws.read(c.file);
        const result = await ws.patch(c.patch(c.text));
        assert.match(result.summary, new RegExp(`op 1: ${c.span}`));
        assert.deepEqual(result.blocks, [`${c.file} op 1: ${c.span}`]);
        assert.equal(await readFile(file, "utf8"), c.want(c.text));
      });
    });
  }

  it("JSON form: replace with start only replaces the block", T, async () => {
    await withFile("app.py", PY, async (ws, file) => {
      await ws.read("app.py");
      await ws.patch({
        files: [{
          path: "app.py",
          ops: [{ op: "replace", start: `${at(PY, 3)}*`, lines: ["pass"] }],
        }],
      });
      assert.equal(await readFile(file, "utf8"), lines(PY, [3, 5], ["pass"]));
    });
  });

  it(
    "NOT_A_BLOCK on a one-line statement and on a closing brace, naming openers",
    T,
    async () => {
      await withFile("s.ts", TS, async (ws, file) => {
        await ws.read("s.ts");
        const one = await refused(
          ws.patch(`@@ s.ts\n- ${at(TS, 1)}*\n`),
          "NOT_A_BLOCK",
        );
        assert.match(one.message, new RegExp(`${at(TS, 4)}\\* below`));
        const brace = await refused(
          ws.patch(`@@ s.ts\n= ${at(TS, 12)}*\n~}\n`),
          "NOT_A_BLOCK",
        );
        assert.match(brace.message, new RegExp(`${at(TS, 10)}\\* above`));
        assert.match(brace.message, new RegExp(`${at(TS, 14)}\\* below`));
        assert.equal(await readFile(file, "utf8"), TS);
      });
    },
  );

  it("NOT_A_BLOCK on a file with no grammar", T, async () => {
    await withFile("notes.txt", "a\n  b\n", async (ws, file) => {
      await ws.read("notes.txt");
      const e = await refused(
        ws.patch(`@@ notes.txt\n- ${at("a\n  b\n", 1)}*\n`),
        "NOT_A_BLOCK",
      );
      assert.match(e.message, /no grammar/);
      assert.equal(await readFile(file, "utf8"), "a\n  b\n");
    });
  });

  it(
    "NOT_READ for a block read only in part; applies once read",
    T,
    async () => {
      await withFile("s.ts", TS, async (ws, file) => {
        await ws.read("s.ts", { offset: 1, limit: 15 });
        const patch = `@@ s.ts\n- ${at(TS, 8)}*\n`;
        const e = await refused(ws.patch(patch), "NOT_READ");
        assert.match(e.message, /lines 16–19/);
        assert.equal(await readFile(file, "utf8"), TS);
        await ws.read("s.ts", { offset: 16 });
        await ws.patch(patch);
        assert.equal(await readFile(file, "utf8"), lines(TS, [8, 19]));
      });
    },
  );

  it(
    "a stale block anchor is refused, and so is a block whose inside changed",
    T,
    async () => {
      await withFile("s.ts", TS, async (ws, file) => {
        await ws.read("s.ts");
        const changed = TS.replace("return id;", "return id + 1;");
        await writeFile(file, changed);
        const inside = await refused(
          ws.patch(`@@ s.ts\n- ${at(TS, 8)}*\n`),
          "STALE_ANCHOR",
        );
        assert.match(inside.message, /11/);
        const moved = "// header\n" + changed;
        await writeFile(file, moved);
        await refused(ws.patch(`@@ s.ts\n- ${at(TS, 4)}*\n`), "STALE_ANCHOR");
        assert.equal(await readFile(file, "utf8"), moved);
      });
    },
  );

  it("a block anchor anywhere else is BAD_ANCHOR", T, async () => {
    await withFile("s.ts", TS, async (ws, file) => {
      await ws.read("s.ts");
      await refused(
        ws.patch(`@@ s.ts\n= ${at(TS, 4)}..${at(TS, 6)}*\n~x\n`),
        "BAD_ANCHOR",
      );
      await refused(
        ws.patch(`@@ s.ts\n< ${at(TS, 4)}*\n~x\n`),
        "BAD_ANCHOR",
      );
      assert.equal(await readFile(file, "utf8"), TS);
    });
  });
});

describe("block anchors on content in memory", () => {
  it(
    "applyBlockPatch resolves by the path's grammar; POST /v1/apply too",
    T,
    async () => {
      const { applyBlockPatch } = await import("../../mod.ts");
      const out = await applyBlockPatch(TS, `= ${at(TS, 14)}*\n~  put() {}`, {
        path: "s.ts",
      });
      assert.equal(out, lines(TS, [14, 18], ["  put() {}"]));
      await assert.rejects(
        applyBlockPatch(TS, `- ${at(TS, 12)}*`, { path: "s.ts" }),
        (e: unknown) =>
          e instanceof PatchRefusedError &&
          e.problems[0].code === "NOT_A_BLOCK",
      );
      const { createApp } = await import("../../src/http/app.ts");
      const app = createApp();
      const res = await app.fetch(
        new Request("http://localhost/v1/apply", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            content: PY,
            path: "app.py",
            patch: `- ${at(PY, 3)}*`,
          }),
        }),
      );
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.content, lines(PY, [3, 5]));
    },
  );
});
