/**
 * What a patch leaves in the session's read record when it does not land
 * (docs/patch-format.md "Result"): a dry run changes nothing at all, and a
 * refusal adds the lines it shows without erasing what was read before, so
 * the same patch resent with rebase still finds its region as first read.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { createApp } from "../../src/http/app.ts";
import { lineHash } from "../../src/hash/fnv.ts";
import type { Patch } from "../../src/patch/types.ts";
import { call, errorOf } from "../http/_helpers.ts";
import { makeTree, snapshot, type Tree } from "./_helpers.ts";

const LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
const ORIGINAL = LINES.join("\n") + "\n";
const SHIFTED = ["new a", "new b", ...LINES].join("\n") + "\n";

/** Replaces line 5 as first read, by its anchor from that read. */
const replaceFive: Patch = {
  files: [{
    path: "f.txt",
    ops: [{
      op: "replace",
      start: `5:${lineHash("line 5")}`,
      lines: ["FIVE"],
    }],
  }],
};

const sessions = (t: Tree) => snapshot(join(t.state, "sessions"));

describe("what a patch that does not land leaves in the read record", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.txt"), ORIGINAL);
  });
  afterEach(() => t.cleanup());

  it("a dry run records nothing, whether it passes or is refused (library)", async () => {
    const ws = t.open();
    await ws.read("f.txt");
    const before = await sessions(t);
    const ok = await ws.patch(replaceFive, { dryRun: true });
    assert.equal(ok.dryRun, true);
    assert.deepEqual(await sessions(t), before);
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), ORIGINAL);

    await writeFile(join(t.root, "f.txt"), SHIFTED);
    await assert.rejects(
      ws.patch(replaceFive, { dryRun: true }),
      (e: unknown) => e instanceof PatchRefusedError,
    );
    assert.deepEqual(await sessions(t), before);
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), SHIFTED);
  });

  it("a refusal keeps what was read, so the same patch resent with rebase lands (library)", async () => {
    const ws = t.open();
    await ws.read("f.txt");
    await writeFile(join(t.root, "f.txt"), SHIFTED);
    await assert.rejects(ws.patch(replaceFive), (e: unknown) => {
      assert.ok(e instanceof PatchRefusedError);
      assert.equal(e.code, "STALE_ANCHOR");
      assert.ok(e.problems[0].shown && e.problems[0].shown.length > 0);
      return true;
    });
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), SHIFTED);
    // A second process (a later CLI call) sees the same record.
    const again = t.open();
    const out = await again.patch(replaceFive, { rebase: true });
    assert.deepEqual(out.rebased, ["f.txt op 1: line 5 → 7"]);
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      SHIFTED.replace("line 5\n", "FIVE\n"),
    );
  });

  it("the lines a refusal shows still count as read: a resend from its anchors lands", async () => {
    const ws = t.open();
    await ws.read("f.txt");
    await writeFile(
      join(t.root, "f.txt"),
      ORIGINAL.replace("line 4", "LINE 4"),
    );
    await assert.rejects(ws.patch({
      files: [{
        path: "f.txt",
        ops: [{
          op: "replace",
          start: `4:${lineHash("line 4")}`,
          lines: ["x"],
        }],
      }],
    }));
    await ws.patch({
      files: [{
        path: "f.txt",
        ops: [{
          op: "replace",
          start: `4:${lineHash("LINE 4")}`,
          lines: ["x"],
        }],
      }],
    });
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      ORIGINAL.replace("line 4", "x"),
    );
  });

  it("POST /v1/files/patch: a dry run records nothing; a refusal lets the rebased resend land", async () => {
    const app = createApp({ workspace: t.open() });
    const s = { "hashline-session": "http" };
    await call(app, "POST", "/v1/files/read", { path: "f.txt" }, s);
    const before = await sessions(t);
    await writeFile(join(t.root, "f.txt"), SHIFTED);

    const dry = await call(
      app,
      "POST",
      "/v1/files/patch",
      { patch: replaceFive, dryRun: true },
      s,
    );
    assert.equal(dry.status, 409);
    assert.equal(errorOf(dry).code, "STALE_ANCHOR");
    assert.deepEqual(await sessions(t), before);

    const refused = await call(
      app,
      "POST",
      "/v1/files/patch",
      { patch: replaceFive },
      s,
    );
    assert.equal(refused.status, 409);
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), SHIFTED);

    const dryRebased = await call(
      app,
      "POST",
      "/v1/files/patch",
      { patch: replaceFive, rebase: true, dryRun: true },
      s,
    );
    assert.equal(dryRebased.status, 200);
    assert.equal(dryRebased.body.dryRun, true);
    assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), SHIFTED);

    const rebased = await call(
      app,
      "POST",
      "/v1/files/patch",
      { patch: replaceFive, rebase: true },
      s,
    );
    assert.equal(rebased.status, 200);
    assert.deepEqual(rebased.body.rebased, ["f.txt op 1: line 5 → 7"]);
    assert.equal(
      await readFile(join(t.root, "f.txt"), "utf8"),
      SHIFTED.replace("line 5\n", "FIVE\n"),
    );
  });
});
