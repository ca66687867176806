/**
 * The same codes through the other doors: the command line exits with its
 * code's exit status (1 refused, 2 bad usage) and prints the code with
 * `--json`; the tool registry answers the code the HTTP table maps.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { EXIT } from "../../src/cli/_exit.ts";
import { lineHash } from "../../src/hash/mod.ts";
import { STATUS } from "../../src/http/_status.ts";
import { createMemoryStore } from "../../src/store/mod.ts";
import { createToolRegistry } from "../../src/tools/mod.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import { runCli } from "../_doors.ts";
import { tempTree } from "../http/_helpers.ts";

const CONTENT = "alpha\nbeta\ngamma\n";

/** Runs the command line in this process; returns its exit code and output. */
const cli = (args: string[], cwd: string, stdin = "") =>
  runCli({ root: cwd }, args, stdin);

describe("the command line's exit codes come from the code table", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    tree = await tempTree({ "a.txt": CONTENT });
  });
  after(() => tree.cleanup());

  it("a reversed range exits 1 with BAD_RANGE and writes nothing", async () => {
    assert.equal((await cli(["read", "a.txt"], tree.dir)).code, 0);
    const patch = `@@ a.txt\n- 3:${lineHash("gamma")}..1:${
      lineHash("alpha")
    }\n`;
    const run = await cli(["patch", "-", "--json"], tree.dir, patch);
    assert.equal(run.code, EXIT.BAD_RANGE);
    assert.equal(run.code, 1);
    const body = JSON.parse(run.out.trim());
    assert.equal(body.ok, false);
    assert.equal(body.error.code, "BAD_RANGE");
    assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), CONTENT);
  });

  it("a stale anchor exits 1 with STALE_ANCHOR", async () => {
    const wrong = lineHash("alpha") === "00" ? "01" : "00";
    const run = await cli(
      ["patch", "-", "--json"],
      tree.dir,
      `@@ a.txt\n- 1:${wrong}\n`,
    );
    assert.equal(run.code, 1);
    assert.equal(JSON.parse(run.out.trim()).error.code, "STALE_ANCHOR");
    assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), CONTENT);
  });

  it("bad usage exits 2 with BAD_INPUT", async () => {
    const run = await cli(
      ["read", "a.txt", "--offset", "x", "--json"],
      tree.dir,
    );
    assert.equal(run.code, EXIT.BAD_INPUT);
    assert.equal(run.code, 2);
    assert.equal(JSON.parse(run.out.trim()).error.code, "BAD_INPUT");
  });
});

describe("the tool registry answers the codes the HTTP table maps", () => {
  let tree: { dir: string; cleanup(): Promise<void> };
  before(async () => {
    tree = await tempTree({ "a.txt": CONTENT });
  });
  after(() => tree.cleanup());

  it("an export over an existing file is EXISTS (409), and the file is kept", async () => {
    const workspace = openWorkspace(tree.dir, {
      stateDir: join(tree.dir, ".hashline"),
    });
    const registry = createToolRegistry({
      workspace,
      store: createMemoryStore(),
    });
    const put = await registry.call("source_put", { source: "other\n" });
    assert.ok(put.ok, JSON.stringify(put));
    const ref = (put.data as { ref: string }).ref;
    const res = await registry.call("source_export", { ref, path: "a.txt" });
    assert.equal(res.ok, false);
    assert.equal(res.ok === false && res.error.code, "EXISTS");
    assert.equal(STATUS.EXISTS, 409);
    assert.equal(await readFile(join(tree.dir, "a.txt"), "utf8"), CONTENT);
  });

  it("an unknown tool is UNKNOWN_TOOL (404), not a 5xx", async () => {
    const registry = createToolRegistry({ store: createMemoryStore() });
    const res = await registry.call("no_such_tool", {});
    assert.equal(res.ok === false && res.error.code, "UNKNOWN_TOOL");
    assert.equal(STATUS.UNKNOWN_TOOL, 404);
  });
});
