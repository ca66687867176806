// Calls that edit one given content (POST /v1/apply on the full and the edge
// app, the store's source_patch) refuse moves, copies and file operations
// instead of dropping them and answering as if the patch had applied.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createEdgeApp } from "../../src/http/edge.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { call, errorOf } from "./_helpers.ts";

const T = { timeout: 30_000 };
const CONTENT = "a\nb\nc\n";
const at = (n: number) => `${n}:${lineHash(CONTENT.split("\n")[n - 1])}`;

/** Patches whose every part but the line edits needs a workspace. */
const FILE_PARTS: [string, unknown][] = [
  ["a move (text form)", `m ${at(1)} > ${at(3)}`],
  ["a copy beside a replace", `= ${at(2)}\n~B\nc ${at(1)} < ${at(3)}`],
  ["a delete entry", "@@- f.txt"],
  ["a create entry", "@@+ f.txt\n+\n~x"],
  ["a rename (JSON form)", { files: [{ path: "f.txt", rename: "g.txt" }] }],
  [
    "a move (JSON form)",
    { ops: [{ op: "move", start: at(1), after: at(3) }] },
  ],
];

describe("one-content calls refuse moves and file operations", () => {
  for (
    const [name, app] of [
      ["full app", createApp({ root: "/nonexistent/root" })],
      ["edge app", createEdgeApp()],
    ] as const
  ) {
    it(
      `POST /v1/apply on the ${name}: 400 BAD_INPUT naming the workspace route`,
      T,
      async () => {
        for (const [what, patch] of FILE_PARTS) {
          const res = await call(app, "POST", "/v1/apply", {
            content: CONTENT,
            patch,
          });
          assert.equal(res.status, 400, `${what}: ${JSON.stringify(res.body)}`);
          const error = errorOf(res);
          assert.equal(error.code, "BAD_INPUT", what);
          assert.match(error.message, /POST \/v1\/files\/patch/, what);
          assert.equal(res.body.content, undefined, what);
        }
        const plain = await call(app, "POST", "/v1/apply", {
          content: CONTENT,
          patch: `= ${at(2)}\n~B`,
        });
        assert.equal(plain.status, 200);
        assert.equal(plain.body.content, "a\nB\nc\n");
      },
    );
  }

  it("source_patch: BAD_INPUT, and no revision is made", T, async () => {
    const store = createMemoryStore();
    const registry = createToolRegistry({ store });
    const put = await registry.call("source_put", { source: CONTENT });
    assert.ok(put.ok);
    const ref = put.data.ref as string;
    for (const [what, patch] of FILE_PARTS) {
      const r = await registry.call("source_patch", { ref, patch });
      assert.equal(r.ok, false, what);
      if (r.ok) continue;
      assert.equal(r.error.code, "BAD_INPUT", `${what}: ${r.error.message}`);
      if (typeof patch === "string") {
        assert.match(r.error.message, /workspace/, what);
      }
    }
    assert.equal((await store.history(ref)).length, 1);
  });
});
