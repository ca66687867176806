import assert from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createApp } from "../../src/http/app.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { REPO_ROOT, runTs, tsCommand } from "../_spawn.ts";
import { bytes, tempTree } from "../http/_helpers.ts";
import { connectHttp } from "./_client.ts";

const CLI = join(REPO_ROOT, "src", "cli", "main.ts");
const FILES = [
  "read_file",
  "edit_file",
  "write_file",
  "list_files",
  "search_files",
];
const STORE = [
  "source_put",
  "source_read",
  "source_edit",
  "source_patch",
  "source_export",
];

function childEnv(state: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) env[k] = v;
  }
  env.HASHLINE_STORE = state;
  return env;
}

describe("tool sets over MCP", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    tree = await tempTree({ "a.txt": "one\n" });
  });
  after(() => tree.cleanup());

  it('createApp({ tools: ["files"] }) serves the file tools only, with titles, annotations and output schemas', async () => {
    const app = createApp({
      root: tree.dir,
      stateDir: join(tree.dir, ".hashline"),
      store: createMemoryStore(),
      tools: ["files"],
    });
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      const { tools } = await mcp.client.listTools();
      assert.deepEqual(tools.map((t) => t.name), FILES);
      for (const t of tools) {
        assert.ok(t.title, t.name);
        assert.equal(typeof t.annotations?.readOnlyHint, "boolean", t.name);
        assert.equal(t.outputSchema?.type, "object", t.name);
      }
      const instructions = mcp.client.getInstructions() ?? "";
      assert.match(instructions, /LINE:HH/);
      assert.doesNotMatch(instructions, /source_put/);
      const read = await mcp.client.callTool({
        name: "read_file",
        arguments: { path: "a.txt" },
      });
      assert.equal(
        (read.structuredContent as { totalLines: number }).totalLines,
        1,
      );
      await assert.rejects(
        mcp.tool("source_put", { source: "x" }),
        /No tool named "source_put"/,
      );
    } finally {
      await mcp.close();
    }
  });

  it("createApp refuses an unknown tool set, naming it", () => {
    assert.throws(
      () => createApp({ tools: ["files", "shell" as "files"] }),
      /Unknown tool set "shell".*"files", "store", "history"/,
    );
  });

  it("hashline mcp --tools store serves the store tools; the default serves files and store", async () => {
    const list = async (extra: string[]): Promise<string[]> => {
      const [command, lead] = tsCommand(CLI);
      const transport = new StdioClientTransport({
        command,
        args: [...lead, "mcp", "--root", tree.dir, ...extra],
        cwd: REPO_ROOT,
        env: childEnv(join(tree.dir, ".hashline")),
        stderr: "pipe",
      });
      const client = new Client({ name: "tool-sets", version: "1.0.0" });
      await client.connect(transport);
      try {
        return (await client.listTools()).tools.map((t) => t.name);
      } finally {
        await client.close();
      }
    };
    const [store, all] = await Promise.all([
      list(["--tools", "store"]),
      list([]),
    ]);
    assert.deepEqual(store, STORE);
    assert.deepEqual(all, [...FILES, ...STORE]);
  });

  it("hashline mcp and serve with an unknown --tools set exit 2 naming it; nothing is written", async () => {
    const before = await bytes(join(tree.dir, "a.txt"));
    const bad = ["--root", tree.dir, "--tools", "files,nope"];
    const [mcp, serve] = await Promise.all(
      [["mcp", ...bad], ["serve", "--port", "0", ...bad]].map((args) =>
        runTs(CLI, args, {
          cwd: REPO_ROOT,
          env: { HASHLINE_STORE: join(tree.dir, ".hashline") },
        })
      ),
    );
    for (const r of [mcp, serve]) {
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /Unknown tool set "nope"/);
    }
    assert.deepEqual(await bytes(join(tree.dir, "a.txt")), before);
  });
});
