/**
 * The command line's bundle (scripts/build_cli.ts), seen from outside. Built
 * into a folder of its own, it answers every command family as the source
 * does: the same output, the same exit code, the same bytes on disk. A read
 * loads two of its files. `bin/hashline` runs it only while no file under
 * `src/` (nor `deno.json`) is newer.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { REPO_ROOT, runtimeName } from "../_spawn.ts";
import { cleanEnv, evaluatedUnder } from "./_cli.ts";

const DENO = join(REPO_ROOT, "node_modules", ".bin", "deno");
const SOURCE = join(REPO_ROOT, "src", "cli", "main.ts");
// Each process spawns Deno; once is enough.
const ONCE = runtimeName() === "deno" ? false : "run once, under deno test";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Deno's arguments that run `entry` as `bin/hashline` does, with `flags` for Deno itself. */
function denoArgs(entry: string, flags: string[] = []): string[] {
  return [
    "run",
    "-A",
    ...flags,
    "--config",
    join(REPO_ROOT, "deno.json"),
    entry,
  ];
}

/** The environment of a run in `cwd`, with its own state folder. */
function envIn(cwd: string): Record<string, string> {
  return cleanEnv({ HASHLINE_STORE: join(cwd, ".state") });
}

/** One command line through `entry`, in `cwd`, with its own state folder. */
function run(
  entry: string,
  cwd: string,
  args: string[],
  input?: string,
  flags: string[] = [],
): Run {
  const r = spawnSync(DENO, [...denoArgs(entry, flags), ...args], {
    cwd,
    input,
    encoding: "utf8",
    env: envIn(cwd),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding `files`, twice: one for the source, one for the bundle. */
function twins(files: Record<string, string>): [string, string] {
  const make = () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "hashline-bundle-")));
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  return [make(), make()];
}

/** The anchor `N:HH` of line `n` in a read's output. */
function anchorOf(read: string, n: number): string {
  const row = read.split("\n").find((l) => l.startsWith(`${n}:`));
  assert.ok(row, `line ${n} in:\n${read}`);
  return row.slice(0, row.indexOf("|"));
}

