/**
 * `POST /v1/files/list` and `POST /v1/files/search` through `app.fetch`:
 * the workspace's listing and search, and search lines that a patch in the
 * same `Hashline-Session` names without a read.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { call, errorOf, tempTree } from "./_helpers.ts";

describe("POST /v1/files/list and /v1/files/search", () => {
  it("lists, searches and patches a line found with no read", {
    timeout: 30_000,
  }, async () => {
    const tree = await tempTree({
      ".gitignore": "*.log\n",
      "app.py": "def f():\n    return 1\n",
      "run.log": "return\n",
    });
    try {
      const app = createApp({
        root: tree.dir,
        stateDir: join(tree.dir, ".hashline"),
      });
      const session = { "hashline-session": "agent-1" };
      const list = await call(app, "POST", "/v1/files/list", {}, session);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.paths, [".gitignore", "app.py"]);
      const py = await call(app, "POST", "/v1/files/list", { glob: "*.py" });
      assert.deepEqual(py.body.paths, ["app.py"]);

      const found = await call(app, "POST", "/v1/files/search", {
        pattern: "return",
      }, session);
      assert.equal(found.status, 200);
      const a = `2:${lineHash("    return 1")}`;
      assert.equal(found.body.text, `app.py\n${a}|    return 1`);

      const patched = await call(app, "POST", "/v1/files/patch", {
        patch: `@@ app.py\n= ${a}\n~    return 2\n`,
      }, session);
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(
        await readFile(join(tree.dir, "app.py"), "utf8"),
        "def f():\n    return 2\n",
      );

      const bad = await call(app, "POST", "/v1/files/search", { pattern: "[" });
      assert.equal(bad.status, 400);
      assert.equal(errorOf(bad).code, "BAD_INPUT");
    } finally {
      await tree.cleanup();
    }
  });
});
