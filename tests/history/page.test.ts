/**
 * The review page without a browser: list, entry with diff, the Undo form
 * and its guards (CSRF token, Host/Origin, login cookie with a token).
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { openWorkspace, type Workspace } from "../../src/workspace/mod.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";
import { anchors } from "./_helpers.ts";

async function edit(ws: Workspace): Promise<string> {
  const a = await anchors(ws, "a.txt");
  const r = await ws.patch({
    files: [{
      path: "a.txt",
      ops: [{ op: "replace", start: a[1], lines: ["<b>TWO</b>"] }],
    }],
  });
  return r.entry!;
}

function csrfOf(page: string): string {
  return /name="csrf" value="([0-9a-f]+)"/.exec(page)![1];
}

function form(csrf: string, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: `csrf=${csrf}`,
  };
}

describe("review page", () => {
  let t: Tree;
  let ws: Workspace;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\n");
    ws = openWorkspace(t.root, { stateDir: t.state });
  });
  afterEach(() => t.cleanup());

  it("lists entries, shows the diff escaped, and undoes through the form", async () => {
    const id = await edit(ws);
    const app = createApp({ root: t.root, stateDir: t.state });
    const list = await app.request("http://127.0.0.1/");
    assert.equal(list.status, 200);
    assert.match(list.headers.get("content-type")!, /^text\/html/);
    assert.match(
      list.headers.get("content-security-policy")!,
      /default-src 'none'/,
    );
    const listed = await list.text();
    assert.match(listed, new RegExp(`href="/history/${id}"`));
    assert.match(
      listed,
      /a\.txt <span class="add">\+1<\/span> <span class="del">−1<\/span>/,
    );
    const page = await (await app.request(`http://127.0.0.1/history/${id}`))
      .text();
    assert.match(page, /<span class="a">\+&lt;b&gt;TWO&lt;\/b&gt;<\/span>/);
    assert.match(page, /<button type="submit">Undo<\/button>/);
    const csrf = csrfOf(page);
    const before = await readFile(join(t.root, "a.txt"), "utf8");
    // Without the CSRF token, or with a wrong one: refused, nothing written.
    for (const bad of ["", "0".repeat(64)]) {
      const r = await app.request(
        `http://127.0.0.1/history/${id}/undo`,
        form(bad),
      );
      assert.equal(r.status, 403);
    }
    // From a foreign page: refused by the Host/Origin guard.
    const foreign = await app.request(
      `http://127.0.0.1/history/${id}/undo`,
      form(csrf, { origin: "http://evil.example" }),
    );
    assert.equal(foreign.status, 403);
    const rebound = await app.request(`http://evil.example/history/${id}`);
    assert.equal(rebound.status, 403);
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), before);
    const done = await app.request(
      `http://127.0.0.1/history/${id}/undo`,
      form(csrf, { origin: "http://127.0.0.1" }),
    );
    assert.equal(done.status, 303);
    const next = done.headers.get("location")!;
    assert.match(next, /^\/history\/h_2$/);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "one\ntwo\nthree\n",
    );
    const undone = await (await app.request(`http://127.0.0.1${next}`)).text();
    assert.match(
      undone,
      new RegExp(`undo of <a href="/history/${id}">${id}</a>`),
    );
    // The first entry's lines moved on: the page says why instead of a button.
    const again = await (await app.request(`http://127.0.0.1/history/${id}`))
      .text();
    assert.doesNotMatch(again, /<button/);
    assert.match(again, /Undo is not possible/);
    assert.match(again, /line 2 no longer holds what h_1 wrote/);
    const late = await app.request(
      `http://127.0.0.1/history/${id}/undo`,
      form(csrf),
    );
    assert.equal(late.status, 409);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "one\ntwo\nthree\n",
    );
    assert.equal(
      (await app.request("http://127.0.0.1/history/h_99")).status,
      404,
    );
  });

  it("with a token: a one-time login link sets an HttpOnly SameSite=Strict cookie; the token never shows", async () => {
    const id = await edit(ws);
    const token = "tok3n-s3cret";
    const loginKey = "k".repeat(64);
    const app: HashlineApp = createApp({
      root: t.root,
      stateDir: t.state,
      token,
      loginKey,
    });
    assert.equal((await app.request("http://h.example/")).status, 401);
    // The bearer header is the API's door, not the page's.
    const bearer = await app.request("http://h.example/", {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(bearer.status, 401);
    assert.equal(
      (await app.request("http://h.example/login?key=nope")).status,
      401,
    );
    const login = await app.request(`http://h.example/login?key=${loginKey}`);
    assert.equal(login.status, 303);
    const cookie = login.headers.get("set-cookie")!;
    assert.match(
      cookie,
      /^hashline_page=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/,
    );
    assert.ok(!cookie.includes(token));
    // One time only.
    assert.equal(
      (await app.request(`http://h.example/login?key=${loginKey}`)).status,
      401,
    );
    const jar = { cookie: cookie.split(";")[0] };
    const list = await app.request("http://h.example/", { headers: jar });
    assert.equal(list.status, 200);
    const page = await (await app.request(`http://h.example/history/${id}`, {
      headers: jar,
    })).text();
    assert.ok(!page.includes(token));
    const csrf = csrfOf(page);
    const noCookie = await app.request(
      `http://h.example/history/${id}/undo`,
      form(csrf),
    );
    assert.equal(noCookie.status, 401);
    const done = await app.request(
      `http://h.example/history/${id}/undo`,
      form(csrf, jar),
    );
    assert.equal(done.status, 303);
    // The API still takes the bearer token.
    const api = await app.request("http://h.example/v1/history", {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal((await api.json()).entries.length, 2);
  });
});