describe("the CLI bundle answers as the source does", { skip: ONCE }, () => {
  let out: string;
  let bundle: string;
  const made: string[] = [];

  before(() => {
    out = join(REPO_ROOT, "build", `test-${process.pid}`);
    const built = spawnSync(
      DENO,
      ["run", "-A", join(REPO_ROOT, "scripts", "build_cli.ts"), "--out", out],
      { encoding: "utf8" },
    );
    assert.equal(built.status, 0, built.stderr);
    bundle = join(out, "main.js");
  });
  after(() => {
    rmSync(out, { recursive: true, force: true });
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the same calls in twin folders, through the source and the bundle, and compares each answer and the files left. */
  function same(
    files: Record<string, string>,
    calls: (
      call: (args: string[], input?: string) => Run,
    ) => void,
  ): [string, string] {
    const [a, b] = twins(files);
    made.push(a, b);
    const answers: Run[][] = [[], []];
    [[SOURCE, a], [bundle, b]].forEach(([entry, dir], k) =>
      calls((args, input) => {
        const r = run(entry, dir, args, input);
        answers[k].push(r);
        return r;
      })
    );
    // Times differ by the second; everything else is byte for byte.
    const strip = (t: string) =>
      t.replaceAll(a, "ROOT").replaceAll(b, "ROOT").replace(
        /\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/g,
        "TIME",
      );
    assert.equal(answers[1].length, answers[0].length);
    answers[0].forEach((r, i) => {
      const s = answers[1][i];
      assert.equal(s.code, r.code, `call ${i + 1}: ${s.stderr}`);
      assert.equal(strip(s.stdout), strip(r.stdout), `call ${i + 1} stdout`);
      assert.equal(strip(s.stderr), strip(r.stderr), `call ${i + 1} stderr`);
    });
    for (const name of Object.keys(files)) {
      assert.equal(
        readFileSync(join(b, name), "utf8"),
        readFileSync(join(a, name), "utf8"),
        name,
      );
    }
    return [a, b];
  }

  it("--version, --help, read and ls", { timeout: 60_000 }, () => {
    same({ "f.txt": "one\ntwo\n", "g.md": "# title\n" }, (call) => {
      assert.equal(call(["--version"]).code, 0);
      assert.equal(call(["--help"]).code, 0);
      assert.match(call(["read", "f.txt"]).stdout, /^@@ f\.txt\n1:/);
      assert.equal(call(["read", "missing.txt"]).code, 1);
      assert.equal(call(["ls"]).code, 0);
      assert.equal(call(["grep", "two"]).code, 0);
    });
  });

  it(
    "patch with the syntax check, a refused patch, log and undo",
    { timeout: 120_000 },
    () => {
      const [, b] = same(
        { "x.ts": "const a = 1;\nconst b = 2;\n" },
        (call) => {
          const read = call(["read", "x.ts"]).stdout;
          const landed = call(
            ["patch", "-"],
            `@@ x.ts\n= ${anchorOf(read, 2)}\n~const b = 3;\n`,
          );
          assert.equal(landed.code, 0, landed.stderr);
          // The checker (web-tree-sitter and its grammar) refuses the break.
          const broken = call(
            ["patch", "--check", "refuse", "-"],
            `@@ x.ts\n= ${anchorOf(landed.stdout, 1)}\n~const a = (;\n`,
          );
          assert.equal(broken.code, 1);
          assert.match(broken.stdout + broken.stderr, /syntax error/);
          assert.match(call(["log"]).stdout, /^h_1 .* x\.ts \+1 -1$/m);
          assert.equal(call(["undo", "h_1"]).code, 0);
        },
      );
      assert.equal(
        readFileSync(join(b, "x.ts"), "utf8"),
        "const a = 1;\nconst b = 2;\n",
      );
    },
  );

  it("store put and get", { timeout: 60_000 }, () => {
    same({ "s.txt": "stored\n" }, (call) => {
      const put = call(["store", "put", "s.txt"]);
      assert.equal(put.code, 0, put.stderr);
      const ref = put.stdout.match(/sha256:[0-9a-f]{64}/)?.[0];
      assert.ok(ref, put.stdout);
      assert.equal(call(["store", "get", ref]).stdout, "stored\n");
    });
  });

  it(
    "a read evaluates main.js and the core chunk, and no other file",
    { timeout: 60_000 },
    () => {
      const [dir] = twins({ "f.txt": "one\n" });
      made.push(dir);
      // A first read writes its record; the re-read, the common call, does not.
      run(bundle, dir, ["read", "f.txt"]);
      const r = run(bundle, dir, ["read", "f.txt"], undefined, [
        "--log-level=debug",
      ]);
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      const loaded = evaluatedUnder(r.stderr, out);
      assert.deepEqual(
        [...loaded].map((f) => f.replace(/-[\w-]+\.js$/, ".js")).sort(),
        ["core.js", "main.js"],
        [...loaded].join(", "),
      );
    },
  );

  it(
    "mcp: a client lists the tools, reads and edits through the bundle",
    { timeout: 120_000 },
    async () => {
      const [dir] = twins({ "f.txt": "alpha\nbeta\n" });
      made.push(dir);
      const client = new Client({ name: "bundle-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: DENO,
          args: [...denoArgs(bundle), "mcp", "--root", dir],
          cwd: dir,
          env: envIn(dir),
          stderr: "pipe",
        }),
      );
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === "edit_file"));
        const text = (r: unknown) =>
          (r as { content: { text: string }[] }).content.map((c) => c.text)
            .join("\n");
        const read = text(
          await client.callTool({
            name: "read_file",
            arguments: { path: "f.txt" },
          }),
        );
        const edit = await client.callTool({
          name: "edit_file",
          arguments: {
            path: "f.txt",
            ops: [{ op: "replace", start: anchorOf(read, 2), lines: ["BETA"] }],
          },
        });
        assert.notEqual(edit.isError, true, text(edit));
      } finally {
        await client.close();
      }
      assert.equal(readFileSync(join(dir, "f.txt"), "utf8"), "alpha\nBETA\n");
    },
  );
});

