/**
 * An id that is not `h_` and a number is bad input on every door (not a
 * missing entry), and nothing is written.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { hashline } from "../cli/_cli.ts";
import { makeTree, snapshot } from "../workspace/_helpers.ts";

describe("a malformed history id", () => {
  it("is BAD_INPUT through the library, HTTP and the CLI", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "a\n");
      const before = await snapshot(t.root);
      const ws = t.open();
      for (const id of ["bogus", "h_", "h_01", "H_1", "h_1 "]) {
        await assert.rejects(
          ws.entry(id),
          (e: unknown) =>
            e instanceof TypeError && /is not an entry id/.test(e.message),
          id,
        );
        await assert.rejects(ws.undo(id), TypeError, id);
      }
      // A well-formed id that names nothing is still NOT_FOUND.
      await assert.rejects(ws.entry("h_9"), { code: "NOT_FOUND" });

      const app = createApp({ root: t.root, stateDir: t.state });
      const shown = await app.request("http://127.0.0.1/v1/history/bogus");
      assert.equal(shown.status, 400);
      assert.equal((await shown.json()).error.code, "BAD_INPUT");
      const undone = await app.request(
        "http://127.0.0.1/v1/history/bogus/undo",
        {
          method: "POST",
          body: "{}",
          headers: { "content-type": "application/json" },
        },
      );
      assert.equal(undone.status, 400);

      // The review page answers with a page of its own.
      const page = await app.request("http://127.0.0.1/history/bogus");
      assert.equal(page.status, 400);
      const html = await page.text();
      assert.match(html, /^\s*<!doctype html>/i);
      assert.match(html, /is not an entry id/);

      const cli = await hashline(["show", "bogus", "--json"], {
        cwd: t.root,
        env: { HASHLINE_STORE: t.state },
      });
      assert.notEqual(cli.code, 0);
      assert.equal(JSON.parse(cli.stdout).error.code, "BAD_INPUT");
      assert.deepEqual(await snapshot(t.root), before);
    } finally {
      await t.cleanup();
    }
  });
});
