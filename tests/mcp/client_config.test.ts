import assert from "node:assert/strict";
import {
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineHash } from "../../src/hash/fnv.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url)).replace(
  /\/$/,
  "",
);

/** The README's `mcp-config` blocks, by their language. */
async function configBlocks(): Promise<{ json: string; sh: string }> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```(\w+) mcp-config\n([\s\S]*?)^```$/gm)]
    .map((m) => ({ lang: m[1], body: m[2] }));
  const json = blocks.find((b) => b.lang === "json");
  const sh = blocks.find((b) => b.lang === "sh");
  assert.ok(json && sh, "README has a json and an sh mcp-config block");
  return { json: json.body, sh: sh.body };
}

/** The placeholders a user replaces, filled in. */
function filled(text: string, project: string): string {
  return text.replaceAll("/path/to/hashline", REPO).replaceAll(
    "/path/to/project",
    project,
  );
}

/** An MCP client started the way a host starts the configured server. */
async function start(
  command: string,
  args: string[],
  cwd: string,
): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HASHLINE_") && k !== "INIT_CWD") {
      env[k] = v;
    }
  }
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "config-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function readAndEdit(client: Client, project: string): Promise<void> {
  const read = await client.callTool({
    name: "read_file",
    arguments: { path: "app.py" },
  });
  assert.notEqual(read.isError, true);
  const edit = await client.callTool({
    name: "edit_file",
    arguments: { patch: `@@ app.py\n= 1:${lineHash("x = 1")}\n~x = 2` },
  });
  const text = (edit.content as { text: string }[]).map((c) => c.text).join(
    "\n",
  );
  assert.notEqual(edit.isError, true, text);
  assert.equal(await readFile(join(project, "app.py"), "utf8"), "x = 2\n");
}

describe("the README's MCP client configurations start as written", () => {
  let project: string;
  let elsewhere: string;
  const clients: Client[] = [];
  before(async () => {
    project = await realpath(await mkdtemp(join(tmpdir(), "hashline-cfg-")));
    elsewhere = await realpath(await mkdtemp(join(tmpdir(), "hashline-cwd-")));
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await rm(project, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it(
    "the mcpServers entry (Claude Desktop, Cursor) serves its tool sets and edits the project",
    {
      timeout: 120_000,
    },
    async () => {
      await writeFile(join(project, "app.py"), "x = 1\n");
      const { json } = await configBlocks();
      const server = JSON.parse(filled(json, project)).mcpServers.hashline;
      // A host starts servers from a folder of its own, not the project.
      const client = await start(server.command, server.args, elsewhere);
      clients.push(client);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), [
        "read_file",
        "edit_file",
        "write_file",
        "list_files",
        "search_files",
        "edit_history",
        "undo_edit",
      ]);
      await readAndEdit(client, project);
      const history = await client.callTool({
        name: "edit_history",
        arguments: {},
      });
      assert.notEqual(history.isError, true);
      assert.match(JSON.stringify(history.content), /app\.py/);
      // State lives beside the project, never in the folder the host ran from.
      assert.equal(
        await readFile(join(project, ".hashline", ".gitignore"), "utf8"),
        "*\n",
      );
      assert.deepEqual(await readdir(elsewhere), []);
    },
  );

  it("the `claude mcp add` command line starts the same server", {
    timeout: 120_000,
  }, async () => {
    await writeFile(join(project, "app.py"), "x = 1\n");
    const { sh } = await configBlocks();
    const line = filled(sh.trim(), project);
    const [, after] = line.split(" -- ");
    assert.ok(after, "the command follows --");
    const [command, ...args] = after.split(/\s+/);
    const client = await start(command, args, elsewhere);
    clients.push(client);
    // The same tool set as the mcpServers entry.
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), [
      "read_file",
      "edit_file",
      "write_file",
      "list_files",
      "search_files",
      "edit_history",
      "undo_edit",
    ]);
    await readAndEdit(client, project);
  });
});
