/**
 * A folder standing where a patch creates a file, or renames one to, is
 * `EXISTS` like a file there would be: the whole patch is refused and
 * nothing moves, through the library and the CLI.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { hashline } from "../cli/_cli.ts";
import { makeTree, snapshot } from "../workspace/_helpers.ts";

describe("a folder in the way of a create or a rename", () => {
  it("is EXISTS, nothing written, on the library and the CLI", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "p.txt"), "p1\n");
      await mkdir(join(t.root, "dir"));
      await writeFile(join(t.root, "dir", "inner.txt"), "i\n");
      const ws = t.open();
      await ws.read("p.txt");
      const before = await snapshot(t.root);
      for (
        const [patch, entry, pattern] of [
          ["@@ p.txt -> dir\n", "p.txt", /cannot rename it to "dir": a folder/],
          ["@@+ dir\n+\n~x\n", "dir", /cannot create it: a folder/],
        ] as const
      ) {
        await assert.rejects(ws.patch(patch), (e: unknown) => {
          const problems = (e as {
            problems?: { code: string; path: string; message: string }[];
          })
            .problems ?? [];
          assert.equal((e as { code?: string }).code, "EXISTS");
          assert.equal(problems.length, 1);
          assert.equal(problems[0].path, entry);
          assert.match(problems[0].message, pattern);
          return true;
        });
        assert.deepEqual(await snapshot(t.root), before);
      }
      const env = { HASHLINE_STORE: t.state };
      await hashline(["read", "p.txt"], { cwd: t.root, env });
      const cli = await hashline(["patch", "--json"], {
        cwd: t.root,
        env,
        input: "@@ p.txt -> dir\n",
      });
      assert.equal(cli.code, 1, cli.stderr);
      assert.equal(JSON.parse(cli.stdout).error.code, "EXISTS");
      assert.deepEqual(await snapshot(t.root), before);
    } finally {
      await t.cleanup();
    }
  });
});
