// `hashline ls [GLOB]` and `hashline grep PATTERN [GLOB]` as a user runs
// them: paths in the form a patch takes, and grep lines that count as read
// for the next `patch` call of the same session.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { hashline, tempDir } from "./_cli.ts";

describe("hashline ls and grep", () => {
  it("lists, greps, then patches a line grep showed", {
    timeout: 60_000,
  }, async () => {
    const t = await tempDir({
      ".gitignore": "build/\n",
      "src/a.ts": "export const a = 1;\n",
      "build/a.js": "exports.a = 1;\n",
      "notes.md": "a\n",
    });
    try {
      const ls = await hashline(["ls"], { cwd: t.dir });
      assert.equal(ls.code, 0, ls.stderr);
      assert.equal(ls.stdout.trim(), ".gitignore\nnotes.md\nsrc/a.ts");
      const ts = await hashline(["ls", "*.ts", "--json"], { cwd: t.dir });
      assert.deepEqual(JSON.parse(ts.stdout).paths, ["src/a.ts"]);

      const grep = await hashline(["grep", "const a"], { cwd: t.dir });
      assert.equal(grep.code, 0, grep.stderr);
      const a = `1:${lineHash("export const a = 1;")}`;
      assert.equal(grep.stdout.trim(), `src/a.ts\n${a}|export const a = 1;`);

      const patch = await hashline(["patch"], {
        cwd: t.dir,
        input: `@@ src/a.ts\n= ${a}\n~export const a = 2;\n`,
      });
      assert.equal(patch.code, 0, patch.stderr);
      assert.equal(
        await readFile(join(t.dir, "src/a.ts"), "utf8"),
        "export const a = 2;\n",
      );

      const bad = await hashline(["grep", "a("], { cwd: t.dir });
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /not a valid regular expression/);
    } finally {
      await t.cleanup();
    }
  });
});
