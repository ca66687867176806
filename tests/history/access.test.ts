/**
 * Who may see and undo history (docs/history.md, "Access and review"): a name of the label
 * form is refused at every door; an agent's undo is an edit that needs the
 * lines read (`NOT_READ` otherwise), while the supervisor's doors need no
 * read; views withhold the lines of denied files and their undo is
 * `DENIED`; every edit result names its entry.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { runCli } from "../_doors.ts";
import { call } from "../http/_helpers.ts";
import { makeTree } from "../workspace/_helpers.ts";
import { anchors, bytesOf } from "./_helpers.ts";

const LABEL = "mcp-3f2a9c1d";

const cli = runCli;

describe("history access", () => {
  it("refuses a session name of the label form at every door", {
    timeout: 30_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "one\n");
      assert.throws(
        () => openWorkspace(t.root, { stateDir: t.state, session: LABEL }),
        (e: Error) => e instanceof TypeError && /mcp-3f2a9c1d/.test(e.message),
      );
      const ws = t.open();
      await assert.rejects(
        ws.read("a.txt", { session: "stdio-0a1b2c3d" }),
        TypeError,
      );
      assert.throws(
        () => createToolRegistry({ workspace: ws, session: LABEL }),
        TypeError,
      );
      const r = await cli(t, ["read", "a.txt", "--session", LABEL, "--json"]);
      assert.equal(r.code, 2);
      assert.equal(JSON.parse(r.out).error.code, "BAD_INPUT");
      const app = createApp({ root: t.root, stateDir: t.state });
      const h = await call(app, "POST", "/v1/files/read", { path: "a.txt" }, {
        "hashline-session": LABEL,
      });
      assert.equal(h.status, 400);
      assert.equal(h.body.error.code, "BAD_INPUT");
      // As a filter of the log, a label is fine.
      assert.equal((await cli(t, ["log", "--session", LABEL])).code, 0);
      const f = await call(app, "GET", `/v1/history?session=${LABEL}`);
      assert.equal(f.status, 200);
      // As the header, it names a session, on the history routes too.
      for (const path of ["/v1/history", "/v1/history/h_1"]) {
        const named = await call(app, "GET", path, undefined, {
          "hashline-session": LABEL,
        });
        assert.equal(named.status, 400, path);
        assert.equal(named.body.error.code, "BAD_INPUT");
        assert.match(named.body.error.message, /Hashline-Session/);
      }
    } finally {
      await t.cleanup();
    }
  });

  it(
    "an agent's undo needs the lines read (NOT_READ), its own edit counts, the supervisor's needs none",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\nfour\n");
        const ws = t.open({ door: "mcp" });
        const tools = createToolRegistry({
          workspace: ws,
          tools: ["files", "history"],
        });
        await tools.call("read_file", { path: "a.txt" }, { session: "alice" });
        const a = await anchors(ws, "a.txt");
        const edit = await tools.call("edit_file", {
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: a[2], lines: ["THREE"] }],
          }],
        }, { session: "alice" });
        assert.ok(edit.ok);
        const id = (edit.data as { entry: string }).entry;
        const before = await bytesOf(t.root, "a.txt");

        const refused = await tools.call("undo_edit", { id }, {
          session: "bob",
        });
        assert.ok(!refused.ok);
        assert.equal(refused.error.code, "NOT_READ");
        assert.match(refused.error.message, /has not read line 3/);
        assert.match(refused.error.message, /read a\.txt \(offset 3\)/);
        assert.equal(await bytesOf(t.root, "a.txt"), before);
        // A dry run is judged the same way.
        const dry = await tools.call("undo_edit", { id, dryRun: true }, {
          session: "bob",
        });
        assert.ok(!dry.ok);
        assert.equal(dry.error.code, "NOT_READ");

        await tools.call("read_file", { path: "a.txt", offset: 3, limit: 1 }, {
          session: "bob",
        });
        const done = await tools.call("undo_edit", { id }, { session: "bob" });
        assert.ok(done.ok, done.ok ? "" : done.error.message);
        assert.equal(
          await bytesOf(t.root, "a.txt"),
          Buffer.from("one\ntwo\nthree\nfour\n").toString("hex"),
        );
        // The undo's own result counts as read: bob undoes it at once.
        const redo = await tools.call("undo_edit", {
          id: (done.data as { id: string }).id,
        }, { session: "bob" });
        assert.ok(redo.ok, redo.ok ? "" : redo.error.message);
        assert.equal(await bytesOf(t.root, "a.txt"), before);

        // The supervisor's doors (library, CLI) need no read.
        const lib = openWorkspace(t.root, {
          stateDir: t.state,
          session: "sup",
        });
        const [top] = await lib.history({ limit: 1 });
        await lib.undo(top.id);
        const c = await cli(t, [
          "undo",
          (await lib.history({ limit: 1 }))[0].id,
        ]);
        assert.equal(c.code, 0, c.err);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "withholds the lines of denied files from every view and refuses their undo (DENIED)",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "secret.env"), "TOKEN=abc123\nUSER=me\n");
        await writeFile(join(t.root, "ok.txt"), "visible\n");
        const open = t.open();
        const a = await anchors(open, "secret.env");
        const o = await anchors(open, "ok.txt");
        const r = await open.patch({
          files: [
            {
              path: "secret.env",
              ops: [{ op: "replace", start: a[0], lines: ["TOKEN=zzz999"] }],
            },
            {
              path: "ok.txt",
              ops: [{ op: "replace", start: o[0], lines: ["seen"] }],
            },
          ],
        });
        const id = r.entry!;
        const before = await bytesOf(t.root, "secret.env");
        const secret = /abc123|zzz999/;

        const ws = t.open({ deny: ["*.env"] });
        const views: [string, string][] = [];
        const entry = await ws.entry(id);
        views.push(["library", JSON.stringify(entry)]);
        const env = entry.files.find((f) => f.path === "secret.env")!;
        assert.equal(env.added, 1);
        assert.equal(env.removed, 1);
        assert.match(env.diff, /withheld.*deny: \*\.env/);
        assert.match(
          entry.files.find((f) => f.path === "ok.txt")!.diff,
          /^\+seen$/m,
        );
        views.push(["library log", JSON.stringify(await ws.history())]);

        const tools = createToolRegistry({ workspace: ws, tools: ["history"] });
        const shown = await tools.call("edit_history", { id });
        assert.ok(shown.ok);
        views.push(["registry", shown.text + JSON.stringify(shown.data)]);

        const app = createApp({ workspace: ws });
        const h = await call(app, "GET", `/v1/history/${id}`);
        assert.equal(h.status, 200);
        views.push(["http", JSON.stringify(h.body)]);
        const page = await (await app.request(`http://127.0.0.1/history/${id}`))
          .text();
        views.push(["page", page]);
        assert.match(page, /Undo is not possible/);

        for (const [door, text] of views) {
          assert.doesNotMatch(text, secret, door);
        }
        // Without the rule (the CLI sets none), the same entry shows them:
        // the views above withheld real lines.
        assert.match((await cli(t, ["show", id])).out, /zzz999/);

        await assert.rejects(
          ws.undo(id),
          (e: { code?: string; message?: string }) =>
            e.code === "DENIED" && /secret\.env/.test(e.message ?? ""),
        );
        const u = await call(app, "POST", `/v1/history/${id}/undo`, {});
        assert.equal(u.status, 403);
        assert.equal(u.body.error.code, "DENIED");
        const tu = await tools.call("undo_edit", { id });
        assert.ok(!tu.ok);
        assert.equal(tu.error.code, "DENIED");
        assert.equal(await bytesOf(t.root, "secret.env"), before);
      } finally {
        await t.cleanup();
      }
    },
  );

  it("every edit result names its entry: library, registry, HTTP, CLI", {
    timeout: 30_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "one\ntwo\n");
      const ws = t.open();
      const entryRe = /^h_\d+$/;
      const a = await anchors(ws, "a.txt");
      const lib = await ws.patch({
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: a[0], lines: ["ONE"] }],
        }],
      });
      assert.match(lib.entry!, entryRe);
      const w = await ws.write("new.txt", "x\n");
      assert.match(w.entry!, entryRe);

      const tools = createToolRegistry({ workspace: ws });
      await tools.call("read_file", { path: "a.txt" });
      const b = await anchors(ws, "a.txt");
      const e = await tools.call("edit_file", {
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: b[1], lines: ["TWO"] }],
        }],
      });
      assert.ok(e.ok);
      const eid = (e.data as { entry: string }).entry;
      assert.match(eid, entryRe);
      assert.match(e.text, new RegExp(`History entry: ${eid}\\.`));
      const wr = await tools.call("write_file", {
        path: "w.txt",
        content: "w\n",
      });
      assert.ok(wr.ok);
      assert.match((wr.data as { entry: string }).entry, entryRe);
      const sr = createToolRegistry({
        workspace: ws,
        editFormat: "str_replace",
      });
      await sr.call("read_file", { path: "a.txt" });
      const s = await sr.call("edit_file", {
        path: "a.txt",
        old_string: "TWO",
        new_string: "two",
      });
      assert.ok(s.ok, s.ok ? "" : s.error.message);
      assert.match((s.data as { entry: string }).entry, entryRe);

      const app = createApp({ workspace: ws });
      const read = await call(app, "POST", "/v1/files/read", { path: "a.txt" });
      const anchor = (read.body.text as string).split("|")[0];
      const hp = await call(app, "POST", "/v1/files/patch", {
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: anchor, lines: ["uno"] }],
        }],
      });
      assert.equal(hp.status, 200, JSON.stringify(hp.body));
      assert.match(hp.body.entry, entryRe);
      const hw = await call(app, "POST", "/v1/files/write", {
        path: "h.txt",
        content: "h\n",
      });
      assert.match(hw.body.entry, entryRe);

      const cr = await cli(t, ["read", "a.txt"]);
      const c = await cli(
        t,
        ["patch", "-", "--json"],
        JSON.stringify({
          files: [{
            path: "a.txt",
            ops: [{
              op: "replace",
              // The read's first line names the file (@@ a.txt).
              start: cr.out.split("\n")[1].split("|")[0],
              lines: ["eins"],
            }],
          }],
        }),
      );
      assert.equal(c.code, 0, c.err + c.out);
      assert.match(JSON.parse(c.out).entry, entryRe);
    } finally {
      await t.cleanup();
    }
  });
});

import { Buffer } from "node:buffer";
