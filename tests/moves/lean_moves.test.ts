/**
 * Moves and copies named by line numbers alone after a lean read (docs/patch-format.md, "Moves and file operations";
 * §14), and the codes of file operations a model acts on: through the CLI,
 * HTTP and MCP, each refusal leaving every byte on disk as it was.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { mcpClient, runCli } from "../_doors.ts";
import { call } from "../http/_helpers.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";

const T = { timeout: 60_000 };
const X = "x\ny\nz\nw\n";
const TS = "const a = 1;\nfunction f() {\n  return 1;\n}\n";

/** Runs the CLI in-process as a user would from the tree's root. */
const cli = (t: Tree) => (args: string[], input = "") => runCli(t, args, input);

const text = (t: Tree, p: string) => readFile(join(t.root, p), "utf8");

describe("moves by line number after a lean read", () => {
  it(
    "CLI: m 1 > 4 and a block m 2* < 1 land with lean fresh lines; a line never shown is NOT_READ and writes nothing",
    T,
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "x.txt"), X);
        await writeFile(join(t.root, "a.ts"), TS);
        const run = cli(t);
        const part = await run(["read", "x.txt", "--lean", "--limit", "2"]);
        assert.equal(part.code, 0, part.err);
        const before = await snapshot(t.root);
        const unread = await run(
          ["patch", "-", "--json"],
          "@@ x.txt\nm 1 > 4\n",
        );
        assert.equal(unread.code, 1, unread.out);
        const body = JSON.parse(unread.out);
        assert.equal(body.error.code, "NOT_READ");
        assert.match(body.error.message, /line 4 was never shown/);
        assert.match(body.error.message, /offset 4/);
        assert.deepEqual(await snapshot(t.root), before);

        assert.equal((await run(["read", "x.txt", "--lean"])).code, 0);
        const moved = await run(["patch", "-"], "@@ x.txt\nm 1 > 4\n");
        assert.equal(moved.code, 0, moved.err + moved.out);
        assert.match(moved.out, /Moved line 1 → x\.txt:4/);
        assert.match(moved.out, /^4\|x$/m);
        assert.equal(await text(t, "x.txt"), "y\nz\nw\nx\n");
        // The read showed "w" as line 4 and the result shows "x" there: a
        // bare 4 names two lines now, so it is refused (docs/reads.md#views-several-edits-from-one-read).
        const twice = await run(["patch", "-"], "@@ x.txt\n= 4\n~X\n");
        assert.equal(twice.code, 1, twice.err + twice.out);
        assert.match(twice.out + twice.err, /ambiguous/);
        assert.equal(await text(t, "x.txt"), "y\nz\nw\nx\n");
        // The moved line, named with its hash from the result, is edited.
        const chained = await run(
          ["patch", "-"],
          `@@ x.txt\n= 4:${lineHash("x")}\n~X\n`,
        );
        assert.equal(chained.code, 0, chained.err + chained.out);
        assert.equal(await text(t, "x.txt"), "y\nz\nw\nX\n");

        assert.equal((await run(["read", "a.ts", "--lean"])).code, 0);
        const block = await run(["patch", "-"], "@@ a.ts\nm 2* < 1\n");
        assert.equal(block.code, 0, block.err + block.out);
        assert.match(block.out, /Moved lines 2–4 → a\.ts:1/);
        assert.equal(
          await text(t, "a.ts"),
          "function f() {\n  return 1;\n}\nconst a = 1;\n",
        );
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "MCP edit_file: a JSON move to another file by numbers lands; a drifted source line is STALE_ANCHOR with lean fresh lines",
    T,
    async () => {
      const t = await makeTree();
      await writeFile(join(t.root, "x.txt"), X);
      await writeFile(join(t.root, "y.txt"), "1\n2\n");
      const mcp = await mcpClient(t);
      try {
        for (const path of ["x.txt", "y.txt"]) {
          const r = await mcp.tool("read_file", { path, anchors: "lean" });
          assert.equal(r.isError, false, r.text);
        }
        const move = {
          files: [{
            path: "x.txt",
            ops: [{
              op: "move",
              start: "2",
              end: "3",
              to: "y.txt",
              before: "2",
            }],
          }],
        };
        const ok = await mcp.tool("edit_file", move);
        assert.equal(ok.isError, false, ok.text);
        assert.match(ok.text, /Moved lines 2–3 → y\.txt:2/);
        assert.match(ok.text, /^3\|z$/m);
        assert.equal(await text(t, "x.txt"), "x\nw\n");
        assert.equal(await text(t, "y.txt"), "1\ny\nz\n2\n");

        await writeFile(join(t.root, "x.txt"), "X\nw\n");
        const before = await snapshot(t.root);
        const stale = await mcp.tool("edit_file", {
          files: [{
            path: "x.txt",
            // Line 1 alone: a bare 2 would name "y" (read, moved away) or
            // "w" (shown by the move's result), and be refused as ambiguous.
            ops: [{ op: "move", start: "1", to: "y.txt", after: "1" }],
          }],
        });
        assert.equal(stale.isError, true, stale.text);
        assert.match(stale.text, /STALE_ANCHOR|is stale/);
        assert.match(stale.text, /^1\|X$/m);
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await mcp.close();
        await t.cleanup();
      }
    },
  );
});

describe("file operations: the code a model acts on", () => {
  it(
    "HTTP: creating over a file that exists is EXISTS alone, read or not; an unread move target names one next step",
    T,
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "x.txt"), X);
        await writeFile(join(t.root, "y.txt"), "1\n");
        const app = createApp({ root: t.root, stateDir: t.state });
        const before = await snapshot(t.root);
        for (
          const patch of [
            "@@+ x.txt\n+\n~z",
            {
              files: [{
                path: "x.txt",
                create: true,
                ops: [{ op: "append", lines: ["z"] }],
              }],
            },
          ]
        ) {
          const r = await call(
            app,
            "POST",
            "/v1/files/patch",
            typeof patch === "string" ? { patch } : patch,
          );
          assert.equal(r.status, 409, JSON.stringify(r.body));
          assert.equal(r.body.error.code, "EXISTS");
          assert.deepEqual(
            r.body.error.problems.map((p: { code: string }) => p.code),
            ["EXISTS"],
          );
          assert.deepEqual(await snapshot(t.root), before);
        }
        await call(app, "POST", "/v1/files/read", { path: "x.txt" });
        const into = await call(app, "POST", "/v1/files/patch", {
          files: [{
            path: "x.txt",
            ops: [{
              op: "move",
              start: `1:${lineHash("x")}`,
              to: "y.txt",
              after: `1:${lineHash("1")}`,
            }],
          }],
        });
        assert.equal(into.status, 409, JSON.stringify(into.body));
        assert.equal(into.body.error.code, "NOT_READ");
        assert.match(
          into.body.error.message,
          /read it first, then resend the move into it/,
        );
        assert.doesNotMatch(into.body.error.message, /then then/);
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await t.cleanup();
      }
    },
  );
});
