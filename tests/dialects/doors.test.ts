/**
 * apply_patch and unified diffs through every door a user comes in by:
 * the library, the CLI, HTTP and MCP. Each refusal is checked by the bytes
 * on disk afterwards.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { openWorkspace } from "../../mod.ts";
import type { PatchRefusedError } from "../../src/errors.ts";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { hashline, tempDir } from "../cli/_cli.ts";
import { bytes, call, errorOf, tempTree } from "../http/_helpers.ts";
import { connectHttp } from "../mcp/_client.ts";
import { makeFixture } from "../adapters/_fixture.ts";
import { openAiTools } from "../../src/adapters/openai.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";

const PY =
  "def f():\n    x = 1\n    return x\n\ndef g():\n    x = 1\n    return x\n";

/** Every file of a folder (state folders aside), as bytes. */
async function snapshot(
  dir: string,
  names: string[],
): Promise<(string | null)[]> {
  return await Promise.all(names.map(async (n) => {
    try {
      return await readFile(join(dir, n), "utf8");
    } catch {
      return null;
    }
  }));
}

const ENVELOPE = [
  "*** Begin Patch",
  "*** Add File: docs/new.md",
  "+# New",
  "*** Update File: a.py",
  "@@ def g():",
  "-    x = 1",
  "+    x = 2",
  "*** Delete File: gone.txt",
  "*** Update File: old.txt",
  "*** Move to: moved/renamed.txt",
  "@@",
  " keep",
  "-drop",
  "+added",
  "*** End Patch",
].join("\n");
const NAMES = [
  "a.py",
  "gone.txt",
  "old.txt",
  "docs/new.md",
  "moved/renamed.txt",
];

