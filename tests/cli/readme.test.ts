import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { collect, runtimeName } from "../_spawn.ts";
import { COMMANDS, COMMON_FLAGS, ENVIRONMENT } from "../../src/cli/_table.ts";
import { cleanEnv, tempDir } from "./_cli.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The README's CLI section, up to the next section. */
async function cliSection(): Promise<string> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  const start = readme.indexOf("\n## CLI\n");
  assert.notEqual(start, -1, "README has a CLI section");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** Every line of the section's fenced `sh` blocks that is a command. */
function shellLines(section: string): string[] {
  const lines: string[] = [];
  for (const m of section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    for (const line of m[1].split("\n")) {
      if (line.trim() !== "" && !line.trim().startsWith("#")) lines.push(line);
    }
  }
  return lines;
}

/** A copy of the project a user has after `npm ci`, with the README's demo files. */
async function projectCopy(): Promise<
  { dir: string; cleanup(): Promise<void> }
> {
  const copy = await tempDir({
    "demo/app.py": 'def greet(name):\n    return f"hello {name}"\n',
    "demo/edit.txt": '@@ demo/app.py\n= 2:5d\n~    return f"hi {name}"\n',
  });
  for (const f of ["deno.json", "package.json"]) {
    await copyFile(join(REPO, f), join(copy.dir, f));
  }
  await symlink(join(REPO, "node_modules"), join(copy.dir, "node_modules"));
  // src and bin are linked, not copied: the examples never write under them.
  await symlink(join(REPO, "src"), join(copy.dir, "src"));
  await symlink(join(REPO, "bin"), join(copy.dir, "bin"));
  return copy;
}

/** Runs one README line in bash; a `serve` line is stopped once it listens. */
async function runLine(line: string, cwd: string) {
  const serving = / serve\b/.test(line);
  const child = spawn("bash", ["-c", serving ? `exec ${line}` : line], {
    cwd,
    env: cleanEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: serving,
  });
  if (serving) {
    let seen = "";
    child.stdout?.on("data", (d: unknown) => {
      seen += String(d);
      // A launcher may start a child: stop the whole group.
      if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(seen) && child.pid) {
        process.kill(-child.pid, "SIGTERM");
      }
    });
  }
  const result = await collect(child);
  return { ...result, serving };
}

describe("the README's CLI section", { timeout: 300_000 }, () => {
  it("documents every command, flag and environment variable of the command table", async () => {
    const section = await cliSection();
    for (const c of COMMANDS) {
      assert.ok(section.includes(`\`${c.name} `), `README names ${c.name}`);
    }
    const flags = new Set([
      ...Object.keys(COMMON_FLAGS),
      ...COMMANDS.flatMap((c) => Object.keys(c.flags)),
    ]);
    for (const f of flags) {
      assert.ok(section.includes(`--${f}`), `README names --${f}`);
    }
    for (const e of ENVIRONMENT) {
      assert.ok(section.includes(e.name), `README names ${e.name}`);
    }
  });

  // The lines are shell commands: what they do does not depend on the runtime
  // running this file, so one runtime runs them.
  it(
    "every command of its sh blocks runs verbatim in a fresh copy of the project",
    {
      skip: runtimeName() !== "deno",
    },
    async () => {
      const lines = shellLines(await cliSection());
      assert.ok(lines.length >= 10, "the section shows commands");
      const copy = await projectCopy();
      try {
        for (const line of lines) {
          const r = await runLine(line, copy.dir);
          if (r.serving) {
            assert.match(r.stdout, /listening on/, `${line}\n${r.stderr}`);
          } else {
            assert.equal(
              r.code,
              0,
              `${line}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
            );
          }
        }
        assert.equal(
          await readFile(join(copy.dir, "demo/app.py"), "utf8"),
          'def greet(name):\n    return f"hi {name}"\n',
        );
        assert.equal(
          await readFile(join(copy.dir, "demo/notes.md"), "utf8"),
          "# Notes\n",
        );
        assert.equal(
          await readFile(join(copy.dir, "demo/copy.py"), "utf8"),
          await readFile(join(copy.dir, "demo/got.py"), "utf8"),
        );
      } finally {
        await copy.cleanup();
      }
    },
  );
});
