/**
 * The history's path filter finds a renamed file's entry under its old name
 * as well as its new one, through the library, the CLI and HTTP.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { hashline } from "../cli/_cli.ts";
import { makeTree } from "../workspace/_helpers.ts";

describe("history path filter and renames", () => {
  it("lists a rename under the old path and the new one, on every door", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "p.txt"), "p1\n");
      await writeFile(join(t.root, "other.txt"), "o\n");
      const ws = t.open();
      await ws.read("p.txt");
      const renamed = await ws.patch("@@ p.txt -> q.txt\n");
      const ids = async (path: string) =>
        (await ws.history({ path })).map((e) => e.id);
      assert.deepEqual(await ids("p.txt"), [renamed.entry]);
      assert.deepEqual(await ids("q.txt"), [renamed.entry]);
      assert.deepEqual(await ids("other.txt"), []);

      const cli = await hashline(["log", "--path", "p.txt", "--json"], {
        cwd: t.root,
        env: { HASHLINE_STORE: t.state },
      });
      assert.equal(cli.code, 0, cli.stderr);
      assert.deepEqual(
        JSON.parse(cli.stdout).entries.map((e: { id: string }) => e.id),
        [renamed.entry],
      );

      // The agent's listing names the rename as the CLI does.
      const registry = createToolRegistry({
        workspace: ws,
        tools: ["files", "history"],
      });
      const listed = await registry.call("edit_history", { path: "p.txt" });
      assert.ok(listed.ok);
      assert.match(listed.text, /q\.txt \(renamed from p\.txt\) \+0 -0/);

      const app = createApp({ root: t.root, stateDir: t.state });
      const res = await app.request("http://127.0.0.1/v1/history?path=p.txt");
      assert.equal(res.status, 200);
      assert.deepEqual(
        (await res.json()).entries.map((e: { id: string }) => e.id),
        [renamed.entry],
      );
    } finally {
      await t.cleanup();
    }
  });
});
