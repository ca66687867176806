import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { call, errorOf } from "./_helpers.ts";

const SOURCE = "function add(a, b) {\n  return a - b;\n}\n";

describe("revision routes", () => {
  const store = createMemoryStore();
  const app = createApp({ store });

  it("POST /v1/revisions stores a source: 201 with ref, handle and Location; 200 when known", async () => {
    const res = await call(app, "POST", "/v1/revisions", { source: SOURCE });
    assert.equal(res.status, 201);
    assert.equal(res.body.ok, true);
    assert.match(res.body.ref, /^sha256:[0-9a-f]{64}$/);
    assert.equal(res.body.handle, "p_" + res.body.ref.slice(7, 19));
    assert.equal(res.headers.get("location"), `/v1/revisions/${res.body.ref}`);
    const again = await call(app, "POST", "/v1/revisions", { source: SOURCE });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, res.body);
  });

  it("GET /v1/revisions/{ref} is immutable text with ETag = ref, and 304 on a match", async () => {
    const { ref, handle } =
      (await call(app, "POST", "/v1/revisions", { source: SOURCE })).body;
    for (const key of [ref, handle, encodeURIComponent(ref)]) {
      const res = await app.request(`/v1/revisions/${key}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), SOURCE);
      assert.equal(res.headers.get("etag"), `"${ref}"`);
      assert.match(res.headers.get("cache-control") ?? "", /immutable/);
      assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    }
    for (
      const tag of [`"${ref}"`, ref, `W/"${ref}"`, `"other", "${ref}"`, "*"]
    ) {
      const res = await app.request(`/v1/revisions/${handle}`, {
        headers: { "if-none-match": tag },
      });
      assert.equal(res.status, 304, tag);
      assert.equal(res.headers.get("etag"), `"${ref}"`);
      assert.equal(await res.text(), "");
    }
    const miss = await app.request(`/v1/revisions/${handle}`, {
      headers: { "if-none-match": '"sha256:0000"' },
    });
    assert.equal(miss.status, 200);
    await miss.body?.cancel();
  });

  it("unknown refs and handles are 404 (UNKNOWN_HANDLE names put)", async () => {
    const byHandle = await call(app, "GET", "/v1/revisions/p_0123456789ab");
    assert.equal(byHandle.status, 404);
    const err = errorOf(byHandle);
    assert.equal(err.code, "UNKNOWN_HANDLE");
    assert.match(err.message, /put/);
    const byRef = await call(
      app,
      "GET",
      `/v1/revisions/sha256:${"0".repeat(64)}/source`,
    );
    assert.equal(byRef.status, 404);
    assert.equal(errorOf(byRef).code, "NOT_FOUND");
  });

  it("GET /v1/revisions/{ref}/source reads windows and queries", async () => {
    const { handle } =
      (await call(app, "POST", "/v1/revisions", { source: SOURCE })).body;
    const win = await call(
      app,
      "GET",
      `/v1/revisions/${handle}/source?offset=2&limit=5`,
    );
    assert.equal(win.status, 200);
    assert.deepEqual(win.body, {
      ok: true,
      found: true,
      code: SOURCE.slice(2, 7),
      offset: 2,
      nextOffset: 7,
      totalChars: SOURCE.length,
    });
    const hit = await call(
      app,
      "GET",
      `/v1/revisions/${handle}/source?query=return`,
    );
    assert.equal(hit.body.found, true);
    assert.match(hit.body.code, /return a - b/);
    const none = await call(
      app,
      "GET",
      `/v1/revisions/${handle}/source?query=zzz`,
    );
    assert.equal(none.body.found, false);
    assert.equal(none.body.code, "");
    const bad = await call(
      app,
      "GET",
      `/v1/revisions/${handle}/source?offset=-1`,
    );
    assert.equal(bad.status, 400);
    assert.match(errorOf(bad).message, /"offset"/);
  });

  it("POST /v1/revisions/{ref}/edits makes a new revision and leaves the base", async () => {
    const base =
      (await call(app, "POST", "/v1/revisions", { source: SOURCE })).body;
    const res = await call(app, "POST", `/v1/revisions/${base.handle}/edits`, {
      edits: [{ old_string: "a - b", new_string: "a + b" }],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.ok, true);
    assert.equal(res.body.parentRef, base.ref);
    assert.notEqual(res.body.ref, base.ref);
    assert.match(res.body.diff, /^\+ {2}return a \+ b;$/m);
    assert.equal(await store.get(base.ref), SOURCE);
    const camel = await call(
      app,
      "POST",
      `/v1/revisions/${res.body.handle}/edits`,
      {
        edits: [{ oldString: "a + b", newString: "b + a" }],
      },
    );
    assert.equal(camel.status, 200);
    assert.equal(
      await store.get(camel.body.ref),
      SOURCE.replace("a - b", "b + a"),
    );
  });

  it("edits that match zero or several times are 409 and leave the base as it was", async () => {
    const base =
      (await call(app, "POST", "/v1/revisions", { source: "x x\n" })).body;
    const none = await call(app, "POST", `/v1/revisions/${base.handle}/edits`, {
      edits: [{ old_string: "y", new_string: "z" }],
    });
    assert.equal(none.status, 409);
    assert.equal(errorOf(none).code, "NO_MATCH");
    const many = await call(app, "POST", `/v1/revisions/${base.handle}/edits`, {
      edits: [{ old_string: "x", new_string: "z" }],
    });
    assert.equal(many.status, 409);
    assert.equal(errorOf(many).code, "MANY_MATCHES");
    assert.equal(await store.get(base.ref), "x x\n");
    const all = await call(app, "POST", `/v1/revisions/${base.handle}/edits`, {
      edits: [{ old_string: "x", new_string: "z", replace_all: true }],
    });
    assert.equal(all.status, 200);
    assert.equal(await store.get(all.body.ref), "z z\n");
  });

  it("edits with a missing field are 400 naming it", async () => {
    const base =
      (await call(app, "POST", "/v1/revisions", { source: SOURCE })).body;
    const res = await call(app, "POST", `/v1/revisions/${base.handle}/edits`, {
      edits: [{ old_string: "a" }],
    });
    assert.equal(res.status, 400);
    assert.match(errorOf(res).message, /edits\[0\]\.new_string/);
  });

  it("POST /v1/revisions/{ref}/patch applies ops or the text form", async () => {
    const base =
      (await call(app, "POST", "/v1/revisions", { source: "x\ny\n" })).body;
    const byOps = await call(app, "POST", `/v1/revisions/${base.ref}/patch`, {
      ops: [{ op: "replace", start: "2:4a", lines: ["Y"] }],
    });
    assert.equal(byOps.status, 200);
    assert.equal(await store.get(byOps.body.ref), "x\nY\n");
    const byText = await call(
      app,
      "POST",
      `/v1/revisions/${base.handle}/patch`,
      {
        patch: "+\n~end",
      },
    );
    assert.equal(await store.get(byText.body.ref), "x\ny\nend\n");
    const stale = await call(
      app,
      "POST",
      `/v1/revisions/${base.handle}/patch`,
      {
        ops: [{ op: "delete", start: "1:ff" }],
      },
    );
    assert.equal(stale.status, 409);
    assert.match(errorOf(stale).message, /^Rejected — nothing written\./);
  });

  it("GET /v1/revisions/{ref}/lines shows an anchored window that /patch takes", async () => {
    const { body: put } = await call(app, "POST", "/v1/revisions", {
      source: SOURCE,
    });
    const res = await call(
      app,
      "GET",
      `/v1/revisions/${put.handle}/lines?offset=2&limit=1`,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.ref, put.ref);
    assert.equal(
      res.body.text,
      `2:${lineHash("  return a - b;")}|  return a - b;`,
    );
    assert.equal(res.body.totalLines, 3);
    assert.equal(res.body.nextOffset, 3);
    assert.match(res.headers.get("cache-control") ?? "", /immutable/);
    const anchor = res.body.text.split("|")[0];
    const patched = await call(
      app,
      "POST",
      `/v1/revisions/${put.handle}/patch`,
      {
        ops: [{ op: "replace", start: anchor, lines: ["  return a + b;"] }],
      },
    );
    assert.equal(patched.status, 200);
    const next = await call(
      app,
      "GET",
      `/v1/revisions/${patched.body.ref}/lines`,
    );
    assert.ok(next.body.text.includes("|  return a + b;"), next.body.text);
  });

  const badWindows: [string, string][] = [
    ["limit=10001", /"limit" is at most 10000/.source],
    ["offset=0", /"offset" counts lines from 1/.source],
    ["limit=ten", /"limit" must be a whole number/.source],
    ["offset=9", /3 lines/.source],
  ];
  for (const [query, pattern] of badWindows) {
    it(`GET /v1/revisions/{ref}/lines?${query} is 400 naming the problem`, async () => {
      const { body: put } = await call(app, "POST", "/v1/revisions", {
        source: SOURCE,
      });
      const res = await call(
        app,
        "GET",
        `/v1/revisions/${put.ref}/lines?${query}`,
      );
      assert.equal(res.status, 400);
      assert.match(errorOf(res).message, new RegExp(pattern));
    });
  }

  it("a source over 1 MiB is 413", async () => {
    const res = await call(app, "POST", "/v1/revisions", {
      source: "z".repeat(1024 * 1024 + 1),
    });
    assert.equal(res.status, 413);
    assert.equal(errorOf(res).code, "TOO_LARGE");
  });
});
