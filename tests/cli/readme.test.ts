import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  copyFile,
  readdir,
  readFile,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { collect, runtimeName } from "../_spawn.ts";
import { COMMANDS, COMMON_FLAGS, ENVIRONMENT } from "../../src/cli/_table.ts";
import { npmExportsFor } from "../../scripts/_npm_exports.ts";
import { startServer } from "../../src/http/server.ts";
import { cleanEnv, tempDir } from "./_cli.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** The CLI guide, docs/cli.md, whole. */
function cliSection(): Promise<string> {
  return readFile(join(REPO, "docs", "cli.md"), "utf8");
}

/** The README's section or subsection under `heading`, up to the next heading of its level or higher. */
async function readmeSection(heading: string): Promise<string> {
  const readme = await readFile(join(REPO, "README.md"), "utf8");
  const start = readme.indexOf(`\n${heading}\n`);
  assert.notEqual(start, -1, `README has ${heading}`);
  const level = heading.indexOf(" ");
  const next = new RegExp(`\n#{1,${level}} `, "g");
  next.lastIndex = start + heading.length + 2;
  const end = next.exec(readme)?.index;
  return readme.slice(start, end);
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

describe("the CLI guide and the README's CLI quick start", () => {
  it(
    "documents every command, flag and environment variable of the command table",
    {
      timeout: 30_000,
    },
    async () => {
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
    },
  );

  // The lines are shell commands: what they do does not depend on the runtime
  // running this file, so one runtime runs them.
  it(
    "every command of the guide's sh blocks runs verbatim in a fresh copy of the project",
    {
      skip: runtimeName() !== "deno",
      timeout: 300_000,
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

  it(
    "the README's CLI quick start runs verbatim in a fresh copy of the project",
    { skip: runtimeName() !== "deno", timeout: 120_000 },
    async () => {
      const lines = shellLines(await readmeSection("### CLI"));
      assert.ok(lines.length >= 3, "the quick start shows commands");
      const copy = await projectCopy();
      try {
        const out: string[] = [];
        for (const line of lines) {
          const r = await runLine(line, copy.dir);
          assert.equal(
            r.code,
            0,
            `${line}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
          );
          out.push(r.stdout);
        }
        assert.match(out.join("\n"), /^1:fb\|def greet\(name\):$/m);
        assert.equal(
          await readFile(join(copy.dir, "demo/app.py"), "utf8"),
          'def greet(name):\n    return f"hi {name}"\n',
        );
      } finally {
        await copy.cleanup();
      }
    },
  );
});

/** Every fenced block of the README and the guides: its info string and its text. */
async function codeBlocks(): Promise<{ info: string; code: string }[]> {
  const docs = (await readdir(join(REPO, "docs")))
    .filter((f) => f.endsWith(".md")).map((f) => join("docs", f));
  const out: { info: string; code: string }[] = [];
  for (
    const file of ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", ...docs]
  ) {
    const text = await readFile(join(REPO, file), "utf8");
    for (const m of text.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
      out.push({ info: m[1].trim(), code: m[2] });
    }
  }
  return out;
}

describe("the code blocks of the README and the guides", () => {
  it(
    "every TypeScript block either runs (`ts run=deno`) or says it is not run here (`ts ignore`)",
    {
      timeout: 30_000,
    },
    async () => {
      for (const b of await codeBlocks()) {
        if (!/^(ts|js|typescript|javascript)\b/.test(b.info)) continue;
        assert.match(
          b.info,
          /\b(ignore|run=(deno|node|bun))\b/,
          `a ${b.info} block neither runs nor says so:\n${
            b.code.slice(0, 200)
          }`,
        );
        if (/\brun=node\b/.test(b.info)) {
          assert.doesNotMatch(
            b.code,
            /["']jsr:/,
            "Node cannot load jsr: imports",
          );
        }
      }
    },
  );

  it(
    "every `ts run=deno` block runs as written in the checkout",
    { skip: runtimeName() !== "deno", timeout: 300_000 },
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

  it(
    "every list of subpaths in the README names exactly the package's exports",
    {
      timeout: 30_000,
    },
    async () => {
      const readme = await readFile(join(REPO, "README.md"), "utf8");
      const deno = JSON.parse(await readFile(join(REPO, "deno.json"), "utf8"));
      const pkg = JSON.parse(
        await readFile(join(REPO, "package.json"), "utf8"),
      );
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
    },
  );
});

describe("the README's HTTP quick start", () => {
  const curl = spawnSync("curl", ["--version"]);
  it(
    "its curl lines read and then patch a file, against a server the test starts on the project",
    {
      skip: curl.error || curl.status !== 0 ? "no curl on PATH" : false,
      timeout: 60_000,
    },
    async () => {
      const lines = shellLines(await readmeSection("### HTTP"));
      assert.ok(
        lines.length >= 2 && lines.every((l) => l.startsWith("curl ")),
        "the quick start shows curl lines",
      );
      const project = await tempDir();
      const file = join(project.dir, "app.py");
      await writeFile(file, 'def greet(name):\n    return f"hello {name}"\n');
      const server = await startServer({ port: 0, root: project.dir });
      try {
        const answers: string[] = [];
        for (const line of lines) {
          const r = await runLine(
            line.replaceAll("http://127.0.0.1:8787", server.url),
            project.dir,
          );
          assert.equal(r.code, 0, `${line}\nstderr: ${r.stderr}`);
          assert.equal(JSON.parse(r.stdout).ok, true, r.stdout);
          answers.push(r.stdout);
        }
        assert.match(answers[0], /1:fb\|def greet\(name\):/);
        assert.equal(
          await readFile(file, "utf8"),
          'def greet(name):\n    return f"hi {name}"\n',
        );
      } finally {
        await server.close();
        await project.cleanup();
      }
    },
  );
});
