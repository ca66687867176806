import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { mcpClient } from "../_doors.ts";
import { hashline, tempDir } from "../cli/_cli.ts";
import { at, JSON_TEXT, MD, PY, TS } from "./_files.ts";

const T = { timeout: 60_000 };

describe("block anchors through the CLI", () => {
  it(
    "replace by block anchor in the text form; NOT_A_BLOCK exits 1 and writes nothing",
    T,
    async () => {
      const t = await tempDir({ "s.ts": TS, "app.py": PY });
      try {
        const env = { HASHLINE_STORE: join(t.dir, ".state") };
        assert.equal(
          (await hashline(["read", "s.ts"], { cwd: t.dir, env })).code,
          0,
        );
        assert.equal(
          (await hashline(["read", "app.py"], { cwd: t.dir, env })).code,
          0,
        );
        const ok = await hashline(["patch", "-"], {
          cwd: t.dir,
          env,
          input: `@@ s.ts\n= ${at(TS, 10)}*\n~  get() {}\n@@ app.py\n- ${
            at(PY, 3)
          }*\n`,
        });
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stdout, /s\.ts op 1: block 10–12/);
        assert.match(ok.stdout, /app\.py op 1: block 3–5/);
        const ts = TS.split("\n");
        ts.splice(9, 3, "  get() {}");
        assert.equal(
          await readFile(join(t.dir, "s.ts"), "utf8"),
          ts.join("\n"),
        );
        const py = PY.split("\n");
        py.splice(2, 3);
        assert.equal(
          await readFile(join(t.dir, "app.py"), "utf8"),
          py.join("\n"),
        );
        const now = ts.join("\n");
        const bad = await hashline(["patch", "-"], {
          cwd: t.dir,
          env,
          input: `@@ s.ts\n- ${at(now, 1)}*\n`,
        });
        assert.equal(bad.code, 1);
        assert.match(
          bad.stdout + bad.stderr,
          /NOT_A_BLOCK|opens no multi-line block/,
        );
        assert.equal(await readFile(join(t.dir, "s.ts"), "utf8"), now);
      } finally {
        await t.cleanup();
      }
    },
  );
});

describe("block anchors through MCP edit_file", () => {
  it(
    "replace, delete and insert_after by block anchor; a partial read is NOT_READ",
    T,
    async () => {
      const t = await tempDir({ "guide.md": MD, "package.json": JSON_TEXT });
      const mcp = await mcpClient({
        root: t.dir,
        state: join(t.dir, ".hashline"),
      });
      try {
        const part = await mcp.tool("read_file", {
          path: "guide.md",
          offset: 1,
          limit: 4,
        });
        assert.equal(part.isError, false, part.text);
        const partial = await mcp.tool("edit_file", {
          path: "guide.md",
          ops: [{ op: "delete", start: `${at(MD, 3)}*` }],
        });
        assert.equal(partial.isError, true);
        assert.match(partial.text, /has not read lines 5–6/);
        assert.equal(await readFile(join(t.dir, "guide.md"), "utf8"), MD);
        await mcp.tool("read_file", { path: "guide.md" });
        const del = await mcp.tool("edit_file", {
          path: "guide.md",
          ops: [{ op: "delete", start: `${at(MD, 3)}*` }],
        });
        assert.equal(del.isError, false, del.text);
        assert.match(del.text, /op 1: block 3–6/);
        const md = MD.split("\n");
        md.splice(2, 4);
        assert.equal(
          await readFile(join(t.dir, "guide.md"), "utf8"),
          md.join("\n"),
        );

        await mcp.tool("read_file", { path: "package.json" });
        const edit = await mcp.tool("edit_file", {
          patch: `@@ package.json\n= ${
            at(JSON_TEXT, 3)
          }*\n~  "scripts": {},\n+ ${at(JSON_TEXT, 2)}*\n~  "x": 1,\n`,
        });
        assert.equal(edit.isError, true, "a one-line pair is no block");
        assert.match(edit.text, /opens no multi-line block/);
        const ok = await mcp.tool("edit_file", {
          path: "package.json",
          ops: [
            {
              op: "replace",
              start: `${at(JSON_TEXT, 3)}*`,
              lines: ['  "scripts": {},'],
            },
          ],
        });
        assert.equal(ok.isError, false, ok.text);
        const json = JSON_TEXT.split("\n");
        json.splice(2, 3, '  "scripts": {},');
        assert.equal(
          await readFile(join(t.dir, "package.json"), "utf8"),
          json.join("\n"),
        );
        const now = md.join("\n");
        const after = await mcp.tool("edit_file", {
          patch: `@@ guide.md\n+ ${at(now, 3)}*\n~## Upgrade\n`,
        });
        assert.equal(after.isError, false, after.text);
        md.splice(4, 0, "## Upgrade");
        assert.equal(
          await readFile(join(t.dir, "guide.md"), "utf8"),
          md.join("\n"),
        );
      } finally {
        await mcp.close();
        await t.cleanup();
      }
    },
  );
});
