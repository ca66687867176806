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
const APP = 'def greet(name):\n    return f"hello {name}"\n';

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

  it(
    "run as docs/mcp.md says, reads and then edits in the next call; without --session the edit is NOT_READ",
    {
      timeout: 240_000,
    },
    async () => {
      const guide = await readFile(join(REPO_ROOT, "docs", "mcp.md"), "utf8");
      const block = (info: string) => {
        const m = new RegExp("^```" + info + "\\n([\\s\\S]*?)^```$", "m").exec(
          guide,
        );
        assert.ok(m, `docs/mcp.md has a ${info} block`);
        return m[1];
      };
      const config = block("json inspector");
      const lines = block("sh inspector");
      const run = async (json: string) => {
        const project = await realpath(
          await mkdtemp(join(tmpdir(), "hl-inspector-guide-")),
        );
        await writeFile(join(project, "app.py"), APP);
        await writeFile(
          join(project, "mcp.json"),
          json.replaceAll("/path/to/hashline", REPO_ROOT.replace(/\/$/, ""))
            .replaceAll("/path/to/project", project),
        );
        const child = spawn("bash", ["-c", lines], {
          cwd: project,
          env: { ...process.env, npm_config_loglevel: "error" },
          stdio: ["pipe", "pipe", "pipe"],
        });
        const result = await collect(child);
        const after = await readFile(join(project, "app.py"), "utf8");
        await rm(project, { recursive: true, force: true });
        return { ...result, after };
      };
      const named = await run(config);
      assert.equal(named.code, 0, named.stderr);
      assert.match(
        named.stdout,
        new RegExp(`1:${lineHash("def greet(name):")}\\|def greet`),
      );
      assert.match(named.stdout, /Edited app\.py/);
      assert.equal(
        named.after,
        APP.replace("def greet(name):", "def greet(name: str):"),
      );
      const unnamed = await run(
        config.replace(', "--session", "inspector"', ""),
      );
      assert.match(unnamed.stdout, /has not read the file: read it first/);
      // The refusal says why and how: the read went to another connection.
      assert.match(unnamed.stdout, /another connection/);
      assert.match(unnamed.stdout, /--session NAME/);
      assert.equal(
        unnamed.after,
        APP,
        "nothing written without a shared session",
      );
    },
  );
});
