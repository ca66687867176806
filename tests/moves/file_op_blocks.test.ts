/**
 * Block anchors in the line ops of a patch that also renames, creates or
 * moves (docs/patch-format.md, "Block anchors" and "Moves and file operations"): they resolve as in any other patch, through the
 * CLI and MCP, and a refusal leaves every byte on disk as it was.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { mcpClient, runCli } from "../_doors.ts";
import { makeTree, snapshot } from "../workspace/_helpers.ts";

const T = { timeout: 60_000 };
const TS = "const a = 1;\nfunction f() {\n  return 1;\n}\n";
const F = `2:${lineHash("function f() {")}`;

const run = runCli;

describe("block anchors beside file operations", () => {
  it(
    "CLI: a rename whose op deletes a block lands and names the span; undo gives the bytes back; a block read in part is NOT_READ",
    T,
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "x.ts"), TS);
        assert.equal((await run(t, ["read", "x.ts", "--limit", "2"])).code, 0);
        const before = await snapshot(t.root);
        const part = await run(
          t,
          ["patch", "-", "--json"],
          `@@ x.ts -> y.ts\n- ${F}*\n`,
        );
        assert.equal(part.code, 1, part.out);
        assert.equal(JSON.parse(part.out).error.code, "NOT_READ");
        assert.match(JSON.parse(part.out).error.message, /lines 3–4/);
        assert.deepEqual(await snapshot(t.root), before);

        assert.equal((await run(t, ["read", "x.ts"])).code, 0);
        const ok = await run(t, ["patch", "-"], `@@ x.ts -> y.ts\n- ${F}*\n`);
        assert.equal(ok.code, 0, ok.err + ok.out);
        assert.match(ok.out, /Renamed x\.ts → y\.ts \(\+0 -3\)/);
        assert.match(ok.out, /Blocks: x\.ts op 1: block 2–4/);
        assert.equal(
          await readFile(join(t.root, "y.ts"), "utf8"),
          "const a = 1;\n",
        );
        const log = JSON.parse((await run(t, ["log", "--json"])).out);
        const undo = await run(t, ["undo", log.entries[0].id]);
        assert.equal(undo.code, 0, undo.err + undo.out);
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "MCP edit_file: a lean 2* beside a created file lands; a one-line opener is NOT_A_BLOCK with nothing written",
    T,
    async () => {
      const t = await makeTree();
      await writeFile(join(t.root, "x.ts"), TS);
      const mcp = await mcpClient(t);
      try {
        const read = await mcp.tool("read_file", {
          path: "x.ts",
          anchors: "lean",
        });
        assert.equal(read.isError, false, read.text);
        const before = await snapshot(t.root);
        const one = await mcp.tool("edit_file", {
          patch: "@@ x.ts\n- 1*\n@@+ n.txt\n+\n~z",
        });
        assert.equal(one.isError, true, one.text);
        assert.match(one.text, /opens no multi-line block/);
        assert.deepEqual(await snapshot(t.root), before);

        const ok = await mcp.tool("edit_file", {
          patch: "@@ x.ts\n- 2*\n@@+ n.txt\n+\n~z",
        });
        assert.equal(ok.isError, false, ok.text);
        assert.match(ok.text, /Blocks: x\.ts op 1: block 2–4/);
        assert.match(ok.text, /^1\|const a = 1;$/m);
        assert.equal(
          await readFile(join(t.root, "x.ts"), "utf8"),
          "const a = 1;\n",
        );
        assert.equal(await readFile(join(t.root, "n.txt"), "utf8"), "z\n");
      } finally {
        await mcp.close();
        await t.cleanup();
      }
    },
  );
});
