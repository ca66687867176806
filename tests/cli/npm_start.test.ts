import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { collect, REPO_ROOT } from "../_spawn.ts";
import { cleanEnv, type TempDir, tempDir } from "./_cli.ts";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

async function freePort(): Promise<number> {
  const server = await listen(0);
  const { port } = server.address() as { port: number };
  await close(server);
  return port;
}

function npmStart(args: string[], state: string) {
  return spawn(NPM, ["start", "--silent", "--", ...args], {
    cwd: REPO_ROOT,
    env: cleanEnv({ HASHLINE_STORE: state }),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("npm start", () => {
  let t: TempDir;
  before(async () => {
    t = await tempDir({ "a.txt": "one\n" });
  });
  after(() => t.cleanup());

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(
      `stops on ${signal} to the pid npm gives, leaving the port free, and logs no colour codes or warnings`,
      { timeout: 120_000 },
      async () => {
        const port = await freePort();
        const child = npmStart(
          ["--port", String(port), "--root", t.dir],
          join(t.dir, ".state"),
        );
        const done = collect(child);
        let seen = "";
        await new Promise<void>((resolve, reject) => {
          child.stdout!.on("data", (d: Uint8Array | string) => {
            seen += String(d);
            if (
              seen.includes(`hashline listening on http://127.0.0.1:${port}`)
            ) {
              resolve();
            }
          });
          child.once(
            "exit",
            () => reject(new Error(`npm start ended: ${seen}`)),
          );
        });
        const health = await fetch(`http://127.0.0.1:${port}/health`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        const mcp = await fetch(`http://127.0.0.1:${port}/mcp`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-06-18",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
          }),
        });
        assert.equal(mcp.status, 200);
        await mcp.text();
        child.kill(signal);
        const result = await done;
        const log = seen + result.stdout + result.stderr;
        assert.ok(!log.includes("\u001b["), "ANSI colour codes in the log");
        assert.doesNotMatch(log, /warning/i, "a runtime warning in the log");
        // Nothing is left listening: the port binds again.
        const again = await listen(port);
        await close(again);
      },
    );
  }

  it("names the port and the flag when the port is in use", {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    const holder = await listen(port);
    try {
      const result = await collect(
        npmStart(["--port", String(port), "--root", t.dir], join(t.dir, ".s2")),
      );
      assert.notEqual(result.code, 0);
      assert.match(
        result.stderr,
        new RegExp(`Port ${port} is in use; pass --port N`),
      );
    } finally {
      await close(holder);
    }
  });
  it(
    "serves the demo folder when no --root is given, says so, and logs no warning after an MCP session ends",
    {
      timeout: 120_000,
    },
    async () => {
      const port = await freePort();
      const child = npmStart(["--port", String(port)], join(t.dir, ".s3"));
      const done = collect(child);
      let seen = "";
      await new Promise<void>((resolve, reject) => {
        const take = (d: Uint8Array | string) => {
          seen += String(d);
          if (seen.includes(`hashline listening on http://127.0.0.1:${port}`)) {
            resolve();
          }
        };
        child.stdout!.on("data", take);
        child.stderr!.on("data", take);
        child.once("exit", () => reject(new Error(`npm start ended: ${seen}`)));
      });
      const demo = join(REPO_ROOT, "examples", "demo");
      assert.match(seen, new RegExp(`serving the demo folder ${demo}`));
      assert.match(seen, /npm start -- --root \/path\/to\/project/);
      assert.ok(seen.includes(`workspace: ${demo}\n`), seen);
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      };
      const init = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
        }),
      });
      assert.equal(init.status, 200);
      await init.text();
      const session = init.headers.get("mcp-session-id");
      assert.ok(session, "the server names an MCP session");
      const ended = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "DELETE",
        headers: {
          "mcp-session-id": session,
          "mcp-protocol-version": "2025-06-18",
        },
      });
      assert.equal(ended.status, 200);
      await ended.body?.cancel();
      child.kill("SIGTERM");
      const result = await done;
      const log = seen + result.stdout + result.stderr;
      assert.doesNotMatch(
        log,
        /warning|legacy/i,
        "a runtime warning in the log",
      );
    },
  );
});
