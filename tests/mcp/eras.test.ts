/**
 * Both protocol eras, both transports (docs/mcp.md "Eras"): a client pinned
 * to 2026-07-28 and a 2025-era client each list the tools, read and then
 * edit with no session header and no `--session` flag, and the pinned one
 * gets the tool list's `ttlMs`.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import {
  Client,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineHash } from "../../src/hash/fnv.ts";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { TOOLS_LIST_TTL_MS } from "../../src/mcp/_server.ts";
import { tsCommand } from "../_spawn.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const MODERN = "2026-07-28";

type Era = "2026-07-28" | "2025";

function client(era: Era): Client {
  return new Client(
    { name: `eras-${era}`, version: "1.0.0" },
    era === MODERN
      ? { versionNegotiation: { mode: { pin: MODERN } } }
      : undefined,
  );
}

/** `hashline mcp --root ROOT` as an MCP host starts it: no `--session`. */
function stdio(root: string): Transport {
  const [command, lead] = tsCommand(CLI);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HASHLINE_") && k !== "INIT_CWD") {
      env[k] = v;
    }
  }
  return new StdioClientTransport({
    command,
    args: [...lead, "mcp", "--root", root],
    cwd: root,
    env,
    stderr: "pipe",
  });
}

/** The app's `/mcp`, with no `Hashline-Session` header. */
function http(app: HashlineApp): Transport {
  return new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
    fetch: (input, init) =>
      Promise.resolve(app.fetch(new Request(input, init))),
  });
}

async function call(
  mcp: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean; data: unknown }> {
  const result = await mcp.callTool({ name, arguments: args });
  const content = (result.content ?? []) as { text: string }[];
  return {
    text: content.map((c) => c.text).join("\n"),
    isError: result.isError === true,
    data: result.structuredContent,
  };
}

/** Lists, reads, edits; returns the `ttlMs` the tool list carried. */
async function readThenEdit(
  mcp: Client,
  root: string,
  file: string,
): Promise<unknown> {
  const listed = await mcp.listTools();
  assert.deepEqual(
    listed.tools.map((t) => t.name).sort(),
    [
      "edit_file",
      "list_files",
      "read_file",
      "search_files",
      "source_edit",
      "source_export",
      "source_patch",
      "source_put",
      "source_read",
      "write_file",
    ],
  );
  const read = await call(mcp, "read_file", { path: file });
  assert.equal(read.isError, false, read.text);
  assert.match(read.text, new RegExp(`2:${lineHash("beta")}\\|beta`));
  const edit = await call(mcp, "edit_file", {
    path: file,
    ops: [{ op: "replace", start: `2:${lineHash("beta")}`, lines: ["BETA"] }],
  });
  assert.equal(edit.isError, false, edit.text);
  assert.equal(await readFile(join(root, file), "utf8"), "alpha\nBETA\n");
  return (listed as { ttlMs?: unknown }).ttlMs;
}

describe("MCP eras: 2026-07-28 and 2025-era clients", () => {
  let root: string;
  let app: HashlineApp;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "hashline-eras-")));
    for (const name of ["a.txt", "b.txt", "c.txt", "d.txt"]) {
      await writeFile(join(root, name), "alpha\nbeta\n");
    }
    app = createApp({ root, stateDir: join(root, ".hashline") });
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const cases: { era: Era; door: "stdio" | "http"; file: string }[] = [
    { era: MODERN, door: "stdio", file: "a.txt" },
    { era: "2025", door: "stdio", file: "b.txt" },
    { era: MODERN, door: "http", file: "c.txt" },
    { era: "2025", door: "http", file: "d.txt" },
  ];
  for (const { era, door, file } of cases) {
    it(
      `${era} over ${door}: lists, reads, then edits with no header and no flag`,
      {
        timeout: 60_000,
      },
      async () => {
        const mcp = client(era);
        await mcp.connect(door === "stdio" ? stdio(root) : http(app));
        try {
          const ttl = await readThenEdit(mcp, root, file);
          if (era === MODERN) assert.equal(ttl, TOOLS_LIST_TTL_MS);
          else {assert.equal(
              ttl,
              undefined,
              "no cache fields in 2025-era results",
            );}
        } finally {
          await mcp.close();
        }
      },
    );
  }
});
