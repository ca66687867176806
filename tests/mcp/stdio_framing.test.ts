import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { startTs } from "../_spawn.ts";
import { tempTree } from "../http/_helpers.ts";

const CHILD = fileURLToPath(new URL("./_stdio_child.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** Collects the server's answers (one JSON-RPC message per line) by id. */
function answers(child: ChildProcess): {
  byId: Map<number, Record<string, unknown>>;
  next(id: number): Promise<Record<string, unknown>>;
} {
  const byId = new Map<number, Record<string, unknown>>();
  const waiting = new Map<number, (m: Record<string, unknown>) => void>();
  let rest = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (text: string) => {
    rest += text;
    let nl;
    while ((nl = rest.indexOf("\n")) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      const m = JSON.parse(line) as Record<string, unknown>;
      if (typeof m.id === "number") {
        byId.set(m.id, m);
        waiting.get(m.id)?.(m);
      }
    }
  });
  return {
    byId,
    next: (id) =>
      byId.has(id)
        ? Promise.resolve(byId.get(id)!)
        : new Promise((resolve) => waiting.set(id, resolve)),
  };
}

/** Writes bytes and waits until the pipe took them, so chunks stay apart. */
function send(child: ChildProcess, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) =>
    child.stdin!.write(bytes, (e) => (e ? reject(e) : resolve()))
  );
}

const enc = new TextEncoder();
const line = (m: object, end = "\n") => enc.encode(JSON.stringify(m) + end);

describe("MCP over stdio: message framing", () => {
  it(
    "reads messages split anywhere, several per chunk, CRLF-ended, past a malformed line, and ends with standard input",
    { timeout: 60_000 },
    async () => {
      const tree = await tempTree({ "a.txt": "one\ntwo\n" });
      const child = startTs(CHILD, [tree.dir], {
        cwd: REPO,
        env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
      });
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code))
      );
      try {
        const got = answers(child);
        const init = line({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "tëst 😀 client", version: "1.0.0" },
          },
        });
        for (let at = 0; at < init.length; at += 7) {
          await send(child, init.subarray(at, at + 7));
        }
        const first = await got.next(1);
        assert.equal(
          (first.result as { serverInfo: { name: string } }).serverInfo.name,
          "hashline",
        );
        // Two messages in one chunk, the second ending in CRLF, then a blank line.
        const both = new Uint8Array([
          ...line({ jsonrpc: "2.0", method: "notifications/initialized" }),
          ...line({ jsonrpc: "2.0", id: 2, method: "tools/list" }, "\r\n"),
          ...enc.encode("\n"),
        ]);
        await send(child, both);
        const tools = (await got.next(2)).result as {
          tools: { name: string }[];
        };
        assert.ok(tools.tools.some((t) => t.name === "read_file"));
        // A line that is not JSON does not end the server.
        await send(child, enc.encode("{not json\n"));
        await send(
          child,
          line({
            jsonrpc: "2.0",
            id: 3,
            method: "tools/call",
            params: { name: "read_file", arguments: { path: "a.txt" } },
          }),
        );
        const read = (await got.next(3)).result as {
          content: { text: string }[];
        };
        assert.match(read.content[0].text, /^1:[0-9a-f]{2}\|one\n2:/);
        // An edit whose new line has multi-byte characters, cut inside one.
        const edit = line({
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: {
            name: "edit_file",
            arguments: {
              path: "a.txt",
              ops: [{ op: "append", lines: ["tëst 😀 done"] }],
            },
          },
        });
        const cut = edit.indexOf(0xf0) + 2;
        await send(child, edit.subarray(0, cut));
        await send(child, edit.subarray(cut));
        const edited = (await got.next(4)).result as { isError?: boolean };
        assert.notEqual(edited.isError, true, JSON.stringify(edited));
        child.stdin!.end();
        assert.equal(await exited, 0);
        assert.equal(
          await readFile(join(tree.dir, "a.txt"), "utf8"),
          "one\ntwo\ntëst 😀 done\n",
        );
      } finally {
        child.kill();
        await tree.cleanup();
      }
    },
  );
});
