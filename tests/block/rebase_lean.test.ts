/**
 * Block anchors under rebase and after lean reads: a block anchor whose
 * opening line moved is placed by that line and resolved where it stands
 * now, applying to the whole block only when every line of it is a line
 * the session read, unchanged and moved by as much (never to the one line
 * it names); otherwise it is refused stale. `N*` after a lean read names
 * the block the session read. Through the library and the CLI.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash, lineHash32 } from "../../src/hash/mod.ts";
import { applyBlockPatch } from "../../mod.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { hashline } from "../cli/_cli.ts";

const T = { timeout: 60_000 };
const SRC = "function f() {\n  return 1;\n}\nconst x = f();\n";

async function tree(): Promise<{ dir: string; done(): Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-brl-")));
  await writeFile(join(dir, "a.ts"), SRC);
  return { dir, done: () => rm(dir, { recursive: true, force: true }) };
}

async function refusedWith(
  run: Promise<unknown>,
  code: string,
): Promise<PatchRefusedError> {
  const error = await run.then(() => null, (e) => e);
  assert.ok(error instanceof PatchRefusedError, String(error));
  assert.deepEqual(error.problems.map((p) => p.code), [code]);
  return error;
}

describe("block anchors under rebase", () => {
  it(
    "a block anchor whose line moved applies to the whole block where it stands now",
    T,
    async () => {
      const t = await tree();
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.ts");
        await writeFile(join(t.dir, "a.ts"), "// hi\n" + SRC);
        const done = await ws.patch(
          `@@ a.ts\n- 1:${lineHash("function f() {")}*`,
          { rebase: true },
        );
        assert.deepEqual(done.blocks, ["a.ts op 1: block 2–4"]);
        assert.deepEqual(done.rebased, ["a.ts op 1: lines 1–3 → 2–4"]);
        assert.equal(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          "// hi\nconst x = f();\n",
        );
      } finally {
        await t.done();
      }
    },
  );

  it(
    "a moved block with a changed line is refused stale, nothing written, and applies once read again",
    T,
    async () => {
      const t = await tree();
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.ts");
        const drifted = "// hi\n" + SRC.replace("return 1;", "return 2;");
        await writeFile(join(t.dir, "a.ts"), drifted);
        const e = await refusedWith(
          ws.patch(`@@ a.ts\n- 1:${lineHash("function f() {")}*`, {
            rebase: true,
          }),
          "STALE_ANCHOR",
        );
        assert.match(
          e.problems[0].message,
          /block anchor 1:[0-9a-f]{2}\* is stale/,
        );
        assert.match(
          e.problems[0].message,
          /^2:[0-9a-f]{2}\|function f\(\) \{$/m,
        );
        assert.equal(await readFile(join(t.dir, "a.ts"), "utf8"), drifted);

        await ws.read("a.ts");
        const done = await ws.patch(
          `@@ a.ts\n- 2:${lineHash("function f() {")}*`,
          { rebase: true },
        );
        assert.deepEqual(done.blocks, ["a.ts op 1: block 2–4"]);
        assert.equal(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          "// hi\nconst x = f();\n",
        );
      } finally {
        await t.done();
      }
    },
  );

  it(
    "without rebase the same anchor is stale by the ordinary rule, nothing written",
    T,
    async () => {
      const t = await tree();
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.ts");
        await writeFile(join(t.dir, "a.ts"), "// hi\n" + SRC);
        await refusedWith(
          ws.patch(`@@ a.ts\n- 1:${lineHash("function f() {")}*`),
          "STALE_ANCHOR",
        );
        assert.equal(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          "// hi\n" + SRC,
        );
      } finally {
        await t.done();
      }
    },
  );

  it(
    "the CLI's patch --rebase places it, and refuses it when the block changed (exit 1)",
    T,
    async () => {
      const t = await tree();
      try {
        const env = { HASHLINE_STORE: join(t.dir, ".state") };
        const patch = `@@ a.ts\n- 1:${lineHash("function f() {")}*\n`;
        let read = await hashline(["read", "a.ts"], { cwd: t.dir, env });
        assert.equal(read.code, 0, read.stderr);
        const changed = "// hi\n" + SRC.replace("return 1;", "return 2;");
        await writeFile(join(t.dir, "a.ts"), changed);
        const out = await hashline(["patch", "--rebase", "--json"], {
          cwd: t.dir,
          env,
          input: patch,
        });
        assert.equal(out.code, 1, out.stderr);
        assert.equal(JSON.parse(out.stdout).error.code, "STALE_ANCHOR");
        assert.equal(await readFile(join(t.dir, "a.ts"), "utf8"), changed);

        await writeFile(join(t.dir, "a.ts"), SRC);
        read = await hashline(["read", "a.ts"], { cwd: t.dir, env });
        assert.equal(read.code, 0, read.stderr);
        await writeFile(join(t.dir, "a.ts"), "// hi\n" + SRC);
        const ok = await hashline(["patch", "--rebase"], {
          cwd: t.dir,
          env,
          input: patch,
        });
        assert.equal(ok.code, 0, ok.stderr);
        assert.equal(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          "// hi\nconst x = f();\n",
        );
      } finally {
        await t.done();
      }
    },
  );
});

describe("N* after a lean read", () => {
  it(
    "names the block the session read; an unread line is NOT_READ",
    T,
    async () => {
      const t = await tree();
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.ts", { anchors: "lean", limit: 3 });
        await refusedWith(ws.patch("@@ a.ts\n- 4*"), "NOT_READ");
        assert.equal(await readFile(join(t.dir, "a.ts"), "utf8"), SRC);
        const done = await ws.patch("@@ a.ts\n- 1*");
        assert.deepEqual(done.blocks, ["a.ts op 1: block 1–3"]);
        assert.equal(
          await readFile(join(t.dir, "a.ts"), "utf8"),
          "const x = f();\n",
        );
      } finally {
        await t.done();
      }
    },
  );

  it("through the CLI: read --lean, then patch - 1*", T, async () => {
    const t = await tree();
    try {
      const env = { HASHLINE_STORE: join(t.dir, ".state") };
      const read = await hashline(["read", "a.ts", "--lean"], {
        cwd: t.dir,
        env,
      });
      assert.match(read.stdout, /^1\|function f\(\) \{$/m);
      const out = await hashline(["patch"], {
        cwd: t.dir,
        env,
        input: "@@ a.ts\n- 1*\n",
      });
      assert.equal(out.code, 0, out.stderr);
      assert.equal(
        await readFile(join(t.dir, "a.ts"), "utf8"),
        "const x = f();\n",
      );
    } finally {
      await t.done();
    }
  });
});

describe("applyBlockPatch (content in, content out)", () => {
  it(
    "with a record and rebase, a moved block anchor applies to its whole block, not its first line",
    T,
    async () => {
      const read = SRC.split("\n").slice(0, -1);
      const memory = memoryFromHashes(
        new Map(read.map((l, i) => [i + 1, lineHash32(l)])),
      );
      const anchor = `- 1:${lineHash("function f() {")}*`;
      assert.equal(
        await applyBlockPatch("// hi\n" + SRC, anchor, {
          path: "a.ts",
          memory,
          rebase: true,
        }),
        "// hi\nconst x = f();\n",
      );
      const error = await applyBlockPatch(
        "// hi\n" + SRC.replace("return 1;", "return 2;"),
        anchor,
        { path: "a.ts", memory, rebase: true },
      ).then(() => null, (e) => e);
      assert.ok(error instanceof PatchRefusedError, String(error));
      assert.deepEqual(error.problems.map((p) => p.code), ["STALE_ANCHOR"]);
    },
  );

  it(
    "refuses moves and file operations instead of dropping them",
    T,
    async () => {
      await assert.rejects(
        applyBlockPatch(
          SRC,
          `- 1:${lineHash("function f() {")}*\nm 4:${
            lineHash("const x = f();")
          } > 1:${lineHash("function f() {")}`,
          { path: "a.ts" },
        ),
        (e: unknown) =>
          e instanceof TypeError &&
          /^Cannot apply move to the content given/.test(e.message),
      );
    },
  );
});
