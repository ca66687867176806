/**
 * A path that would cost quadratic work is refused at once over HTTP, and
 * the server keeps answering.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { bytes, call, errorOf, tempTree } from "./_helpers.ts";

describe("path bounds over HTTP", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  before(async () => {
    tree = await tempTree({ "b": "keep\n" });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(() => tree.cleanup());

  it("answers a 20,000-component path with 400 BAD_PATH on every file route, then still serves", async () => {
    const path = "a/".repeat(20_000) + "b";
    const before = await bytes(join(tree.dir, "b"));
    const requests: [string, unknown][] = [
      ["/v1/files/read", { path }],
      ["/v1/files/patch", {
        patch: { files: [{ path, ops: [{ op: "append", lines: ["x"] }] }] },
      }],
    ];
    for (const [route, body] of requests) {
      const res = await call(app, "POST", route, body);
      assert.equal(res.status, 400, `${route}: ${JSON.stringify(res.body)}`);
      assert.equal(errorOf(res).code, "BAD_PATH");
    }
    assert.deepEqual(await bytes(join(tree.dir, "b")), before);
    const ok = await call(app, "POST", "/v1/files/read", { path: "b" });
    assert.equal(ok.status, 200);
    assert.match(ok.body.text, /^1:[0-9a-f]{2}\|keep$/);
  });
});
