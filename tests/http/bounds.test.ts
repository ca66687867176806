/**
 * Bounded work and answers over HTTP: a path that would cost quadratic
 * work is refused at once and the server keeps answering; a one-line edit
 * beside a 5 MB line answers in kilobytes.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
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

  it("a one-line edit beside a 5 MB line answers under 80 KiB", async () => {
    const huge = "x".repeat(5_000_000);
    await writeFile(join(tree.dir, "min.js"), `a\n${huge}\nb\n`);
    const as = { "hashline-session": "minified" };
    const view = await call(app, "POST", "/v1/files/read", {
      path: "min.js",
    }, as);
    assert.equal(view.status, 200);
    const start = view.body.text.slice(0, view.body.text.indexOf("|"));
    const res = await app.request("/v1/files/patch", {
      method: "POST",
      headers: { "content-type": "application/json", ...as },
      body: JSON.stringify({
        patch: {
          files: [{
            path: "min.js",
            ops: [{ op: "replace", start, lines: ["A"] }],
          }],
        },
      }),
    });
    const body = new Uint8Array(await res.arrayBuffer());
    assert.equal(res.status, 200);
    assert.ok(body.length < 80 * 1024, `answer is ${body.length} bytes`);
    assert.match(new TextDecoder().decode(body), /\[\+4998000 chars\]/);
    assert.equal(
      await readFile(join(tree.dir, "min.js"), "utf8"),
      `A\n${huge}\nb\n`,
    );
  });
});