describe("bin/hashline runs the bundle only while it is fresh", {
  skip: ONCE,
}, () => {
  let pkg: string;
  let place: string;

  // A package of the launcher's shape whose two entries say which one ran.
  before(() => {
    place = realpathSync(mkdtempSync(join(tmpdir(), "hashline-launcher-")));
    pkg = join(place, "pkg");
    for (const d of ["bin", "node_modules/.bin", "src/cli", "build/cli"]) {
      mkdirSync(join(pkg, d), { recursive: true });
    }
    copyFileSync(
      join(REPO_ROOT, "bin", "hashline"),
      join(pkg, "bin", "hashline"),
    );
    chmodSync(join(pkg, "bin", "hashline"), 0o755);
    symlinkSync(DENO, join(pkg, "node_modules", ".bin", "deno"));
    writeFileSync(join(pkg, "deno.json"), "{}\n");
    writeFileSync(
      join(pkg, "src", "cli", "main.ts"),
      'console.log("source", Deno.args.join(" "));\n',
    );
    writeFileSync(
      join(pkg, "build", "cli", "main.js"),
      'console.log("bundle", Deno.args.join(" "));\n',
    );
  });
  after(() => rmSync(place, { recursive: true, force: true }));

  const at = (path: string, seconds: number) =>
    utimesSync(path, seconds, seconds);
  const now = Math.floor(Date.now() / 1000);
  /** Sets the times: every source file and folder at `src`, the bundle at `built`. */
  function times(src: number, built: number) {
    at(join(pkg, "deno.json"), src);
    at(join(pkg, "src", "cli", "main.ts"), src);
    at(join(pkg, "src", "cli"), src);
    at(join(pkg, "src"), src);
    at(join(pkg, "build", "cli", "main.js"), built);
  }
  function launch(launcher = join(pkg, "bin", "hashline")): string {
    const r = spawnSync(launcher, ["read", "x"], {
      cwd: place,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  }

  it("a bundle newer than every source file runs", () => {
    times(now - 100, now - 50);
    assert.equal(launch(), "bundle read x\n");
  });

  it("a source file or folder, or deno.json, newer than the bundle: the source runs", () => {
    times(now - 100, now - 50);
    at(join(pkg, "src", "cli", "main.ts"), now - 10);
    assert.equal(launch(), "source read x\n");
    // A folder is newer when a module was added, removed or renamed in it.
    times(now - 100, now - 50);
    at(join(pkg, "src", "cli"), now - 10);
    assert.equal(launch(), "source read x\n");
    times(now - 100, now - 50);
    at(join(pkg, "deno.json"), now - 10);
    assert.equal(launch(), "source read x\n");
  });

  it("no bundle: the source runs", () => {
    const moved = join(pkg, "build", "gone");
    times(now - 100, now - 50);
    copyFileSync(join(pkg, "build", "cli", "main.js"), moved);
    rmSync(join(pkg, "build", "cli", "main.js"));
    try {
      assert.equal(launch(), "source read x\n");
    } finally {
      copyFileSync(moved, join(pkg, "build", "cli", "main.js"));
      rmSync(moved);
    }
  });

  it("reached through a link to it, or through a linked folder", () => {
    times(now - 100, now - 50);
    symlinkSync(join(pkg, "bin", "hashline"), join(place, "linked"));
    symlinkSync(join(pkg, "bin"), join(place, "bin"));
    assert.equal(launch(join(place, "linked")), "bundle read x\n");
    assert.equal(launch(join(place, "bin", "hashline")), "bundle read x\n");
  });
});
