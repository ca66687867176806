/**
 * A million new lines over HTTP (`createApp().fetch`): a create through
 * `POST /v1/files/write` and an append through `POST /v1/files/patch` land
 * whole and are counted, never answered with a 400 from a call stack that
 * grew with the lines; a body over the limit is a 413 `TOO_LARGE` that
 * writes nothing (docs/safety.md "Bounded work").
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { tempTree } from "./_helpers.ts";

const MILLION = 1_000_000;
const T = { timeout: 240_000 };

describe("a million new lines over HTTP", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;

  before(async () => {
    tree = await tempTree({ "log.txt": "head\n" });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(() => tree.cleanup());

  async function send(path: string, body: unknown) {
    const res = await app.fetch(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "hashline-session": "many",
        },
        body: JSON.stringify(body),
      }),
    );
    // deno-lint-ignore no-explicit-any
    return { status: res.status, body: await res.json() as any };
  }

  it("POST /v1/files/write creates a file of a million lines", T, async () => {
    const content = "x\n".repeat(MILLION);
    const res = await send("/v1/files/write", { path: "big.txt", content });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.equal(res.body.totalLines, MILLION);
    assert.match(res.body.summary, /^Created big\.txt \(1000000 lines\)/);
    assert.equal(await readFile(join(tree.dir, "big.txt"), "utf8"), content);
  });

  it("POST /v1/files/patch appends a million lines", T, async () => {
    assert.equal(
      (await send("/v1/files/read", { path: "log.txt" })).status,
      200,
    );
    const lines = new Array<string>(MILLION).fill("y");
    const res = await send("/v1/files/patch", {
      patch: { files: [{ path: "log.txt", ops: [{ op: "append", lines }] }] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    assert.match(res.body.summary, /^Edited log\.txt \(\+1000000 -0\)/);
    assert.equal(
      await readFile(join(tree.dir, "log.txt"), "utf8"),
      "head\n" + "y\n".repeat(MILLION),
    );
  });

  it(
    "a body over the limit is 413 TOO_LARGE and writes nothing",
    T,
    async () => {
      const content = "z\n".repeat(5 * MILLION);
      const res = await send("/v1/files/write", { path: "huge.txt", content });
      assert.equal(res.status, 413);
      assert.equal(res.body.error.code, "TOO_LARGE");
      await assert.rejects(readFile(join(tree.dir, "huge.txt")), {
        code: "ENOENT",
      });
    },
  );
});
