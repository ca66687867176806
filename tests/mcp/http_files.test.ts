import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { createApp, type HashlineApp } from "../../src/http/app.ts";
import { bytes, tempTree } from "../http/_helpers.ts";
import { connectHttp } from "./_client.ts";

describe("MCP over streamable HTTP on a workspace", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  let app: HashlineApp;
  before(async () => {
    tree = await tempTree({ "main.go": "package main\n\nfunc main() {}\n" });
    app = createApp({ root: tree.dir, stateDir: join(tree.dir, ".hashline") });
  });
  after(() => tree.cleanup());

  it("read_file → edit_file → a stale edit is refused and writes nothing", async () => {
    const mcp = await connectHttp("http://localhost/mcp", { app });
    try {
      const read = await mcp.tool("read_file", { path: "main.go" });
      assert.equal(read.isError, false);
      assert.equal(
        read.text,
        `1:${lineHash("package main")}|package main\n2:${lineHash("")}|\n3:${
          lineHash("func main() {}")
        }|func main() {}`,
      );
      const anchor = `3:${lineHash("func main() {}")}`;
      const edit = await mcp.tool("edit_file", {
        path: "main.go",
        ops: [{
          op: "replace",
          start: anchor,
          lines: ["func main() {", "\tprintln(1)", "}"],
        }],
      });
      assert.equal(edit.isError, false, edit.text);
      assert.match(edit.text, /^Edited main\.go \(\+3 -1\)/);
      const file = join(tree.dir, "main.go");
      assert.equal(
        await readFile(file, "utf8"),
        "package main\n\nfunc main() {\n\tprintln(1)\n}\n",
      );
      const before = await bytes(file);
      const stale = await mcp.tool("edit_file", {
        patch: `@@ main.go\n- ${anchor}`,
      });
      assert.equal(stale.isError, true);
      assert.match(stale.text, /^Rejected — nothing written\./);
      assert.match(stale.text, /3:[0-9a-f]{2}\|func main\(\) \{/);
      assert.deepEqual(await bytes(file), before);
    } finally {
      await mcp.close();
    }
  });

  it("each MCP session is its own hashline session", async () => {
    const [alice, bob] = await Promise.all([
      connectHttp("http://localhost/mcp", { app }),
      connectHttp("http://localhost/mcp", { app }),
    ]);
    try {
      assert.notEqual(alice.sessionId, bob.sessionId);
      const read = await alice.tool("read_file", { path: "main.go" });
      assert.equal(read.isError, false);
      const first = read.text.split("\n")[0].split("|")[0];
      const file = join(tree.dir, "main.go");
      const before = await bytes(file);
      const refused = await bob.tool("edit_file", {
        path: "main.go",
        ops: [{ op: "insert_before", anchor: first, lines: ["// bob"] }],
      });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /read it first/);
      assert.deepEqual(await bytes(file), before);
      const allowed = await alice.tool("edit_file", {
        path: "main.go",
        ops: [{ op: "insert_before", anchor: first, lines: ["// alice"] }],
      });
      assert.equal(allowed.isError, false, allowed.text);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });
});