describe("dialects through the CLI", () => {
  it("one apply_patch envelope adds, updates, deletes and moves at once", {
    timeout: 120_000,
  }, async () => {
    const t = await tempDir({
      "a.py": PY,
      "gone.txt": "bye\n",
      "old.txt": "keep\ndrop\n",
    });
    try {
      for (const f of ["a.py", "gone.txt", "old.txt"]) {
        const r = await hashline(["read", f], { cwd: t.dir });
        assert.equal(r.code, 0, r.stderr);
      }
      const r = await hashline(["patch", "-"], { cwd: t.dir, input: ENVELOPE });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Created docs\/new\.md \(\+1\) \(apply_patch\)/);
      assert.deepEqual(await snapshot(t.dir, NAMES), [
        PY.replace("def g():\n    x = 1", "def g():\n    x = 2"),
        null,
        null,
        "# New\n",
        "keep\nadded\n",
      ]);
    } finally {
      await t.cleanup();
    }
  });

  it("the same envelope with a stale Update writes nothing, the Add included", {
    timeout: 120_000,
  }, async () => {
    const t = await tempDir({
      "a.py": PY,
      "gone.txt": "bye\n",
      "old.txt": "keep\ndrop\n",
    });
    try {
      for (const f of ["a.py", "gone.txt", "old.txt"]) {
        await hashline(["read", f], { cwd: t.dir });
      }
      // Another writer changes the line the Update replaces.
      await writeFile(
        join(t.dir, "a.py"),
        PY.replace("def g():\n    x = 1", "def g():\n    x = 5"),
      );
      const before = await snapshot(t.dir, NAMES);
      const r = await hashline(["patch", "--json", "-"], {
        cwd: t.dir,
        input: ENVELOPE,
      });
      assert.equal(r.code, 1, r.stderr);
      const answer = JSON.parse(r.stdout);
      assert.equal(answer.ok, false);
      assert.match(JSON.stringify(answer.error), /STALE_ANCHOR/);
      assert.deepEqual(await snapshot(t.dir, NAMES), before);
      await assert.rejects(stat(join(t.dir, "docs")), { code: "ENOENT" });
    } finally {
      await t.cleanup();
    }
  });

  it(
    "a unified diff from a file, with --dry-run",
    { timeout: 120_000 },
    async () => {
      const t = await tempDir({
        "a.py": PY,
        "fix.diff":
          "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n def f():\n-    x = 1\n+    x = 3\n     return x\n",
      });
      try {
        await hashline(["read", "a.py"], { cwd: t.dir });
        const dry = await hashline(["patch", "--dry-run", "fix.diff"], {
          cwd: t.dir,
        });
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stdout, /Edited a\.py \(\+1 -1\) \(unified diff\)/);
        assert.equal(await readFile(join(t.dir, "a.py"), "utf8"), PY);
        const r = await hashline(["patch", "fix.diff"], { cwd: t.dir });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(
          await readFile(join(t.dir, "a.py"), "utf8"),
          PY.replace("    x = 1", "    x = 3"),
        );
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe("dialects through the library: refused hunks write nothing", () => {
  const cases: [string, string, string, boolean][] = [
    [
      "a hunk whose lines stand at two places (unified diff)",
      "--- a/a.py\n+++ b/a.py\n@@ -6,2 +6,2 @@\n-    x = 1\n+    x = 2\n     return x\n",
      "MANY_MATCHES",
      true,
    ],
    [
      "a hunk whose lines stand at two places (apply_patch)",
      "*** Begin Patch\n*** Update File: a.py\n@@\n-    x = 1\n+    x = 2\n*** End Patch",
      "MANY_MATCHES",
      true,
    ],
    [
      "a hunk over a file never read (unified diff)",
      "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    x = 1\n+    x = 2\n",
      "NOT_READ",
      false,
    ],
    [
      "a hunk over a file never read (apply_patch)",
      "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    x = 1\n+    x = 2\n*** End Patch",
      "NOT_READ",
      false,
    ],
    [
      "context that differs only in indentation (apply_patch)",
      "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-  x = 1\n+  x = 2\n*** End Patch",
      "NO_MATCH",
      true,
    ],
    [
      "context that differs only in indentation (unified diff)",
      "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-\tx = 1\n+\tx = 2\n",
      "NO_MATCH",
      true,
    ],
  ];
  for (const [name, patch, code, read] of cases) {
    it(`${name}: ${code}`, { timeout: 60_000 }, async () => {
      const t = await tempTree({ "a.py": PY, "b.txt": "b\n" });
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        if (read) await ws.read("a.py");
        const before = await bytes(join(t.dir, "a.py"));
        // A second file in the same patch is not written either.
        await ws.read("b.txt");
        const both = patch.startsWith("***")
          ? patch.replace(
            "*** End Patch",
            "*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch",
          )
          : `${patch}--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n`;
        await assert.rejects(ws.patch(both), (e: unknown) => {
          const err = e as PatchRefusedError;
          assert.deepEqual(err.problems.map((p) => p.code), [code]);
          assert.match(err.message, /^Rejected — nothing written\./);
          return true;
        });
        assert.deepEqual(await bytes(join(t.dir, "a.py")), before);
        assert.equal(await readFile(join(t.dir, "b.txt"), "utf8"), "b\n");
      } finally {
        await t.cleanup();
      }
    });
  }

  it(
    "drift: lines that only moved refuse, and apply with rebase as one history entry",
    { timeout: 60_000 },
    async () => {
      const t = await tempTree({ "a.py": PY });
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.py");
        const file = join(t.dir, "a.py");
        await writeFile(file, `# header\n${PY}`);
        const diff =
          "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    x = 1\n+    x = 3\n";
        // A dry run records nothing, so the rebase below starts from the read.
        await assert.rejects(ws.patch(diff, { dryRun: true }), (e: unknown) => {
          assert.deepEqual(
            (e as PatchRefusedError).problems.map((p) => p.code),
            ["STALE_ANCHOR"],
          );
          return true;
        });
        assert.equal(await readFile(file, "utf8"), `# header\n${PY}`);
        const r = await ws.patch(diff, { rebase: true });
        assert.match(r.summary, /^Edited a\.py \(\+1 -1\) \(unified diff\)/);
        assert.equal(r.rebased.length, 1);
        assert.ok(r.entry);
        assert.equal(
          await readFile(file, "utf8"),
          `# header\n${PY.replace("    x = 1", "    x = 3")}`,
        );
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a refusal's fresh lines count as read: a hashline resend from them passes",
    { timeout: 60_000 },
    async () => {
      const t = await tempTree({ "a.py": PY });
      try {
        const ws = openWorkspace(t.dir, { stateDir: join(t.dir, ".state") });
        await ws.read("a.py");
        const refused = await ws.patch(
          "*** Begin Patch\n*** Update File: a.py\n@@\n-    x = 1\n+    x = 2\n*** End Patch",
        ).catch((e: PatchRefusedError) => e);
        const anchor = /6:([0-9a-f]{2})\| {4}x = 1/.exec(
          (refused as PatchRefusedError).message,
        )!;
        const r = await ws.patch(
          `@@ a.py\n= ${anchor[0].slice(0, 4)}\n~    x = 2\n`,
        );
        assert.match(r.summary, /^Edited a\.py \(\+1 -1\)/);
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe("dialects on a stored revision", () => {
  it(
    "store.patch compiles a unified diff against the revision; a miss is refused",
    { timeout: 30_000 },
    async () => {
      const store = createMemoryStore();
      try {
        const base = await store.put("one\ntwo\nthree\n");
        const next = await store.patch(
          base.handle,
          "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n",
        );
        assert.equal(await store.get(next.ref), "one\n2\nthree\n");
        await assert.rejects(
          store.patch(
            base.handle,
            "*** Begin Patch\n*** Update File: x\n@@\n-zwei\n+2\n*** End Patch",
          ),
          (e: unknown) =>
            (e as PatchRefusedError).problems?.[0]?.code === "NO_MATCH",
        );
        assert.equal(await store.get(base.handle), "one\ntwo\nthree\n");
      } finally {
        await store.close();
      }
    },
  );
});

describe("dialects through HTTP and MCP", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  before(async () => {
    tree = await tempTree({ "a.py": PY, "h.txt": "one\ntwo\n" });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(() => tree.cleanup());
  const as = (session: string) => ({ "Hashline-Session": session });

  it(
    "POST /v1/files/patch takes apply_patch and unified diffs; NOT_READ writes nothing",
    { timeout: 60_000 },
    async () => {
      const file = join(tree.dir, "h.txt");
      const unread = await call(app, "POST", "/v1/files/patch", {
        patch: "--- a/h.txt\n+++ b/h.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n",
      }, as("http"));
      assert.equal(unread.status, 409);
      assert.match(JSON.stringify(errorOf(unread)), /NOT_READ/);
      assert.equal(await readFile(file, "utf8"), "one\ntwo\n");
      await call(app, "POST", "/v1/files/read", { path: "h.txt" }, as("http"));
      const diff = await call(app, "POST", "/v1/files/patch", {
        patch: "--- a/h.txt\n+++ b/h.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n",
      }, as("http"));
      assert.equal(diff.status, 200, JSON.stringify(diff.body));
      assert.equal(diff.body.dialect, "unified_diff");
      assert.match(
        diff.body.summary,
        /^Edited h\.txt \(\+1 -1\) \(unified diff\)/,
      );
      const ap = await call(app, "POST", "/v1/files/patch", {
        patch:
          "*** Begin Patch\n*** Update File: h.txt\n@@\n one\n-TWO\n+2\n*** End Patch\n",
      }, as("http"));
      assert.equal(ap.status, 200, JSON.stringify(ap.body));
      assert.equal(await readFile(file, "utf8"), "one\n2\n");
    },
  );

  it("POST /v1/apply takes a dialect for the content given, and refuses Add", {
    timeout: 60_000,
  }, async () => {
    const ok = await call(app, "POST", "/v1/apply", {
      content: "one\ntwo\n",
      patch:
        "*** Begin Patch\n*** Update File: x\n@@\n one\n-two\n+2\n*** End Patch",
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.content, "one\n2\n");
    const add = await call(app, "POST", "/v1/apply", {
      content: "one\n",
      patch: "--- /dev/null\n+++ b/y\n@@ -0,0 +1 @@\n+y\n",
    });
    assert.equal(add.status, 400);
    assert.match(errorOf(add).message, /create/);
  });

  it(
    "the tool registry through the OpenAI adapter takes an apply_patch envelope",
    { timeout: 60_000 },
    async () => {
      const fx = await makeFixture({ "a.txt": "one\ntwo\n" });
      try {
        const openai = openAiTools(fx.registry);
        let n = 0;
        const run = (name: string, args: unknown) =>
          openai.runToolCall({
            id: `call_${++n}`,
            type: "function",
            function: { name, arguments: JSON.stringify(args) },
          });
        await run("read_file", { path: "a.txt" });
        const out = await run("edit_file", {
          patch:
            "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch",
        });
        assert.match(out.content, /^Edited a\.txt \(\+1 -1\) \(apply_patch\)/);
        assert.equal(await fx.read("a.txt"), "one\nTWO\n");
      } finally {
        await fx.cleanup();
      }
    },
  );

  const hasGit = spawnSync("git", ["--version"]).status === 0;
  it(
    "MCP edit_file { patch } applies real git diff output after read_file",
    { timeout: 60_000, skip: hasGit ? false : "git is not installed" },
    async () => {
      const repo = await tempTree({
        "src/app.ts": "const a = 1;\nconst b = 2;\nexport { a, b };\n",
      });
      try {
        const git = (...args: string[]) => {
          const r = spawnSync("git", args, {
            cwd: repo.dir,
            encoding: "utf8",
            env: {
              PATH: process.env.PATH ?? "",
              HOME: repo.dir,
              GIT_CONFIG_NOSYSTEM: "1",
            },
          });
          assert.equal(r.status, 0, r.stderr);
          return r.stdout;
        };
        git("init", "-q");
        git("add", ".");
        git(
          "-c",
          "user.name=t",
          "-c",
          "user.email=t@t",
          "commit",
          "-qm",
          "base",
        );
        const file = join(repo.dir, "src/app.ts");
        await writeFile(
          file,
          "const a = 1;\nconst b = 3;\nconst c = 4;\nexport { a, b, c };\n",
        );
        const diff = git("diff");
        assert.match(
          diff,
          /^diff --git a\/src\/app\.ts b\/src\/app\.ts\nindex /,
        );
        git("checkout", "--", "src/app.ts");
        const before = await bytes(file);
        const repoApp = createApp({
          root: repo.dir,
          stateDir: join(repo.dir, ".hashline"),
        });
        const mcp = await connectHttp("http://localhost/mcp", { app: repoApp });
        try {
          const unread = await mcp.tool("edit_file", { patch: diff });
          assert.equal(unread.isError, true);
          assert.match(unread.text, /not read/i);
          assert.deepEqual(await bytes(file), before);
          const read = await mcp.tool("read_file", { path: "src/app.ts" });
          assert.equal(read.isError, false, read.text);
          const indent = await mcp.tool("edit_file", {
            patch:
              "*** Begin Patch\n*** Update File: src/app.ts\n@@\n  const a = 1;\n-const b = 2;\n+const b = 5;\n*** End Patch",
          });
          assert.equal(indent.isError, true);
          assert.match(indent.text, /only if whitespace is changed/);
          assert.deepEqual(await bytes(file), before);
          const edit = await mcp.tool("edit_file", { patch: diff });
          assert.equal(edit.isError, false, edit.text);
          assert.match(
            edit.text,
            /^Edited src\/app\.ts \(\+3 -2\) \(unified diff\)/,
          );
          assert.equal(
            await readFile(file, "utf8"),
            "const a = 1;\nconst b = 3;\nconst c = 4;\nexport { a, b, c };\n",
          );
        } finally {
          await mcp.close();
        }
      } finally {
        await repo.cleanup();
      }
    },
  );
});
