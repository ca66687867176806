import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { collect, runtimeName, startTs } from "../_spawn.ts";
import { tempTree } from "../http/_helpers.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));

describe("hashline serve (a real process)", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let refused: ReturnType<typeof collect>;
  before(async () => {
    tree = await tempTree({ "a.txt": "one\ntwo\n" });
    // Started now so its start-up overlaps the other case's.
    refused = collect(
      startTs(CLI, [
        "serve",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--root",
        tree.dir,
      ], {
        cwd: REPO,
        env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
      }),
    );
  });
  after(() => tree.cleanup());

  it("prints where it listens, serves, and stops cleanly on SIGTERM", async () => {
    const child = startTs(CLI, [
      "serve",
      "--port",
      "0",
      "--root",
      tree.dir,
      "--token",
      "tk",
    ], {
      cwd: REPO,
      env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
    });
    const done = collect(child);
    const url = await new Promise<string>((resolve, reject) => {
      let seen = "";
      child.stdout?.on("data", (d: string) => {
        seen += d;
        const m = /^hashline listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(
          seen,
        );
        if (m) resolve(m[1]);
      });
      child.on(
        "close",
        () => reject(new Error(`server exited before listening: ${seen}`)),
      );
    });
    const health = await fetch(`${url}/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    const denied = await fetch(`${url}/v1/files/read`, {
      method: "POST",
      body: JSON.stringify({ path: "a.txt" }),
    });
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const read = await fetch(`${url}/v1/files/read`, {
      method: "POST",
      headers: {
        authorization: "Bearer tk",
        "content-type": "application/json",
      },
      body: JSON.stringify({ path: "a.txt" }),
    });
    assert.equal((await read.json()).totalLines, 2);
    child.kill("SIGTERM");
    const result = await done;
    assert.match(result.stderr, /hashline stopped/);
    // Deno's child_process reports a child it signalled as killed even when the child exits 0.
    if (runtimeName() !== "deno") assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`store: .*\\.hashline`));
  });

  it("refuses a public address without a token (exit 2, names --token)", async () => {
    const result = await refused;
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--token/);
  });
});
