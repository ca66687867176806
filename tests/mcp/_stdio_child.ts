/**
 * Test helper: an MCP stdio server over a folder, started as a child
 * process by the stdio tests (`ROOT [EDIT_FORMAT [SESSION]]`).
 */
import process from "node:process";
import { join } from "node:path";
import { runMcpStdio } from "../../src/mcp/mod.ts";
import type { EditFormat } from "../../src/tools/mod.ts";

const [root, editFormat = "hashline", session = "default"] = process.argv
  .slice(2);
const server = await runMcpStdio({
  root,
  stateDir: join(root, ".hashline"),
  editFormat: editFormat as EditFormat,
  session,
});
await server.closed;
