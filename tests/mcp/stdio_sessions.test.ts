import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineHash } from "../../src/hash/fnv.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tsCommand } from "../_spawn.ts";

const CLI = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const TEXT = "alpha\nbeta\n";

// `hashline mcp` as an MCP host starts it: the CLI itself, from the root.
async function connect(root: string, args: string[] = []): Promise<Client> {
  const [command, lead] = tsCommand(CLI);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HASHLINE_") && k !== "INIT_CWD") {
      env[k] = v;
    }
  }
  const transport = new StdioClientTransport({
    command,
    args: [...lead, "mcp", "--root", root, ...args],
    cwd: root,
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "session-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as { text: string }[];
  return {
    text: content.map((c) => c.text).join("\n"),
    isError: result.isError === true,
  };
}

const EDIT = {
  path: "f.txt",
  ops: [{ op: "replace", start: `2:${lineHash("beta")}`, lines: ["BETA"] }],
};

describe("hashline mcp: one session per stdio connection", () => {
  let root: string;
  const clients: Client[] = [];
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "hashline-sess-")));
    await writeFile(join(root, "f.txt"), TEXT);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await rm(root, { recursive: true, force: true });
  });

  it(
    "refuses B's edit on A's read (NOT_READ, bytes unchanged); B edits after its own read",
    { timeout: 120_000 },
    async () => {
      const [a, b] = await Promise.all([connect(root), connect(root)]);
      clients.push(a, b);
      const read = await call(a, "read_file", { path: "f.txt" });
      assert.equal(read.isError, false, read.text);
      assert.equal(
        read.text,
        `1:${lineHash("alpha")}|alpha\n2:${lineHash("beta")}|beta`,
      );

      const refused = await call(b, "edit_file", EDIT);
      assert.equal(refused.isError, true);
      // The NOT_READ refusal, as MCP words it.
      assert.match(
        refused.text,
        /^Rejected — nothing written\.\n- f\.txt: this session has not read the file/,
      );
      assert.equal(await readFile(join(root, "f.txt"), "utf8"), TEXT);

      const own = await call(b, "read_file", { path: "f.txt" });
      assert.equal(own.isError, false, own.text);
      const edited = await call(b, "edit_file", EDIT);
      assert.equal(edited.isError, false, edited.text);
      assert.equal(
        await readFile(join(root, "f.txt"), "utf8"),
        "alpha\nBETA\n",
      );
      // The connection's session is recorded under a one-way label.
      const [entry] = await openWorkspace(root).history({ limit: 1 });
      assert.match(entry.session, /^mcp-[0-9a-f]{8}$/);
      assert.equal(entry.door, "mcp");
      assert.match(edited.text, new RegExp(`History entry: ${entry.id}\\.`));
    },
  );

  it("shares reads between connections that name the same --session", {
    timeout: 120_000,
  }, async () => {
    await writeFile(join(root, "g.txt"), TEXT);
    const [a, b] = await Promise.all([
      connect(root, ["--session", "team"]),
      connect(root, ["--session", "team"]),
    ]);
    clients.push(a, b);
    // A name of the label form is refused.
    await assert.rejects(connect(root, ["--session", "mcp-3f2a9c1d"]));
    const read = await call(a, "read_file", { path: "g.txt" });
    assert.equal(read.isError, false, read.text);
    const edited = await call(b, "edit_file", { ...EDIT, path: "g.txt" });
    assert.equal(edited.isError, false, edited.text);
    assert.equal(await readFile(join(root, "g.txt"), "utf8"), "alpha\nBETA\n");
  });
});
