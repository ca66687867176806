/**
 * Bounded work for every path, and rules that hold whatever the spelling:
 * over-long paths are refused before any resolution, a deny glob meeting a
 * symlink loop answers, and `.git`, `.hashline` and deny globs match with
 * case folded and names in NFC (as case-insensitive file systems open them).
 */
import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { runCli } from "../_doors.ts";
import { compileGlobs } from "../../src/_internal/glob.ts";
import { makeTree, snapshot, type Tree } from "./_helpers.ts";

describe("path bounds", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "b"), "keep\n");
  });
  afterEach(() => t.cleanup());

  const cases: { name: string; path: string }[] = [
    { name: "20,000 components", path: "a/".repeat(20_000) + "b" },
    { name: "over 4,096 bytes", path: "d/".repeat(1000) + "x".repeat(3000) },
    { name: "one name over 255 bytes", path: "d/" + "é".repeat(128) },
    { name: "over 1,024 components", path: "./".repeat(1100) + "b" },
  ];
  for (const c of cases) {
    it(`refuses ${c.name} with BAD_PATH on every operation, touching nothing`, async () => {
      const ws = t.open({ deny: ["**/secret/**"] });
      const before = await snapshot(t.root);
      const ops = [
        () => ws.read(c.path),
        () => ws.stat(c.path),
        () => ws.write(c.path, "x\n"),
        () => ws.create(c.path, "x\n"),
        () =>
          ws.patch({
            files: [{ path: c.path, ops: [{ op: "append", lines: ["x"] }] }],
          }),
      ];
      for (const op of ops) {
        await assert.rejects(op(), (e: { code?: string; message: string }) => {
          assert.equal(e.code, "BAD_PATH", e.message);
          return true;
        });
      }
      assert.deepEqual(await snapshot(t.root), before);
      assert.equal((await ws.read("b")).text.endsWith("|keep"), true);
    });
  }

  it("accepts a path just within the bounds", async () => {
    const ws = t.open();
    const deep = "./".repeat(1000) + "b";
    assert.equal((await ws.read(deep)).path, "b");
  });

  it("answers every call when a deny glob meets an in-root symlink loop", async () => {
    await mkdir(join(t.root, "d"));
    await symlink("..", join(t.root, "d", "up"));
    await mkdir(join(t.root, "secret"));
    await writeFile(join(t.root, "secret", "k.env"), "KEY\n");
    const ws = t.open({ deny: ["**/secret/**", "**/*.env", "**/a*b*c*d*e"] });
    const before = await snapshot(t.root);
    // The loop lets the path grow as long as the caller likes.
    const looped = "d/up/".repeat(500) + "secret/k.env";
    await assert.rejects(ws.read(looped), { code: "DENIED" });
    const within = "d/up/".repeat(400) + "b";
    assert.equal((await ws.read(within)).path, within);
    await assert.rejects(ws.read("d/up/".repeat(900) + "b"), {
      code: "BAD_PATH",
    });
    await assert.rejects(ws.write("d/up/".repeat(400) + "x.env", "x\n"), {
      code: "DENIED",
    });
    assert.deepEqual(await snapshot(t.root), before);
  });

  it("the CLI refuses a 20,000-component path with BAD_PATH and exit code 1", async () => {
    const { code, out, err } = await runCli(t, [
      "--json",
      "read",
      "a/".repeat(20_000) + "b",
    ]);
    assert.notEqual(code, 0);
    assert.match(out + err, /BAD_PATH/);
    assert.equal(await readFile(join(t.root, "b"), "utf8"), "keep\n");
  });
});

describe("spellings", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  it("refuses .GIT, .Git, .HASHLINE, a case-changed deny name and an NFD name, touching nothing", async () => {
    const nfc = "caf\u00e9.env";
    const nfd = "cafe\u0301.env";
    for (const dir of [".GIT", ".Git", ".HASHLINE", ".git."]) {
      await mkdir(join(t.root, dir, "hooks"), { recursive: true });
      await writeFile(join(t.root, dir, "config"), "[core]\n");
      await writeFile(join(t.root, dir, "hooks", "x"), "#!/bin/sh\n");
    }
    await writeFile(join(t.root, "SECRET.env"), "KEY\n");
    await writeFile(join(t.root, nfd), "KEY\n");
    const ws = t.open({ deny: ["secret.env", nfc] });
    const before = await snapshot(t.root);
    const edits = [
      ".GIT/config",
      ".Git/hooks/x",
      ".HASHLINE/x",
      ".git./config",
      ".GIT/hooks/new",
    ];
    for (const path of edits) {
      await assert.rejects(
        ws.write(path, "\tfsmonitor = echo pwned\n"),
        { code: "DENIED" },
        path,
      );
      await assert.rejects(
        ws.patch({
          files: [{ path, ops: [{ op: "append", lines: ["x"] }] }],
        }),
        (e: { code?: string }) => e.code === "DENIED" || e.code === "NOT_READ",
        path,
      );
    }
    await ws.read(".GIT/config");
    await assert.rejects(
      ws.patch({
        files: [{
          path: ".GIT/config",
          ops: [{ op: "append", lines: ["\tfsmonitor = echo pwned"] }],
        }],
      }),
      { code: "DENIED" },
    );
    for (const path of ["SECRET.env", "Secret.ENV", nfd, nfc.toUpperCase()]) {
      await assert.rejects(ws.read(path), { code: "DENIED" }, path);
      await assert.rejects(ws.write(path, "x\n"), { code: "DENIED" }, path);
    }
    await assert.rejects(ws.write("a.TXT.HASHLINE-LOCK", "x\n"), {
      code: "DENIED",
    });
    assert.deepEqual(await snapshot(t.root), before);
  });
});

describe("deny glob matching", () => {
  it("keeps the usual glob meanings", () => {
    const table: [string, string, boolean][] = [
      ["secrets/**", "secrets", true],
      ["secrets/**", "secrets/a/b.pem", true],
      ["secrets/**", "other/secrets", false],
      ["*.env", ".env", true],
      ["*.env", "a/b.env", false],
      ["**/*.env", "a/b.env", true],
      ["a/**/b", "a/b", true],
      ["a/**/b", "a/x/y/b", true],
      ["a/*", "a/.hidden", true],
      ["a/*", "a/b/c", false],
      ["{src,lib}/*.ts", "lib/x.ts", true],
      ["{src,lib}/*.ts", "bin/x.ts", false],
      ["d[0-9]/f", "d5/f", true],
      ["d[0-9]/f", "dx/f", false],
      ["?.txt", "b.txt", true],
      ["?.txt", "bb.txt", false],
      ["a\\*b", "a*b", true],
      ["a\\*b", "axb", false],
      ["!keep/**", "keep/x", false],
      ["!keep/**", "other", true],
    ];
    for (const [glob, path, want] of table) {
      assert.equal(compileGlobs([glob])(path), want, `${glob} ${path}`);
    }
  });

  it("matches a 4,096-byte path against a many-star glob", () => {
    const match = compileGlobs(["**/a*a*a*a*a*a*a*b/**/c*c*c*c*d"]);
    assert.equal(match("a/".repeat(2047) + "b"), false);
    assert.equal(match(("a".repeat(200) + "/").repeat(19)), false);
    assert.equal(match("x/aaaaaaab/y/ccccd"), true);
  });
});
