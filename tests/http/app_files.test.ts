import assert from "node:assert/strict";
import { readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import {
  openWorkspace,
  type PatchOptions,
  type Workspace,
} from "../../src/workspace/mod.ts";
import { bytes, call, errorOf, tempTree } from "./_helpers.ts";

describe("file routes", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let outside: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  const as = (session: string) => ({ "hashline-session": session });

  before(async () => {
    tree = await tempTree({
      "app.ts": "const a = 1;\nconst b = 2;\n",
      "crlf.txt": "one\r\ntwo\r\n",
      "src/util.ts": "export const x = 1;\n",
      "bin.dat": "ab\u0000cd",
    });
    outside = await tempTree({ "secret.txt": "secret\n" });
    await symlink(join(outside.dir, "secret.txt"), join(tree.dir, "link.txt"));
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(async () => {
    await tree.cleanup();
    await outside.cleanup();
  });

  it("POST /v1/files/read returns the anchored view", async () => {
    const res = await call(
      app,
      "POST",
      "/v1/files/read",
      { path: "app.ts" },
      as("reader"),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      ok: true,
      path: "app.ts",
      text: `1:${await hashOf("const a = 1;")}|const a = 1;\n2:${await hashOf(
        "const b = 2;",
      )}|const b = 2;`,
      totalLines: 2,
      startLine: 1,
      endLine: 2,
      nextOffset: null,
    });
    const win = await call(app, "POST", "/v1/files/read", {
      path: "app.ts",
      offset: 2,
      limit: 1,
    });
    assert.equal(
      win.body.text,
      `2:${await hashOf("const b = 2;")}|const b = 2;`,
    );
  });

  const refusals: [string, unknown, number, string][] = [
    ["a path escaping with ..", { path: "../x.txt" }, 403, "OUTSIDE_ROOT"],
    [
      "an absolute path outside",
      { path: "/etc/hostname" },
      403,
      "OUTSIDE_ROOT",
    ],
    ["a symlink leading outside", { path: "link.txt" }, 403, "OUTSIDE_ROOT"],
    ["a missing file", { path: "nope.ts" }, 404, "NOT_FOUND"],
    ["a binary file", { path: "bin.dat" }, 400, "NOT_TEXT"],
    ["a path that is not a string", { path: 5 }, 400, "BAD_INPUT"],
    ["an offset past the end", { path: "app.ts", offset: 9 }, 400, "BAD_INPUT"],
  ];
  for (const [name, body, status, code] of refusals) {
    it(`read of ${name} is ${status} ${code}`, async () => {
      const res = await call(app, "POST", "/v1/files/read", body);
      assert.equal(res.status, status);
      assert.equal(errorOf(res).code, code);
    });
  }

  it("POST /v1/files/patch applies JSON and text forms after a read", async () => {
    await call(
      app,
      "POST",
      "/v1/files/read",
      { path: "src/util.ts" },
      as("editor"),
    );
    const json = await call(app, "POST", "/v1/files/patch", {
      patch: {
        files: [{
          path: "src/util.ts",
          ops: [{
            op: "insert_after",
            anchor: "1:" + (await hashOf("export const x = 1;")),
            lines: ["export const y = 2;"],
          }],
        }],
      },
    }, as("editor"));
    assert.equal(json.status, 200);
    assert.equal(json.body.ok, true);
    assert.equal(json.body.dryRun, false);
    assert.match(json.body.summary, /^Edited src\/util\.ts \(\+1 -0\)/);
    assert.equal(
      await readFile(join(tree.dir, "src/util.ts"), "utf8"),
      "export const x = 1;\nexport const y = 2;\n",
    );
    const text = await call(app, "POST", "/v1/files/patch", {
      patch: `@@ src/util.ts\n+\n~export const z = 3;`,
    }, as("editor"));
    assert.equal(text.status, 200);
    assert.match(
      await readFile(join(tree.dir, "src/util.ts"), "utf8"),
      /export const z = 3;\n$/,
    );
  });

  it("dry run validates and shows the diff without writing", async () => {
    await call(app, "POST", "/v1/files/read", { path: "crlf.txt" }, as("dry"));
    const before = await bytes(join(tree.dir, "crlf.txt"));
    const res = await call(app, "POST", "/v1/files/patch", {
      patch: `@@ crlf.txt\n= 2:${await hashOf("two")}\n~TWO`,
      dryRun: true,
    }, as("dry"));
    assert.equal(res.status, 200);
    assert.equal(res.body.dryRun, true);
    assert.match(res.body.files[0].diff, /\+TWO/);
    assert.deepEqual(await bytes(join(tree.dir, "crlf.txt")), before);
  });

  it("a read in one session does not let another session patch (409 NOT_READ, bytes unchanged)", async () => {
    await call(app, "POST", "/v1/files/read", { path: "app.ts" }, as("alice"));
    const before = await bytes(join(tree.dir, "app.ts"));
    const res = await call(app, "POST", "/v1/files/patch", {
      patch: {
        path: "app.ts",
        ops: [{ op: "delete", start: `1:${await hashOf("const a = 1;")}` }],
      },
    }, as("bob"));
    assert.equal(res.status, 409);
    const err = errorOf(res);
    assert.equal(err.code, "NOT_READ");
    assert.match(err.message, /^Rejected — nothing written\./);
    assert.deepEqual(await bytes(join(tree.dir, "app.ts")), before);
  });

  it("a stale anchor is 409 STALE_ANCHOR with problems, bytes unchanged", async () => {
    await call(app, "POST", "/v1/files/read", { path: "app.ts" }, as("carol"));
    const before = await bytes(join(tree.dir, "app.ts"));
    const res = await call(app, "POST", "/v1/files/patch", {
      patch: "@@ app.ts\n= 2:00\n~const b = 3;",
    }, as("carol"));
    assert.equal(res.status, 409);
    const err = errorOf(res);
    assert.equal(err.code, "STALE_ANCHOR");
    assert.equal(err.problems?.length, 1);
    assert.deepEqual(await bytes(join(tree.dir, "app.ts")), before);
  });

  it("a patch with bad input is 400 naming the field; outside the root is 403", async () => {
    const none = await call(app, "POST", "/v1/files/patch", { dryRun: true });
    assert.equal(none.status, 400);
    assert.match(errorOf(none).message, /"patch"/);
    const badOp = await call(app, "POST", "/v1/files/patch", {
      files: [{ path: "app.ts", ops: [{ op: "explode" }] }],
    });
    assert.equal(badOp.status, 400);
    assert.match(errorOf(badOp).message, /files\[0\]\.ops\[0\]/);
    const out = await call(app, "POST", "/v1/files/patch", {
      patch: "@@ ../evil.txt\n+\n~x",
    });
    assert.equal(out.status, 403);
    const session = await call(app, "POST", "/v1/files/read", {
      path: "app.ts",
    }, {
      "hashline-session": "../../etc",
    });
    assert.equal(session.status, 400);
    assert.match(errorOf(session).message, /Hashline-Session/);
  });

  it("creates a new file with append ops and no read", async () => {
    const res = await call(app, "POST", "/v1/files/patch", {
      patch: "@@ fresh/new.txt\n+\n~hello",
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.files[0].created, true);
    assert.equal(
      await readFile(join(tree.dir, "fresh/new.txt"), "utf8"),
      "hello\n",
    );
  });
});

async function hashOf(line: string): Promise<string> {
  const { lineHash } = await import("../../src/hash/fnv.ts");
  return lineHash(line);
}

describe("rebase on POST /v1/files/patch", () => {
  it("comes from the app default, and a body's own rebase wins; the result carries rebased and warnings", async () => {
    const tree = await tempTree({ "r.txt": "one\ntwo\n" });
    try {
      const real = openWorkspace(tree.dir, { persistSessions: false });
      const seen: (boolean | undefined)[] = [];
      const workspace: Workspace = Object.create(real, {
        patch: {
          value: (patch: object, options?: PatchOptions) => {
            seen.push(options?.rebase);
            return real.patch(patch as never, options);
          },
        },
      });
      const app = createApp({ workspace, rebase: true });
      await call(app, "POST", "/v1/files/read", { path: "r.txt" });
      const patch = `@@ r.txt\n= 2:${await hashOf("two")}\n~TWO`;
      const first = await call(app, "POST", "/v1/files/patch", {
        patch,
        dryRun: true,
      });
      assert.equal(first.status, 200);
      assert.deepEqual(first.body.rebased, []);
      assert.deepEqual(first.body.warnings, []);
      await call(app, "POST", "/v1/files/patch", {
        patch,
        dryRun: true,
        rebase: false,
      });
      assert.deepEqual(seen, [true, false]);
    } finally {
      await tree.cleanup();
    }
  });
});
