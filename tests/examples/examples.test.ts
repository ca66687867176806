import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { collect, REPO_ROOT, runtimeName } from "../_spawn.ts";

/** What each example must print; a new example needs a line here. */
const EXPECT: Record<string, RegExp[]> = {
  "agent_tools.ts": [/^tools: read_file, edit_file/m, /^> read_file /m],
  "patch_content.ts": [
    /^2:5d\| {4}return f"hello \{name\}"$/m,
    /^A patch of greet\.py: 2 ops$/m,
    /^Rejected — nothing written\.$/m,
    /^Hash mismatch at line 4/m,
  ],
  "server.ts": [/^stale {4}409 STALE_ANCHOR$/m],
  "store.ts": [/^put {5}p_[0-9a-f]{12} sha256:/m],
  "workspace.ts": [/^Edited greet\.py \(\+1 -1\)$/m],
};

/** The commands an example's module doc names, each on its own line. */
function runLines(source: string, file: string): string[] {
  const doc = /^\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? "";
  const lines: string[] = [];
  for (const raw of doc.split("\n")) {
    const line = raw.replace(/^\s*\*\s?/, "").trim();
    if (
      /^(node_modules\/\.bin\/(deno|bun)|node) /.test(line) &&
      line.endsWith(`examples/${file}`)
    ) {
      lines.push(line);
    }
  }
  return lines;
}

function run(line: string) {
  const [cmd, ...args] = line.split(/\s+/);
  return collect(
    spawn(cmd, args, {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
}

// The commands name their runtime, so one test runtime runs them all.
describe("examples/", {
  skip: runtimeName() === "deno" ? false : "run once, under deno test",
}, () => {
  const files = readdirSync(join(REPO_ROOT, "examples"))
    .filter((f) => f.endsWith(".ts")).sort();

  it(
    "every example is listed with what it must print",
    { timeout: 10_000 },
    () => {
      assert.deepEqual(files, Object.keys(EXPECT).sort());
    },
  );

  for (const file of files) {
    it(`${file} runs on every runtime its doc names`, {
      timeout: 300_000,
    }, async () => {
      const source = await readFile(
        join(REPO_ROOT, "examples", file),
        "utf8",
      );
      const lines = runLines(source, file);
      assert.ok(lines.length > 0, `${file} names how to run it`);
      for (const line of lines) {
        const r = await run(line);
        assert.equal(r.code, 0, `${line}\n${r.stdout}\n${r.stderr}`);
        for (const want of EXPECT[file] ?? []) {
          assert.match(r.stdout, want, `${line} printed:\n${r.stdout}`);
        }
      }
    });
  }
});
