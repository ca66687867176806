/**
 * What a supervisor sees on the review page, over plain HTTP: an undone
 * entry says so and links its undo, diffs show 3 context lines, the list
 * filters by session and path, a headline names every file, an undo made
 * on the page is recorded with door `page`, creations, deletions and
 * renames say so, and control or bidi characters show as escapes.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import {
  entryPage,
  listPage,
  PAGE_DIFF_LINES,
} from "../../src/http/_page_view.ts";
import { makeTree } from "../workspace/_helpers.ts";
import { anchors } from "./_helpers.ts";

const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") +
  "\n";

function csrfOf(page: string): string {
  return /name="csrf" value="([0-9a-f]+)"/.exec(page)![1];
}

describe("review page, as a supervisor reads it", () => {
  it(
    "marks and links undos, shows context, filters, names every file, records door page",
    {
      timeout: 60_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), TEN);
        await writeFile(join(t.root, "b.txt"), "b1\nb2\n");
        const alice = t.open({ session: "alice" });
        const a = await anchors(alice, "a.txt");
        const b = await anchors(alice, "b.txt");
        const two = await alice.patch({
          files: [
            {
              path: "a.txt",
              ops: [{ op: "replace", start: a[4], lines: ["FIVE"] }],
            },
            {
              path: "b.txt",
              ops: [{ op: "replace", start: b[0], lines: ["B1"] }],
            },
          ],
        });
        const bob = t.open({ session: "bob" });
        await writeFile(join(t.root, "c.txt"), "c\n");
        const c = await anchors(bob, "c.txt");
        await bob.patch({
          files: [{
            path: "c.txt",
            ops: [{ op: "replace", start: c[0], lines: ["C"] }],
          }],
        });

        const app = createApp({ root: t.root, stateDir: t.state });
        const get = async (path: string) => {
          const r = await app.request(`http://127.0.0.1${path}`);
          assert.equal(r.status, 200, path);
          return await r.text();
        };

        // Context: 3 lines each side of the change, from the file as it stands.
        const entry = await get(`/history/${two.entry}`);
        for (const n of [2, 3, 4, 6, 7, 8]) {
          assert.ok(entry.includes(`<span class=""> line ${n}</span>`), `${n}`);
        }
        assert.doesNotMatch(entry, /line 1</);
        assert.doesNotMatch(entry, /line 9</);
        assert.match(entry, /@@ -2,7 \+2,7 @@/);
        // The headline names both files.
        const h1 = /<h1>([\s\S]*?)<\/h1>/.exec(entry)![1];
        assert.match(h1, /a\.txt/);
        assert.match(h1, /b\.txt/);

        // Filters: by session, by path, both.
        const bySession = await get("/?session=alice");
        assert.ok(bySession.includes(`href="/history/${two.entry}"`));
        assert.doesNotMatch(bySession, /c\.txt/);
        const byPath = await get("/?path=c.txt");
        assert.doesNotMatch(byPath, /b\.txt/);
        assert.match(byPath, /c\.txt/);
        assert.match(
          await get("/?session=alice&path=c.txt"),
          /No entries match/,
        );

        // Undo from the page: door page, and the entry now says it was undone.
        const csrf = csrfOf(entry);
        const posted = await app.request(
          `http://127.0.0.1/history/${two.entry}/undo`,
          {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: `csrf=${csrf}`,
          },
        );
        assert.equal(posted.status, 303);
        const undoId = posted.headers.get("location")!.split("/").pop()!;
        const [top] = await alice.history({ limit: 1 });
        assert.equal(top.id, undoId);
        assert.equal(top.door, "page");
        assert.equal(top.undoOf, two.entry);
        const marked = await get(`/history/${two.entry}`);
        assert.match(
          marked,
          new RegExp(`undone by <a href="/history/${undoId}">${undoId}</a>`),
        );
        const list = await get("/");
        assert.match(
          list,
          new RegExp(`undone by <a href="/history/${undoId}">${undoId}</a>`),
        );
        // Even when the list is filtered to a session the undo is not in.
        assert.match(await get("/?session=alice"), /undone by/);
        const undoPage = await get(`/history/${undoId}`);
        assert.match(undoPage, /door page/);
        assert.match(
          undoPage,
          new RegExp(`undo of <a href="/history/${two.entry}">`),
        );
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "says created, deleted and renamed from, and shows control and bidi characters as escapes",
    {
      timeout: 10_000,
    },
    () => {
      const base = {
        time: "2026-01-02T03:04:05.000Z",
        session: "s\x1b[31m",
        door: "library" as const,
        summary: "Edited x\u202Eevil",
      };
      const files = [
        { path: "new.txt", added: 1, removed: 0, created: true },
        { path: "gone.txt", added: 0, removed: 2, deleted: true },
        { path: "to.txt", added: 0, removed: 0, renamedFrom: "from.txt" },
        { path: "e\x1b[2Jvil\u202E.txt", added: 1, removed: 1 },
      ];
      const list = String(listPage("/r", [{ id: "h_1", ...base, files }]));
      const page = String(
        entryPage(
          {
            id: "h_1",
            ...base,
            files: files.map((f) => ({
              ...f,
              diff: "--- x\n+++ x\n@@ -1,1 +1,1 @@\n-\x1b]0;t\x07\n+ok\u2066",
            })),
          },
          { possible: false, reason: "no" },
        ),
      );
      for (const html of [list, page]) {
        assert.match(html, /new\.txt \(created\)/);
        assert.match(html, /gone\.txt \(deleted\)/);
        assert.match(html, /to\.txt \(renamed from from\.txt\)/);
        assert.match(
          html,
          /e\\x1b\[2Jvil&lt;U\+202E&gt;\.txt|e\\x1b\[2Jvil<U\+202E>\.txt/,
        );
        assert.ok(!html.includes("\x1b"));
        assert.ok(!html.includes("\u202E"));
        assert.ok(!html.includes("\u2066"));
      }
      assert.match(page, /\\x1b\]0;t\\x07/);
      // A reason over several lines keeps its line breaks.
      const reason = String(
        entryPage({ id: "h_2", ...base, files: [] }, {
          possible: false,
          reason: "a.txt: moved\nb.txt: moved",
        }),
      );
      assert.match(reason, /a\.txt: moved\nb\.txt: moved/);
    },
  );
  it(
    "shows the first 2,000 lines of a huge diff and says how many more there are and where the whole one is",
    { timeout: 60_000 },
    async () => {
      const t = await makeTree();
      try {
        const big = Array.from({ length: 5_000 }, (_, i) => `row ${i}`).join(
          "\n",
        ) + "\n";
        await writeFile(join(t.root, "big.txt"), big);
        const ws = t.open({ session: "s" });
        const a = await anchors(ws, "big.txt");
        const del = await ws.patch({
          files: [{
            path: "big.txt",
            ops: [{ op: "delete", start: a[0], end: a[a.length - 1] }],
          }],
        });
        const app = createApp({ root: t.root, stateDir: t.state });
        const page = await (await app.request(
          `http://127.0.0.1/history/${del.entry}`,
        )).text();
        const pre = /<pre class="diff">([\s\S]*?)<\/pre>/.exec(page)![1];
        const shown = pre.match(/<span/g)!.length;
        assert.equal(shown, PAGE_DIFF_LINES);
        assert.match(pre, /row 0</);
        assert.doesNotMatch(pre, /row 4999</);
        const more = Number(
          /([\d,]+) more diff lines not shown/.exec(page)![1].replace(/,/g, ""),
        );
        assert.match(page, new RegExp(`hashline show ${del.entry}`));
        // Shown and counted together are the whole diff the API gives.
        const api = await (await app.request(
          `http://127.0.0.1/v1/history/${del.entry}`,
        )).json();
        const whole = (api.entry.files[0].diff as string).replace(/\n$/, "")
          .split("\n").length;
        assert.equal(shown + more, whole);
      } finally {
        await t.cleanup();
      }
    },
  );
});
