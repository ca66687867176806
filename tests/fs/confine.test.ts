import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import { Confinement } from "../../src/fs/confine.ts";

const code = (c: string) => (e: unknown) =>
  e instanceof HashlineError && e.code === c;

describe("fs/confine", () => {
  let base: string;
  let root: string;
  let confine: Confinement;
  beforeEach(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "hl-confine-")));
    root = join(base, "app");
    await mkdir(join(root, "src"), { recursive: true });
    await mkdir(join(root, ".git"));
    await mkdir(join(base, "app-evil"));
    await writeFile(join(root, "src", "a.ts"), "a\n");
    await writeFile(join(root, ".git", "config"), "[core]\n");
    await writeFile(join(root, "secret.env"), "K=V\n");
    await writeFile(join(base, "app-evil", "x.ts"), "x\n");
    await symlink(join(base, "app-evil"), join(root, "out"));
    confine = new Confinement(root, root, join(root, ".hashline"), 1 << 20, {
      deny: ["*.env"],
    });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it(
    "resolves a file inside the root to its real path and root-relative display",
    {
      timeout: 10_000,
    },
    async () => {
      const t = await confine.resolve("src/a.ts");
      assert.equal(t.real, join(root, "src", "a.ts"));
      assert.equal(t.display, "src/a.ts");
      assert.equal(t.exists, true);
      const fresh = await confine.resolve("new/dir/b.ts");
      assert.equal(fresh.exists, false);
      assert.deepEqual(fresh.missing, [
        join(root, "new"),
        join(root, "new", "dir"),
      ]);
    },
  );

  it(
    "refuses escapes, look-alike siblings, symlinks leading out, the root itself and a trailing slash",
    {
      timeout: 10_000,
    },
    async () => {
      const refused: [string, string][] = [
        ["../app-evil/x.ts", "OUTSIDE_ROOT"],
        [join(base, "app-evil", "x.ts"), "OUTSIDE_ROOT"],
        ["out/x.ts", "OUTSIDE_ROOT"],
        [".", "OUTSIDE_ROOT"],
        ["src/a.ts/", "NOT_A_FILE"],
        ["src", "NOT_A_FILE"],
        ["src/a\0.ts", "OUTSIDE_ROOT"],
      ];
      for (const [path, want] of refused) {
        await assert.rejects(confine.resolve(path), code(want), path);
      }
    },
  );

  it(
    "keeps writes out of .git in any spelling, and deny globs out of reads and writes, case folded",
    {
      timeout: 10_000,
    },
    async () => {
      for (const path of [".git/config", ".GIT/config", ".Git/hooks/x"]) {
        const t = await confine.resolve(path);
        assert.doesNotThrow(() => confine.check(t, "read"), path);
        assert.throws(() => confine.check(t, "write"), code("DENIED"), path);
      }
      for (const path of ["secret.env", "SECRET.ENV"]) {
        const t = await confine.resolve(path);
        assert.throws(() => confine.check(t, "read"), code("DENIED"), path);
      }
    },
  );
});
