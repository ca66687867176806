/**
 * `POST /v1/files/write` through `app.fetch`: the workspace `write` rules
 * (create without a read; replace only what the session has seen whole and
 * unchanged), answered like the other file routes.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { createEdgeApp } from "../../src/http/edge.ts";
import { bytes, errorOf, type JsonAnswer, tempTree } from "./_helpers.ts";

describe("POST /v1/files/write", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;

  before(async () => {
    tree = await tempTree({ "old.txt": "one\ntwo\n" });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(() => tree.cleanup());

  async function send(
    path: string,
    body: unknown,
    session: string,
  ): Promise<JsonAnswer> {
    const res = await app.fetch(
      new Request(`http://127.0.0.1${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "hashline-session": session,
        },
        body: JSON.stringify(body),
      }),
    );
    return { status: res.status, headers: res.headers, body: await res.json() };
  }

  it("a patch that creates a file answers Created PATH, not Edited", async () => {
    const res = await send(
      "/v1/files/patch",
      { patch: "@@ made/by_patch.txt\n+\n~first" },
      "patcher",
    );
    assert.equal(res.status, 200);
    assert.match(
      JSON.stringify(res.body),
      /Created made\/by_patch\.txt \(\+1\)/,
    );
    assert.doesNotMatch(JSON.stringify(res.body), /Edited made/);
    assert.equal(
      new TextDecoder().decode(
        await bytes(join(tree.dir, "made/by_patch.txt")),
      ),
      "first\n",
    );
  });

  it("creates a new file without a read", async () => {
    const res = await send(
      "/v1/files/write",
      { path: "new/file.txt", content: "a\nb\n" },
      "creator",
    );
    assert.equal(res.status, 200);
    assert.equal(
      res.headers.get("content-type")?.startsWith("application/json"),
      true,
    );
    assert.equal(res.body.ok, true);
    assert.equal(res.body.path, "new/file.txt");
    assert.equal(res.body.created, true);
    assert.equal(res.body.totalLines, 2);
    assert.match(res.body.summary, /^Created new\/file\.txt/);
    assert.equal(
      new TextDecoder().decode(await bytes(join(tree.dir, "new/file.txt"))),
      "a\nb\n",
    );
  });

  it("refuses to replace a file the session has not read (409, bytes unchanged)", async () => {
    const before = await bytes(join(tree.dir, "old.txt"));
    const res = await send(
      "/v1/files/write",
      { path: "old.txt", content: "replaced\n" },
      "stranger",
    );
    assert.equal(res.status, 409);
    assert.equal(errorOf(res).code, "NOT_READ");
    assert.deepEqual(await bytes(join(tree.dir, "old.txt")), before);
  });

  it("replaces a file after the same session read it", async () => {
    const read = await send("/v1/files/read", { path: "old.txt" }, "writer");
    assert.equal(read.status, 200);
    const res = await send(
      "/v1/files/write",
      { path: "old.txt", content: "one\nTWO\n" },
      "writer",
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    assert.equal(res.body.created, false);
    assert.equal(res.body.added, 1);
    assert.equal(res.body.removed, 1);
    assert.match(res.body.diff, /-two\n\+TWO/);
    assert.equal(
      new TextDecoder().decode(await bytes(join(tree.dir, "old.txt"))),
      "one\nTWO\n",
    );
  });

  it("refuses a stale write: the file changed after the read (409, bytes unchanged)", async () => {
    await writeFile(join(tree.dir, "stale.txt"), "x\ny\n");
    assert.equal(
      (await send("/v1/files/read", { path: "stale.txt" }, "late")).status,
      200,
    );
    await writeFile(join(tree.dir, "stale.txt"), "x\nchanged by someone\n");
    const before = await bytes(join(tree.dir, "stale.txt"));
    const res = await send(
      "/v1/files/write",
      { path: "stale.txt", content: "mine\n" },
      "late",
    );
    assert.equal(res.status, 409);
    assert.equal(res.body.ok, false);
    assert.deepEqual(await bytes(join(tree.dir, "stale.txt")), before);
  });

  it("refuses bad input and paths outside the root, writing nothing", async () => {
    const missing = await send("/v1/files/write", { path: "x.txt" }, "s");
    assert.equal(missing.status, 400);
    assert.equal(errorOf(missing).code, "BAD_INPUT");
    const outside = await send(
      "/v1/files/write",
      { path: "../escape.txt", content: "x\n" },
      "s",
    );
    assert.equal(outside.status, 403);
    assert.equal(errorOf(outside).code, "OUTSIDE_ROOT");
  });

  it("is not available in the edge app (no file system): 501", async () => {
    const res = await createEdgeApp().fetch(
      new Request("http://127.0.0.1/v1/files/write", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: "a.txt", content: "x\n" }),
      }),
    );
    assert.equal(res.status, 501);
    assert.equal((await res.json()).error.code, "NOT_AVAILABLE");
  });

  it("answers 405 to GET with the allowed method", async () => {
    const res = await app.fetch(
      new Request("http://127.0.0.1/v1/files/write"),
    );
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "POST");
  });
});
