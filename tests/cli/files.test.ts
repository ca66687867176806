import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { callerFolder } from "../../src/cli/_context.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import { hashline, type TempDir, tempDir } from "./_cli.ts";

const TEXT = "alpha\nbeta\ngamma\n";

describe(
  "hashline read, patch and write as a process",
  () => {
    let t: TempDir;
    let state: Record<string, string>;
    beforeEach(async () => {
      t = await tempDir({
        "f.txt": TEXT,
        "sub/g.txt": "one\n",
        "new.md": "fresh\n",
      });
      state = { HASHLINE_STORE: join(t.dir, ".state") };
    });
    afterEach(() => t.cleanup());

    it(
      "write with a closed or empty stdin never empties a file, even one the session read",
      { timeout: 120_000 },
      async () => {
        const read = await hashline(["read", "f.txt"], {
          cwd: t.dir,
          env: state,
        });
        assert.equal(read.code, 0, read.stderr);
        const [closed, empty] = await Promise.all([
          hashline(["write", "f.txt", "-"], {
            cwd: t.dir,
            env: state,
            input: null,
          }),
          hashline(["write", "f.txt", "-", "--json"], {
            cwd: t.dir,
            env: state,
            input: "",
          }),
        ]);
        assert.equal(closed.code, 2);
        assert.match(
          closed.stderr,
          /^Refused to empty "f\.txt": standard input was empty .* the file holds 17 bytes\. Nothing was written\. .*--allow-empty/,
        );
        assert.equal(empty.code, 2);
        assert.equal(JSON.parse(empty.stdout).error.code, "BAD_INPUT");
        assert.equal(await readFile(join(t.dir, "f.txt"), "utf8"), TEXT);
        const allowed = await hashline(
          ["write", "f.txt", "-", "--allow-empty"],
          {
            cwd: t.dir,
            env: state,
            input: "",
          },
        );
        assert.equal(allowed.code, 0, allowed.stderr);
        assert.equal(await readFile(join(t.dir, "f.txt"), "utf8"), "");
      },
    );

    it(
      "write reads stdin only when given -, and takes content from a named file",
      { timeout: 120_000 },
      async () => {
        const noSource = await hashline(["write", "f.txt"], {
          cwd: t.dir,
          env: state,
          input: "x\n",
        });
        assert.equal(noSource.code, 2);
        assert.match(
          noSource.stderr,
          /^write takes PATH FILE\|-, got "f\.txt"/,
        );
        const created = await hashline(["write", "made.md", "new.md"], {
          cwd: t.dir,
          env: state,
        });
        assert.equal(created.code, 0, created.stderr);
        assert.match(created.stdout, /^Created made\.md \(1 lines?\)/);
        assert.equal(await readFile(join(t.dir, "made.md"), "utf8"), "fresh\n");
        const piped = await hashline(["write", "piped.md", "-"], {
          cwd: t.dir,
          env: state,
          input: "a\nb\n",
        });
        assert.equal(piped.code, 0, piped.stderr);
        assert.equal(await readFile(join(t.dir, "piped.md"), "utf8"), "a\nb\n");
        assert.equal(await readFile(join(t.dir, "f.txt"), "utf8"), TEXT);
      },
    );

    it(
      "resolves --root against the working folder, and PATH and FILE from it when it lies inside the root",
      { timeout: 120_000 },
      async () => {
        const sub = join(t.dir, "sub");
        const inSub = await hashline(["read", "g.txt", "--root", ".."], {
          cwd: sub,
          env: state,
        });
        assert.equal(inSub.code, 0, inSub.stderr);
        assert.equal(inSub.stdout, `@@ g.txt\n1:${lineHash("one")}|one\n`);
        const json = await hashline(
          ["read", "g.txt", "--root", "..", "--json"],
          {
            cwd: sub,
            env: state,
          },
        );
        assert.equal(JSON.parse(json.stdout).path, "sub/g.txt");
        // From outside the root, relative paths are taken from the root.
        const outside = await hashline([
          "read",
          "g.txt",
          "--root",
          join(t.dir, "sub"),
          "--json",
        ], {
          cwd: t.dir,
          env: state,
        });
        assert.equal(outside.code, 0, outside.stdout);
        assert.equal(JSON.parse(outside.stdout).path, "g.txt");
        const escape = await hashline([
          "read",
          "../f.txt",
          "--root",
          join(t.dir, "sub"),
          "--json",
        ], {
          cwd: t.dir,
          env: state,
        });
        assert.equal(escape.code, 1);
        const error = JSON.parse(escape.stdout).error;
        assert.equal(error.code, "OUTSIDE_ROOT");
        assert.match(
          error.message,
          /Relative paths are taken from the root .*, since the working folder .* lies outside it/,
        );
        const copy = await hashline([
          "write",
          "copy.md",
          "../new.md",
          "--root",
          "..",
        ], { cwd: sub, env: state });
        assert.equal(copy.code, 0, copy.stderr);
        assert.equal(await readFile(join(sub, "copy.md"), "utf8"), "fresh\n");
        // With no HASHLINE_STORE the state folder is .hashline/ in the root (here the caller's folder).
        const fresh = await hashline(["read", "g.txt"], { cwd: sub });
        assert.equal(fresh.code, 0, fresh.stderr);
        assert.equal((await stat(join(sub, ".hashline"))).isDirectory(), true);
        await assert.rejects(stat(join(t.dir, ".hashline")), {
          code: "ENOENT",
        });
        const patched = await hashline(["patch", "-"], {
          cwd: sub,
          input: `@@ g.txt\n= 1:${lineHash("one")}\n~ONE\n`,
        });
        assert.equal(patched.code, 0, patched.stderr);
        assert.equal(await readFile(join(sub, "g.txt"), "utf8"), "ONE\n");
      },
    );

    it(
      "takes the caller's folder from INIT_CWD only when it lies inside the working folder",
      { timeout: 120_000 },
      () => {
        assert.equal(callerFolder("/proj", "/proj/src"), "/proj/src");
        assert.equal(callerFolder("/proj", "/proj"), "/proj");
        assert.equal(callerFolder("/tmp/run", "/proj"), "/tmp/run");
        assert.equal(callerFolder("/proj", "/proj-other"), "/proj");
        assert.equal(callerFolder("/proj", "relative/dir"), "/proj");
        assert.equal(callerFolder("/proj", undefined), "/proj");
      },
    );

    it(
      "honours INIT_CWD as deno task sets it: paths from the caller's folder, not the project's",
      { timeout: 120_000 },
      async () => {
        const r = await hashline(["read", "g.txt", "--json"], {
          cwd: t.dir,
          env: { ...state, INIT_CWD: join(t.dir, "sub") },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(JSON.parse(r.stdout).path, "g.txt");
      },
    );

    it(
      "patch accepts --rebase and --dry-run; a patch with a stale anchor exits 1 and writes nothing",
      { timeout: 120_000 },
      async () => {
        await hashline(["read", "f.txt"], { cwd: t.dir, env: state });
        const patch = `@@ f.txt\n= 2:${lineHash("beta")}\n~BETA\n`;
        const dry = await hashline(["patch", "--rebase", "--dry-run", "-"], {
          cwd: t.dir,
          env: state,
          input: patch,
        });
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stdout, /Dry run: nothing was written\./);
        assert.equal(await readFile(join(t.dir, "f.txt"), "utf8"), TEXT);
        const stale = `@@ f.txt\n= 2:${
          lineHash("beta") === "00" ? "01" : "00"
        }\n~BETA\n`;
        const refused = await hashline(["patch", "--rebase", "--json"], {
          cwd: t.dir,
          env: state,
          input: stale,
        });
        assert.equal(refused.code, 1);
        assert.equal(JSON.parse(refused.stdout).ok, false);
        assert.equal(await readFile(join(t.dir, "f.txt"), "utf8"), TEXT);
        const applied = await hashline(["patch", "-", "--rebase"], {
          cwd: t.dir,
          env: state,
          input: patch,
        });
        assert.equal(applied.code, 0, applied.stderr);
        assert.equal(
          await readFile(join(t.dir, "f.txt"), "utf8"),
          "alpha\nBETA\ngamma\n",
        );
      },
    );
  },
);
