// list_files and search_files through the tool registry (the door MCP and
// the agent adapters use): bounded answers, and search lines that
// edit_file can name with no read_file first.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { createToolRegistry, type ToolResult } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { tempTree } from "../http/_helpers.ts";

function ok(r: ToolResult): { text: string; data: Record<string, unknown> } {
  if (!r.ok) {
    throw new Error(
      `expected success, got ${r.error.code}: ${r.error.message}`,
    );
  }
  return r as { text: string; data: Record<string, unknown> };
}

async function registryOver(
  files: Record<string, string>,
  editFormat: "hashline" | "str_replace" = "hashline",
) {
  const tree = await tempTree(files);
  const workspace = openWorkspace(tree.dir, {
    stateDir: join(tree.dir, ".hashline"),
    persistSessions: false,
  });
  return {
    tree,
    registry: createToolRegistry({ workspace, tools: ["files"], editFormat }),
  };
}

describe("list_files and search_files", () => {
  it("list_files lists paths, leaving .gitignored ones out", {
    timeout: 30_000,
  }, async () => {
    const { tree, registry } = await registryOver({
      ".gitignore": "node_modules/\n",
      "a.ts": "",
      "node_modules/x/index.js": "",
      "src/b.ts": "",
    });
    try {
      const all = ok(await registry.call("list_files", {}));
      assert.equal(all.text, ".gitignore\na.ts\nsrc/b.ts");
      assert.deepEqual(all.data, {
        paths: [".gitignore", "a.ts", "src/b.ts"],
        total: 3,
      });
      const ts = ok(await registry.call("list_files", { glob: "src/**" }));
      assert.equal(ts.text, "src/b.ts");
      const bad = await registry.call("list_files", { glob: 3 });
      assert.equal(!bad.ok && bad.error.code, "BAD_INPUT");
    } finally {
      await tree.cleanup();
    }
  });

  it("search_files → edit_file: a line found is edited with no read", {
    timeout: 30_000,
  }, async () => {
    const { tree, registry } = await registryOver({
      "app.py": "import os\n\ndef main():\n    print('hi')\n",
    });
    try {
      const found = ok(
        await registry.call("search_files", { pattern: "print\\(" }),
      );
      const line = "    print('hi')";
      assert.equal(found.text, `app.py\n4:${lineHash(line)}|${line}`);
      assert.deepEqual(found.data.files, [{ path: "app.py", lines: [4] }]);
      assert.ok(!("text" in found.data), "the text is not sent twice");
      const edit = ok(
        await registry.call("edit_file", {
          path: "app.py",
          ops: [{
            op: "replace",
            start: `4:${lineHash(line)}`,
            lines: ["    print('hello')"],
          }],
        }),
      );
      assert.match(edit.text, /^Edited app\.py \(\+1 -1\)/);
      assert.equal(
        await readFile(join(tree.dir, "app.py"), "utf8"),
        "import os\n\ndef main():\n    print('hello')\n",
      );
      const bad = await registry.call("search_files", { pattern: "(" });
      assert.equal(!bad.ok && bad.error.code, "BAD_INPUT");
    } finally {
      await tree.cleanup();
    }
  });

  it("str_replace: search_files shows numbered lines without hashes", {
    timeout: 30_000,
  }, async () => {
    const { tree, registry } = await registryOver(
      { "a.txt": "one\ntwo\n" },
      "str_replace",
    );
    try {
      const found = ok(await registry.call("search_files", { pattern: "tw" }));
      assert.equal(found.text, "a.txt\n     2\ttwo");
    } finally {
      await tree.cleanup();
    }
  });
});
