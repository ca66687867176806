// The CLI's paths and state from a subfolder (docs/cli.md "Paths"): the
// project root found upward through its .hashline/ folder, read printing
// the path as a patch from there takes it, and patch paths resolved as
// read paths are.
import assert from "node:assert/strict";
import { mkdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { hashline, tempDir } from "./_cli.ts";

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

describe("the CLI from a subfolder of a project", () => {
  it("read and patch name the same file, with no second .hashline/", {
    timeout: 60_000,
  }, async () => {
    const t = await tempDir({ "src/a.ts": "let a = 1;\nlet b = 2;\n" });
    try {
      await mkdir(join(t.dir, ".hashline"));
      const src = join(t.dir, "src");
      const read = await hashline(["read", "a.ts"], { cwd: src });
      assert.equal(read.code, 0, read.stderr);
      const b = `2:${lineHash("let b = 2;")}`;
      assert.equal(
        read.stdout,
        `@@ a.ts\n1:${lineHash("let a = 1;")}|let a = 1;\n${b}|let b = 2;\n`,
      );
      assert.match(
        read.stderr,
        new RegExp(`hashline: root ${t.dir.replace(/[\\/.]/g, "\\$&")} `),
      );
      const patch = await hashline(["patch"], {
        cwd: src,
        input: `@@ a.ts\n= ${b}\n~let b = 3;\n`,
      });
      assert.equal(patch.code, 0, patch.stderr);
      assert.equal(
        await readFile(join(src, "a.ts"), "utf8"),
        "let a = 1;\nlet b = 3;\n",
      );
      assert.equal(await exists(join(src, ".hashline")), false);
      assert.equal(await exists(join(src, "src")), false);
    } finally {
      await t.cleanup();
    }
  });

  it("with --root, a patch from a subfolder takes its paths from there", {
    timeout: 60_000,
  }, async () => {
    const t = await tempDir({
      "src/a.ts": "x\n",
      "lib/b.ts": "y\n",
    });
    try {
      const src = join(t.dir, "src");
      const read = await hashline(["--root", t.dir, "read", "../lib/b.ts"], {
        cwd: src,
      });
      assert.equal(read.code, 0, read.stderr);
      assert.equal(read.stdout.split("\n")[0], "@@ ../lib/b.ts");
      const y = `1:${lineHash("y")}`;
      const refused = await hashline(["--root", t.dir, "patch"], {
        cwd: src,
        input: `@@ lib/b.ts\n= ${y}\n~z\n`,
      });
      assert.notEqual(refused.code, 0, "lib/b.ts from src/ is src/lib/b.ts");
      assert.equal(await readFile(join(t.dir, "lib/b.ts"), "utf8"), "y\n");
      const patch = await hashline(["--root", t.dir, "patch"], {
        cwd: src,
        input: `@@ ../lib/b.ts\n= ${y}\n~z\n`,
      });
      assert.equal(patch.code, 0, patch.stderr);
      assert.equal(await readFile(join(t.dir, "lib/b.ts"), "utf8"), "z\n");
    } finally {
      await t.cleanup();
    }
  });
});
