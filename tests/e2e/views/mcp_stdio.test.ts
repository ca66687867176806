/**
 * Several edits from one read over MCP stdio
 * (docs/reads.md#views-several-edits-from-one-read): `read_file` with
 * `anchors: "lean"`, then three `edit_file` calls by bare number, top-down,
 * on one connection — all apply, and the bytes are the three edits applied
 * where the model meant.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { tsCommand } from "../../_spawn.ts";

const CLI = fileURLToPath(new URL("../../../src/cli/main.ts", import.meta.url));
const FILE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n") +
  "\n";

function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("HASHLINE_") && k !== "INIT_CWD") {
      env[k] = v;
    }
  }
  return env;
}

describe("views over MCP stdio", () => {
  it(
    "a lean read_file, then three edit_file calls by number, top-down, all land as meant",
    {
      timeout: 60_000,
    },
    async () => {
      const root = await realpath(
        await mkdtemp(join(tmpdir(), "hashline-views-")),
      );
      await writeFile(join(root, "f.txt"), FILE);
      const [command, lead] = tsCommand(CLI);
      const client = new Client({ name: "views", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command,
          args: [...lead, "mcp", "--root", root],
          cwd: root,
          env: cleanEnv(),
          stderr: "pipe",
        }),
      );
      try {
        const read = await client.callTool({
          name: "read_file",
          arguments: { path: "f.txt", anchors: "lean" },
        });
        assert.notEqual(read.isError, true, JSON.stringify(read.content));
        for (const patch of ["+ 3\n~new", "- 8", "= 15\n~FIFTEEN"]) {
          const r = await client.callTool({
            name: "edit_file",
            arguments: { patch: `@@ f.txt\n${patch}` },
          });
          assert.notEqual(r.isError, true, JSON.stringify(r.content));
        }
        const want = FILE.replace("line 3\n", "line 3\nnew\n")
          .replace("line 8\n", "")
          .replace("line 15\n", "FIFTEEN\n");
        assert.equal(await readFile(join(root, "f.txt"), "utf8"), want);
      } finally {
        await client.close();
        await rm(root, { recursive: true, force: true });
      }
    },
  );
});
