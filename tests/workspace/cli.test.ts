import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import { main } from "../../src/cli/main.ts";
import { runTs } from "../_spawn.ts";
import { makeTree, snapshot, type Tree } from "./_helpers.ts";

const CLI = new URL("../../src/cli/main.ts", import.meta.url).pathname;

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Runs the command line in this process from the tree's root, capturing its output. */
async function cli(t: Tree, args: string[], stdin?: string): Promise<Ran> {
  let out = "";
  let err = "";
  const code = await main(args, {
    cwd: t.root,
    env: (name) => (name === "HASHLINE_STORE" ? t.state : undefined),
    stdin: () => Promise.resolve(new TextEncoder().encode(stdin ?? "")),
    stdout: (s) => Promise.resolve(void (out += s)),
    stderr: (s) => Promise.resolve(void (err += s)),
  });
  return { code, out, err };
}

describe("CLI read, patch and write", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.txt"), "alpha\nbeta\ngamma\n");
  });
  afterEach(() => t.cleanup());

  it("read prints the view, a footer, and exactly one JSON document with --json", async () => {
    const plain = await cli(t, [
      "read",
      "f.txt",
      "--root",
      t.root,
      "--limit",
      "2",
    ]);
    assert.equal(plain.code, 0);
    assert.equal(
      plain.out,
      `@@ f.txt\n1:${lineHash("alpha")}|alpha\n2:${lineHash("beta")}|beta\n`,
    );
    assert.equal(plain.err, "(lines 1–2 of 3; next: --offset 3)\n");
    const json = await cli(t, [
      "--json",
      "--root",
      t.root,
      "read",
      "f.txt",
      "--offset",
      "3",
    ]);
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.out), {
      ok: true,
      path: "f.txt",
      text: `3:${lineHash("gamma")}|gamma`,
      totalLines: 3,
      startLine: 3,
      endLine: 3,
      nextOffset: null,
    });
  });

  it("patch applies text or JSON patches, --dry-run writes nothing", async () => {
    await cli(t, ["read", "f.txt", "--root", t.root]);
    const patch = `@@ f.txt\n= 2:${lineHash("beta")}\n~BETA\n`;
    const before = await snapshot(t.root);
    const dry = await cli(
      t,
      ["patch", "--root", t.root, "--dry-run", "--json"],
      patch,
    );
    assert.equal(dry.code, 0);
    const doc = JSON.parse(dry.out);
    assert.equal(doc.ok, true);
    assert.equal(doc.dryRun, true);
    assert.deepEqual(doc.files.map((f: { path: string }) => f.path), ["f.txt"]);
    assert.deepEqual(await snapshot(t.root), before);
    const real = await cli(t, ["patch", "-", "--root", t.root], patch);
    assert.equal(real.code, 0, real.err);
    assert.match(real.out, /^Edited f\.txt \(\+1 -1\)\n/);
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      "alpha\nBETA\ngamma\n",
    );
    const json = JSON.stringify({
      files: [{
        path: "f.txt",
        ops: [{ op: "delete", start: `3:${lineHash("gamma")}` }],
      }],
    });
    const again = await cli(t, ["patch", "--root", t.root, "--json"], json);
    assert.equal(again.code, 0, again.out);
    assert.equal(JSON.parse(again.out).files[0].removed, 1);
  });

  it("exits 1 on refusals and 2 on bad usage, printing JSON errors with --json", async () => {
    const cases: [string[], string | undefined, number, string][] = [
      [
        ["patch", "--json"],
        `@@ f.txt\n- 1:${lineHash("alpha")}\n`,
        1,
        "NOT_READ",
      ],
      [["read", "../escape.txt", "--json"], undefined, 1, "OUTSIDE_ROOT"],
      [["read", "missing.txt", "--json"], undefined, 1, "NOT_FOUND"],
      [["read", "f.txt", "--offset", "9", "--json"], undefined, 2, "BAD_INPUT"],
      [["read", "f.txt", "--bogus", "1", "--json"], undefined, 2, "BAD_INPUT"],
      [["read", "--json"], undefined, 2, "BAD_INPUT"],
      [["patch", "--json"], "@@ f.txt\n? what\n", 2, "BAD_INPUT"],
      [["patch", "--json"], "   ", 2, "BAD_INPUT"],
      [["patch", "nope.patch", "--json"], undefined, 2, "BAD_INPUT"],
    ];
    const before = await snapshot(t.root);
    for (const [args, stdin, code, error] of cases) {
      const ran = await cli(t, [...args, "--root", t.root], stdin);
      assert.equal(ran.code, code, `${args.join(" ")}: ${ran.out}`);
      const doc = JSON.parse(ran.out);
      assert.equal(doc.ok, false);
      assert.equal(doc.error.code, error, args.join(" "));
    }
    assert.deepEqual(await snapshot(t.root), before);
  });

  it("write creates a file and replaces one that was read", async () => {
    const created = await cli(
      t,
      ["write", "new.txt", "-", "--root", t.root],
      "one\ntwo\n",
    );
    assert.equal(created.code, 0);
    assert.match(created.out, /^Created new\.txt \(2 lines\)/);
    const refused = await cli(
      t,
      ["write", "f.txt", "-", "--root", t.root, "--json"],
      "x\n",
    );
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.out).error.code, "NOT_READ");
    await cli(t, ["read", "f.txt", "--root", t.root]);
    const replaced = await cli(t, [
      "write",
      "f.txt",
      "-",
      "--root",
      t.root,
      "--json",
    ], "x\n");
    assert.equal(replaced.code, 0);
    assert.equal(JSON.parse(replaced.out).removed, 3);
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), "x\n");
  });

  it("keeps one session across separate processes through the state folder", {
    timeout: 60_000,
  }, async () => {
    const env = { HASHLINE_STORE: t.state };
    const patch = `@@ f.txt\n= 1:${lineHash("alpha")}\n~ALPHA\n`;
    const [read, usage] = await Promise.all([
      runTs(CLI, ["read", "f.txt", "--root", t.root], { env, cwd: t.root }),
      runTs(CLI, ["read", "--root", t.root, "--json"], { env, cwd: t.root }),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.deepEqual(read.stdout.split("\n").slice(0, 2), [
      "@@ f.txt",
      `1:${lineHash("alpha")}|alpha`,
    ]);
    assert.equal(usage.code, 2);
    const [other, same] = await Promise.all([
      runTs(CLI, ["patch", "--root", t.root, "--session", "other", "--json"], {
        env,
        input: patch,
      }),
      runTs(CLI, ["patch", "--root", t.root], { env, input: patch }),
    ]);
    assert.equal(other.code, 1);
    assert.equal(JSON.parse(other.stdout).error.code, "NOT_READ");
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^Edited f\.txt \(\+1 -1\)/);
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      "ALPHA\nbeta\ngamma\n",
    );
  });

  it("keeps reads in memory only when persistSessions is false", async () => {
    const a = t.open({ persistSessions: false });
    await a.read("f.txt");
    const b = t.open({ persistSessions: false });
    await assert.rejects(
      b.patch({
        files: [{ path: "f.txt", ops: [{ op: "append", lines: ["x"] }] }],
      }),
      { code: "NOT_READ" },
    );
    await a.patch({
      files: [{ path: "f.txt", ops: [{ op: "append", lines: ["x"] }] }],
    });
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      "alpha\nbeta\ngamma\nx\n",
    );
  });
});
