import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { hashline, type TempDir, tempDir } from "./_cli.ts";

const APP = "print('hi')\nprint('bye')\n";

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8" });
}

describe(
  "the CLI run from outside the root and from a subfolder",
  () => {
    let t: TempDir;
    let proj: string;
    let elsewhere: string;
    beforeEach(async () => {
      t = await tempDir({
        "proj/app.py": APP,
        "proj/src/a.ts": "export const a = 1;\n",
        "proj/notes.md": "hello\n",
        "elsewhere/app.py": "not this one\n",
      });
      proj = join(t.dir, "proj");
      elsewhere = join(t.dir, "elsewhere");
      git(proj, "init", "-q");
      git(proj, "-c", "user.email=t@t", "-c", "user.name=t", "add", ".");
      git(
        proj,
        "-c",
        "user.email=t@t",
        "-c",
        "user.name=t",
        "commit",
        "-q",
        "-m",
        "start",
      );
    });
    afterEach(() => t.cleanup());

    it(
      "takes relative paths from the root, keeps state under the root, and leaves git status clean",
      { timeout: 120_000 },
      async () => {
        const read = await hashline(["--root", proj, "read", "app.py"], {
          cwd: elsewhere,
        });
        assert.equal(read.code, 0, read.stderr);
        assert.deepEqual(read.stdout.split("\n").slice(0, 2), [
          "@@ app.py",
          `1:${lineHash("print('hi')")}|print('hi')`,
        ]);
        // State lives in <root>/.hashline/, with a .gitignore of *, and nowhere else.
        assert.equal(
          await readFile(join(proj, ".hashline", ".gitignore"), "utf8"),
          "*\n",
        );
        assert.deepEqual(await readdir(elsewhere), ["app.py"]);
        assert.equal(git(proj, "status", "--porcelain"), "");

        // A read made from outside counts for a patch sent from inside the
        // root, whose paths are taken from there as read's are.
        const patched = await hashline(["patch", "-", "--root", ".."], {
          cwd: join(proj, "src"),
          input: `@@ ../app.py\n= 2:${
            lineHash("print('bye')")
          }\n~print('ciao')\n`,
        });
        assert.equal(patched.code, 0, patched.stderr);
        assert.equal(
          await readFile(join(proj, "app.py"), "utf8"),
          "print('hi')\nprint('ciao')\n",
        );
        assert.equal(
          await readFile(join(elsewhere, "app.py"), "utf8"),
          "not this one\n",
        );

        // write PATH FILE and store put FILE take both paths from the root too.
        const written = await hashline(
          ["--root", proj, "write", "copy.md", "notes.md"],
          { cwd: elsewhere },
        );
        assert.equal(written.code, 0, written.stderr);
        assert.equal(await readFile(join(proj, "copy.md"), "utf8"), "hello\n");
        const put = await hashline(
          ["--root", proj, "store", "put", "notes.md", "--json"],
          { cwd: elsewhere },
        );
        assert.equal(put.code, 0, put.stderr);
        assert.match(JSON.parse(put.stdout).ref, /^sha256:/);
        const exported = await hashline(
          [
            "--root",
            proj,
            "store",
            "export",
            JSON.parse(put.stdout).ref,
            "--out",
            "exported.md",
          ],
          { cwd: elsewhere },
        );
        assert.equal(exported.code, 0, exported.stderr);
        assert.equal(
          await readFile(join(proj, "exported.md"), "utf8"),
          "hello\n",
        );
        assert.deepEqual(await readdir(elsewhere), ["app.py"]);
        assert.equal(
          git(proj, "status", "--porcelain"),
          " M app.py\n?? copy.md\n?? exported.md\n",
        );
      },
    );

    it(
      "takes relative paths from the working folder when it lies inside the root",
      { timeout: 120_000 },
      async () => {
        const read = await hashline(
          ["read", "a.ts", "--root", "..", "--json"],
          {
            cwd: join(proj, "src"),
          },
        );
        assert.equal(read.code, 0, read.stderr);
        assert.equal(JSON.parse(read.stdout).path, "src/a.ts");
        const write = await hashline(
          ["write", "a.ts", "-", "--root", proj],
          { cwd: join(proj, "src"), input: "export const a = 2;\n" },
        );
        assert.equal(write.code, 0, write.stderr);
        assert.equal(
          await readFile(join(proj, "src", "a.ts"), "utf8"),
          "export const a = 2;\n",
        );
        assert.equal(await readFile(join(proj, "app.py"), "utf8"), APP);
        await assert.rejects(stat(join(proj, "src", ".hashline")), {
          code: "ENOENT",
        });
        assert.equal((await stat(join(proj, ".hashline"))).isDirectory(), true);
      },
    );

    it(
      "--state and HASHLINE_STORE move the state folder",
      { timeout: 120_000 },
      async () => {
        const flag = await hashline(
          ["--root", proj, "read", "app.py", "--state", "st"],
          { cwd: elsewhere },
        );
        assert.equal(flag.code, 0, flag.stderr);
        assert.equal(
          await readFile(join(elsewhere, "st", ".gitignore"), "utf8"),
          "*\n",
        );
        const env = await hashline(["--root", proj, "read", "app.py"], {
          cwd: elsewhere,
          env: { HASHLINE_STORE: join(t.dir, "env-state") },
        });
        assert.equal(env.code, 0, env.stderr);
        assert.equal(
          (await stat(join(t.dir, "env-state"))).isDirectory(),
          true,
        );
        await assert.rejects(stat(join(proj, ".hashline")), { code: "ENOENT" });
        // The flag wins over the environment.
        await mkdir(join(t.dir, "both"));
        const both = await hashline(
          ["--root", proj, "read", "app.py", "--state", join(t.dir, "both")],
          { cwd: elsewhere, env: { HASHLINE_STORE: join(t.dir, "env-state") } },
        );
        assert.equal(both.code, 0, both.stderr);
        assert.ok((await readdir(join(t.dir, "both"))).length > 0);
      },
    );
    it(
      "refuses a file path typed with a trailing slash, from the root and from a subfolder, and writes nothing",
      { timeout: 120_000 },
      async () => {
        for (
          const [cwd, path] of [[proj, "app.py/"], [join(proj, "src"), "a.ts/"]]
        ) {
          const read = await hashline(["--root", proj, "read", path], { cwd });
          assert.equal(read.code, 1, read.stdout);
          assert.match(read.stderr, /a trailing "\/" names a folder/);
          const json = await hashline(
            ["--root", proj, "--json", "read", path],
            {
              cwd,
            },
          );
          assert.equal(JSON.parse(json.stdout).error.code, "NOT_A_FILE");
        }
        const write = await hashline(
          ["--root", proj, "write", "app.py/", "-"],
          {
            cwd: proj,
            input: "replaced\n",
          },
        );
        assert.equal(write.code, 1, write.stdout);
        assert.equal(await readFile(join(proj, "app.py"), "utf8"), APP);
      },
    );
  },
);
