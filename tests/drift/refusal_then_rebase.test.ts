/**
 * A refusal adds the lines it shows to what the session has read, but
 * never erases what the session read first: the same patch resent with
 * rebase still finds its lines as first read (docs/patch-format.md, "Rebase", through the
 * library and the CLI), also when the refusal showed lines past the end of
 * the file as read.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/mod.ts";
import { hashline } from "../cli/_cli.ts";
import { makeTree } from "../workspace/_helpers.ts";

const PATCH = `@@ a.txt\n= 3:${lineHash("three")}\n~THREE\n`;

describe("a stale patch resent with rebase", () => {
  it("applies where its lines moved, after the refusal without rebase", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\n");
      const ws = t.open();
      await ws.read("a.txt");
      await writeFile(join(t.root, "a.txt"), "zero\none\ntwo\nthree\n");
      await assert.rejects(ws.patch(PATCH), { code: "STALE_ANCHOR" });
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "zero\none\ntwo\nthree\n",
      );
      const done = await ws.patch(PATCH, { rebase: true });
      assert.deepEqual(done.rebased, ["a.txt op 1: line 3 → 4"]);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "zero\none\ntwo\nTHREE\n",
      );
    } finally {
      await t.cleanup();
    }
  });

  it("the same through the CLI: patch, refused, then patch --rebase", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      const env = { HASHLINE_STORE: t.state };
      await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\n");
      assert.equal(
        (await hashline(["read", "a.txt"], { cwd: t.root, env })).code,
        0,
      );
      await writeFile(join(t.root, "a.txt"), "zero\none\ntwo\nthree\n");
      const refused = await hashline(["patch"], {
        cwd: t.root,
        env,
        input: PATCH,
      });
      assert.equal(refused.code, 1, refused.stderr);
      const done = await hashline(["patch", "--rebase"], {
        cwd: t.root,
        env,
        input: PATCH,
      });
      assert.equal(done.code, 0, done.stderr);
      assert.match(done.stdout, /Rebased: a\.txt op 1: line 3 → 4/);
      assert.equal(
        await readFile(join(t.root, "a.txt"), "utf8"),
        "zero\none\ntwo\nTHREE\n",
      );
    } finally {
      await t.cleanup();
    }
  });
});
