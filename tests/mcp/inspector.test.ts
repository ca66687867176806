import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { collect, REPO_ROOT, type RunResult } from "../_spawn.ts";

// The MCP Inspector's CLI as docs/mcp.md runs it: it needs Node 22, which npx
// brings from npm beside the Inspector, whatever Node runs the tests.
const INSPECTOR = "npx -y -p node@22 -p @modelcontextprotocol/inspector@2.12.0";
const HASHLINE = join(REPO_ROOT, "bin", "hashline");

/**
 * Runs one Inspector CLI call against `hashline mcp` on `root`; `env` reaches
 * the shell, `flags` the server.
 */
function inspect(
  root: string,
  args: string,
  env: Record<string, string> = {},
  flags = "",
): Promise<RunResult> {
  const server = `${HASHLINE} mcp --root ${root} --session inspector ${flags}`;
  const child = spawn(
    "sh",
    ["-c", `${INSPECTOR} -c 'mcp-inspector --cli ${args} -- ${server}'`],
    {
      cwd: root,
      env: { ...process.env, ...env, npm_config_loglevel: "error" },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  return collect(child);
}

describe("the MCP Inspector CLI against hashline mcp", () => {
  let root: string;
  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "hl-inspector-")));
    await writeFile(join(root, "a.txt"), "one\ntwo\n");
  });
  after(() => rm(root, { recursive: true, force: true }));

  it(
    "finds no schema problem in --strict mode, in the default and the full tool set",
    {
      timeout: 240_000,
    },
    async () => {
      for (const flags of ["", "--tools files,store,history"]) {
        const list = await inspect(
          root,
          "--method tools/list --strict",
          {},
          flags,
        );
        assert.equal(list.code, 0, list.stderr);
        const names = (JSON.parse(list.stdout) as { tools: { name: string }[] })
          .tools.map((t) => t.name);
        assert.ok(names.includes("edit_file"), list.stdout);
        if (flags) assert.ok(names.includes("undo_edit"), list.stdout);
        assert.doesNotMatch(list.stderr, /^(Warning|Error)\b/m);
      }
    },
  );

  it("reads, then edits in the next call, as one named session", {
    timeout: 240_000,
  }, async () => {
    const read = await inspect(
      root,
      "--method tools/call --tool-name read_file --tool-arg path=a.txt",
    );
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, new RegExp(`1:${lineHash("one")}\\|one`));
    const edit = await inspect(
      root,
      '--method tools/call --tool-name edit_file --tool-arg "patch=$PATCH"',
      { PATCH: `@@ a.txt\n= 1:${lineHash("one")}\n~ONE` },
    );
    assert.equal(edit.code, 0, edit.stderr);
    assert.match(edit.stdout, /Edited a\.txt/);
    assert.doesNotMatch(edit.stdout, /"isError": *true/);
    assert.equal(await readFile(join(root, "a.txt"), "utf8"), "ONE\ntwo\n");
  });
});
