/**
 * A large whole-file write does not hold the serving thread: while a
 * running server (`startServer`) rewrites 16,000 lines, `GET /health` keeps
 * answering within a second, and the write's answer carries exact counts
 * with its diff cut to the result's bound (docs/safety.md "Bounded work").
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startServer } from "../../src/http/server.ts";
import { tempTree } from "./_helpers.ts";

const LINES = 16_000;

function numbered(prefix: string): string {
  let out = "";
  for (let i = 1; i <= LINES; i++) out += `${prefix} line ${i}\n`;
  return out;
}

describe("GET /health while a large write runs", () => {
  it("answers within 1 s of each request until the write has answered", {
    timeout: 60_000,
  }, async () => {
    const tree = await tempTree();
    const server = await startServer({
      port: 0,
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
    });
    try {
      await writeFile(join(tree.dir, "big.txt"), numbered("old"));
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "hashline-session": "busy",
          },
          body: JSON.stringify(body),
        });
      for (const offset of [1, 10_001]) {
        const read = await post("/v1/files/read", {
          path: "big.txt",
          offset,
          limit: 10_000,
        });
        assert.equal(read.status, 200);
        await read.body?.cancel();
      }
      const content = numbered("new");
      let written = false;
      const write = post("/v1/files/write", { path: "big.txt", content })
        .then(async (res) => {
          written = true;
          return { status: res.status, body: await res.json() };
        });
      const waits: number[] = [];
      do {
        const sent = performance.now();
        const health = await fetch(`${server.url}/health`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        waits.push(performance.now() - sent);
      } while (!written);
      const answer = await write;
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const longest = waits.reduce((a, b) => Math.max(a, b), 0);
      assert.ok(
        longest < 1_000,
        `GET /health waited ${Math.round(longest)} ms`,
      );
      assert.equal(answer.body.added, LINES);
      assert.equal(answer.body.removed, LINES);
      assert.match(answer.body.summary, /^Wrote big\.txt \(\+16000 -16000\)/);
      assert.match(answer.body.diff, /read lines 1–16000 of big\.txt/);
      assert.ok(answer.body.diff.length < 80 * 1024);
      assert.equal(await readFile(join(tree.dir, "big.txt"), "utf8"), content);
      const history = await fetch(`${server.url}/v1/history?limit=1`, {
        headers: { "hashline-session": "busy" },
      });
      const [entry] = (await history.json()).entries;
      assert.deepEqual(
        [entry.files[0].added, entry.files[0].removed],
        [LINES, LINES],
      );
    } finally {
      await server.close();
      await tree.cleanup();
    }
  });
});
