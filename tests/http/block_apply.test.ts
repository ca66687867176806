import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createEdgeApp } from "../../src/http/edge.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { call } from "./_helpers.ts";

const MD = "# A\nx\n# B\ny\n";
const BLOCK = `- 1:${lineHash("# A")}*`;

describe("POST /v1/apply with a block anchor", () => {
  it("the server app resolves it on the content given", {
    timeout: 30_000,
  }, async () => {
    const app = createApp({
      root: "/nonexistent/root",
      stateDir: "/nonexistent/state",
    });
    const res = await call(app, "POST", "/v1/apply", {
      content: MD,
      patch: BLOCK,
      path: "notes.md",
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.content, "# B\ny\n");
  });

  it(
    "the edge app, which loads no grammar, refuses it as NOT_A_BLOCK in either form and still applies plain anchors",
    {
      timeout: 30_000,
    },
    async () => {
      const app = createEdgeApp();
      for (
        const body of [
          { content: MD, patch: BLOCK, path: "notes.md" },
          { content: MD, ops: [{ op: "delete", start: BLOCK.slice(2) }] },
        ]
      ) {
        const res = await call(app, "POST", "/v1/apply", body);
        assert.equal(res.status, 409);
        const error = res.body.error as { code: string; message: string };
        assert.equal(error.code, "NOT_A_BLOCK");
        assert.match(error.message, /range START\.\.END/);
      }
      const plain = await call(app, "POST", "/v1/apply", {
        content: MD,
        patch: `- 2:${lineHash("x")}`,
      });
      assert.equal(plain.status, 200);
      assert.equal(plain.body.content, "# A\n# B\ny\n");
    },
  );
});
