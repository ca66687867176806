// Deleting a file through the tool registry (the door MCP serves): a short
// answer naming the entry and how to undo it, an undo whose diff is cut
// short, and the rule that a delete needs the file seen (any part, or its
// outline) and unchanged since.
import assert from "node:assert/strict";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createToolRegistry, type ToolResult } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

const BIG = Array.from(
  { length: 300 },
  (_, i) => `line ${i + 1}: some text that makes the file a few KB long`,
).join("\n") + "\n";

/** The bytes an MCP `tools/call` result carries: the text beside `structuredContent`. */
function mcpBytes(r: ToolResult): number {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return new TextEncoder().encode(JSON.stringify({
    content: [{ type: "text", text: r.text }],
    structuredContent: r.data,
  })).length;
}

async function setUp(files: Record<string, string>) {
  const tree = await tempTree(files);
  const workspace = openWorkspace(tree.dir, {
    stateDir: join(tree.dir, ".hashline"),
    persistSessions: false,
  });
  const registry = createToolRegistry({
    workspace,
    tools: ["files", "history"],
  });
  return { tree, registry };
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

describe("deleting a file", () => {
  it("after a read of part of it: answers in ≤ 1 KB, and its undo in ≤ 4 KB", {
    timeout: 30_000,
  }, async () => {
    const { tree, registry } = await setUp({ "big.txt": BIG });
    try {
      assert.ok(
        (await registry.call("read_file", { path: "big.txt", limit: 10 })).ok,
      );
      const deleted = await registry.call("edit_file", {
        patch: "@@- big.txt\n",
      });
      assert.ok(mcpBytes(deleted) <= 1024, `${mcpBytes(deleted)} bytes`);
      assert.ok(deleted.ok);
      const entry = (deleted.data as { entry: string }).entry;
      assert.equal(
        deleted.text,
        `Deleted big.txt (-300). To restore it, undo history entry ${entry} (undo_edit, or hashline undo ${entry}).`,
      );
      assert.ok(!JSON.stringify(deleted.data).includes(deleted.text));
      assert.equal(await exists(join(tree.dir, "big.txt")), false);

      const undone = await registry.call("undo_edit", { id: entry });
      assert.ok(mcpBytes(undone) <= 4096, `${mcpBytes(undone)} bytes`);
      assert.ok(undone.ok);
      assert.match(
        undone.text,
        /\n… diff cut after \d+ of 303 lines \(the result is capped at 1 KiB\): show h_\d+ for the whole change this reverts\.$/,
      );
      assert.equal(await readFile(join(tree.dir, "big.txt"), "utf8"), BIG);
    } finally {
      await tree.cleanup();
    }
  });

  it("after an outline read", { timeout: 30_000 }, async () => {
    const md = "# Title\n\ntext\n\n## Part\n\nmore text\n";
    const { tree, registry } = await setUp({ "notes.md": md });
    try {
      const outline = await registry.call("read_file", {
        path: "notes.md",
        outline: true,
      });
      assert.ok(outline.ok);
      const deleted = await registry.call("edit_file", {
        patch: "@@- notes.md\n",
      });
      assert.ok(deleted.ok, JSON.stringify(deleted));
      assert.equal(await exists(join(tree.dir, "notes.md")), false);
    } finally {
      await tree.cleanup();
    }
  });

  it("is refused when the file was never read, or changed since the read", {
    timeout: 30_000,
  }, async () => {
    const { tree, registry } = await setUp({ "big.txt": BIG, "x.txt": "x\n" });
    try {
      const unread = await registry.call("edit_file", { patch: "@@- x.txt\n" });
      assert.equal(!unread.ok && unread.error.code, "NOT_READ");
      assert.equal(await readFile(join(tree.dir, "x.txt"), "utf8"), "x\n");

      assert.ok(
        (await registry.call("read_file", { path: "big.txt", limit: 10 })).ok,
      );
      // Another writer changes a line the session never saw.
      const changed = BIG.replace("line 200:", "line 200 (edited):");
      await writeFile(join(tree.dir, "big.txt"), changed);
      const refused = await registry.call("edit_file", {
        patch: "@@- big.txt\n",
      });
      assert.equal(refused.ok, false);
      assert.match(
        !refused.ok ? refused.error.message : "",
        /changed since that read/,
      );
      assert.equal(await readFile(join(tree.dir, "big.txt"), "utf8"), changed);
    } finally {
      await tree.cleanup();
    }
  });
});
