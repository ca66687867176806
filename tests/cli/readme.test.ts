import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFile, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { collect, runtimeName } from "../_spawn.ts";
import { COMMANDS, COMMON_FLAGS, ENVIRONMENT } from "../../src/cli/_table.ts";
import { npmExportsFor } from "../../scripts/_npm_exports.ts";
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

/** A copy of the project a user has after `npm ci` (the walkthrough makes its own demo/). */
async function projectCopy(): Promise<
  { dir: string; cleanup(): Promise<void> }
> {
  const copy = await tempDir();
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

/** Every fenced block of the README: its info string and its text. */
async function codeBlocks(): Promise<{ info: string; code: string }[]> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  return [...readme.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    info: m[1].trim(),
    code: m[2],
  }));
}

describe("the README's code blocks", { timeout: 300_000 }, () => {
  it("every TypeScript block either runs (`ts run=deno`) or says it is not run here (`ts ignore`)", async () => {
    for (const b of await codeBlocks()) {
      if (!/^(ts|js|typescript|javascript)\b/.test(b.info)) continue;
      assert.match(
        b.info,
        /\b(ignore|run=(deno|node|bun))\b/,
        `a ${b.info} block neither runs nor says so:\n${b.code.slice(0, 200)}`,
      );
      if (/\brun=node\b/.test(b.info)) {
        assert.doesNotMatch(
          b.code,
          /["']jsr:/,
          "Node cannot load jsr: imports",
        );
      }
    }
  });

  it(
    "every `ts run=deno` block runs as written in the checkout",
    { skip: runtimeName() !== "deno" },
    async () => {
      const blocks = (await codeBlocks()).filter((b) =>
        /\brun=deno\b/.test(b.info)
      );
      assert.ok(blocks.length > 0, "the Library section has a runnable block");
      const dir = await tempDir();
      try {
        for (const [i, b] of blocks.entries()) {
          const file = join(dir.dir, `block${i}.ts`);
          await writeFile(file, b.code);
          const r = await collect(
            spawn(
              join(REPO, "node_modules", ".bin", "deno"),
              ["run", "-A", "--config", join(REPO, "deno.json"), file],
              {
                cwd: dir.dir,
                env: cleanEnv(),
                stdio: ["ignore", "pipe", "pipe"],
              },
            ),
          );
          assert.equal(
            r.code,
            0,
            `${b.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
          );
        }
      } finally {
        await dir.cleanup();
      }
    },
  );

  it("every list of subpaths names exactly the package's exports", async () => {
    const readme = await readFile(join(REPO, "README.md"), "utf8");
    const deno = JSON.parse(await readFile(join(REPO, "deno.json"), "utf8"));
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8"));
    const subpaths = Object.keys(deno.exports).filter((k) => k !== ".")
      .map((k) => k.slice(1)).sort();
    assert.deepEqual(
      Object.keys(pkg.exports).filter((k) =>
        k !== "." && k !== "./package.json"
      )
        .map((k) => k.slice(1)).sort(),
      subpaths,
    );
    assert.deepEqual(pkg.exports, npmExportsFor(deno.exports));
    // A paragraph that lists three or more backticked subpaths and says so.
    const lists = readme.split(/\n\s*\n/).filter((p) => /subpath/i.test(p))
      .map((p) =>
        [...p.matchAll(/`(\/[a-z-]+)`/g)].map((m) => m[1]).filter((x) =>
          !x.startsWith("/v1")
        )
      ).filter((l) => l.length >= 3);
    assert.ok(lists.length > 0, "the README lists the subpaths");
    for (const list of lists) {
      assert.deepEqual([...new Set(list)].sort(), subpaths);
    }
  });
});
