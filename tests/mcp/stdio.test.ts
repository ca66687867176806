import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { lineHash } from "../../src/hash/fnv.ts";
import { tsCommand } from "../_spawn.ts";
import { bytes, tempTree } from "../http/_helpers.ts";

const CHILD = fileURLToPath(new URL("./_stdio_child.ts", import.meta.url));
// The child runs from the repository (where Node finds tsx) and is pointed at the temp tree.
const REPO = fileURLToPath(new URL("../../", import.meta.url));

async function connect(
  root: string,
  args: string[] = [],
): Promise<{ client: Client; close(): Promise<void> }> {
  const [command, lead] = tsCommand(CHILD);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined) env[k] = v;
  }
  env.HASHLINE_STORE = join(root, ".hashline");
  const transport = new StdioClientTransport({
    command,
    args: [...lead, root, ...args],
    cwd: REPO,
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

function textOf(
  result: Record<string, unknown>,
): { text: string; isError: boolean } {
  const content = (result.content ?? []) as { type: string; text: string }[];
  return {
    text: content.map((c) => c.text).join("\n"),
    isError: result.isError === true,
  };
}

describe("hashline mcp (stdio)", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let hashline: { client: Client; close(): Promise<void> };
  let strReplace: { client: Client; close(): Promise<void> };
  before(async () => {
    tree = await tempTree({
      "notes.md": "# Title\nbody\n",
      "conf.ini": "a=1\nb=2\n",
    });
    // Both servers start at once: process start-up is most of this suite's time.
    [hashline, strReplace] = await Promise.all([
      connect(tree.dir),
      connect(tree.dir, ["str_replace", "sr"]),
    ]);
  });
  after(async () => {
    await Promise.all([hashline?.close(), strReplace?.close()]);
    await tree.cleanup();
  });

  it("serves read_file → edit_file → a stale edit refused with bytes unchanged", async () => {
    const mcp = hashline;
    {
      const { tools } = await mcp.client.listTools();
      assert.ok(tools.some((t) => t.name === "source_export"));
      const read = textOf(
        await mcp.client.callTool({
          name: "read_file",
          arguments: { path: "notes.md" },
        }),
      );
      assert.equal(
        read.text,
        `1:${lineHash("# Title")}|# Title\n2:${lineHash("body")}|body`,
      );
      const edit = textOf(
        await mcp.client.callTool({
          name: "edit_file",
          arguments: {
            patch: `@@ notes.md\n= 2:${lineHash("body")}\n~new body`,
          },
        }),
      );
      assert.equal(edit.isError, false, edit.text);
      assert.equal(
        await readFile(join(tree.dir, "notes.md"), "utf8"),
        "# Title\nnew body\n",
      );
      const before = await bytes(join(tree.dir, "notes.md"));
      const stale = textOf(
        await mcp.client.callTool({
          name: "edit_file",
          arguments: {
            path: "notes.md",
            ops: [{
              op: "replace",
              start: `2:${lineHash("body")}`,
              lines: ["again"],
            }],
          },
        }),
      );
      assert.equal(stale.isError, true);
      assert.match(stale.text, /^Rejected — nothing written\./);
      assert.deepEqual(await bytes(join(tree.dir, "notes.md")), before);
      const put = textOf(
        await mcp.client.callTool({
          name: "source_put",
          arguments: { source: "x\n" },
        }),
      );
      assert.equal(put.isError, false);
    }
  });

  it("serves the str_replace format with --edit-format str_replace", async () => {
    const mcp = strReplace;
    {
      const { tools } = await mcp.client.listTools();
      const edit = tools.find((t) => t.name === "edit_file")!;
      assert.ok("old_string" in (edit.inputSchema.properties ?? {}));
      const read = textOf(
        await mcp.client.callTool({
          name: "read_file",
          arguments: { path: "conf.ini" },
        }),
      );
      assert.equal(read.text, "     1\ta=1\n     2\tb=2");
      const done = textOf(
        await mcp.client.callTool({
          name: "edit_file",
          arguments: { path: "conf.ini", old_string: "b=2", new_string: "b=3" },
        }),
      );
      assert.equal(done.isError, false, done.text);
      assert.equal(
        await readFile(join(tree.dir, "conf.ini"), "utf8"),
        "a=1\nb=3\n",
      );
    }
  });
});
