// A field of the wrong type is named as such, and a missing one as missing,
// so a model can tell which mistake it made (HTTP and MCP bodies).
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { call, errorOf, tempTree } from "./_helpers.ts";

const T = { timeout: 30_000 };

describe("field messages of bad request bodies", () => {
  it(
    "HTTP: a wrong type says what was received; a missing field says missing",
    T,
    async () => {
      const tree = await tempTree({ "x.txt": "a\n" });
      try {
        const app = createApp({
          root: tree.dir,
          stateDir: join(tree.dir, ".hashline"),
        });
        const wrong = errorOf(
          await call(app, "POST", "/v1/files/patch", {
            patch: "@@ x.txt\n- 1:ed",
            dryRun: "yes",
          }),
        );
        assert.equal(wrong.code, "BAD_INPUT");
        assert.match(
          wrong.message,
          /"dryRun": expected boolean, received string/,
        );
        assert.doesNotMatch(wrong.message, /missing/);
        const start = errorOf(
          await call(app, "POST", "/v1/apply", {
            content: "a\n",
            ops: [{ op: "delete", start: 1 }],
          }),
        );
        assert.match(
          start.message,
          /"ops\[0\]\.start": expected string, received number/,
        );
        const missing = errorOf(
          await call(app, "POST", "/v1/apply", { ops: [] }),
        );
        assert.match(missing.message, /"content": missing \(expected string\)/);
      } finally {
        await tree.cleanup();
      }
    },
  );

  it("MCP edit_file: the same words", T, async () => {
    const tree = await tempTree({ "x.txt": "a\n" });
    try {
      const registry = createToolRegistry({
        workspace: openWorkspace(tree.dir, {
          stateDir: join(tree.dir, ".hashline"),
        }),
      });
      const r = await registry.call("edit_file", {
        patch: "@@ x.txt\n- 1:ed",
        dryRun: 1,
      });
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.error.code, "BAD_INPUT");
      assert.match(
        r.error.message,
        /"dryRun": expected boolean, received number/,
      );
    } finally {
      await tree.cleanup();
    }
  });
});
