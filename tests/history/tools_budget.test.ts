/** The `history` tool set stays within its token budget (docs/mcp.md, "What the tools cost a model"). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tokens } from "../../bench/tools_tokens.ts";
import { createToolRegistry } from "../../src/tools/registry.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tmpdir } from "node:os";

describe("history tool set", () => {
  const registry = createToolRegistry({
    workspace: () =>
      Promise.resolve(openWorkspace(tmpdir(), { history: false })),
    tools: ["files", "store", "history"],
  });
  const history = registry.tools.filter((t) =>
    t.name === "edit_history" || t.name === "undo_edit"
  );

  it("offers edit_history and undo_edit only when asked", () => {
    assert.deepEqual(history.map((t) => t.name), ["edit_history", "undo_edit"]);
    const plain = createToolRegistry({
      workspace: () => Promise.reject(new Error("unused")),
    });
    assert.deepEqual(plain.tools.map((t) => t.name), [
      "read_file",
      "edit_file",
      "write_file",
      "list_files",
      "search_files",
    ]);
  });

  it("costs at most 300 o200k tokens for the two tools", () => {
    const cost = history.reduce(
      (n, t) =>
        n +
        tokens(JSON.stringify({
          name: t.name,
          description: t.description,
          input_schema: t.inputSchema,
        })),
      0,
    );
    console.log(`history tool set: ${cost} o200k tokens`);
    assert.ok(cost <= 300, `history tools cost ${cost} tokens`);
  });
});
