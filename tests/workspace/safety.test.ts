import assert from "node:assert/strict";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { makeTree, snapshot, type Tree } from "./_helpers.ts";

/** `LINE:HH` of the line of a read or refusal text that shows `content`. */
function anchorOf(text: string, content: string): string {
  const row = text.split("\n").find((l) => l.endsWith(`|${content}`));
  assert.ok(row, `no row shows ${JSON.stringify(content)} in:\n${text}`);
  return row.trim().replace(/^[>\s-]*/, "").split("|")[0];
}

const numbered = (n: number, tag = "line") =>
  Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join("\n") + "\n";

describe("workspace safety rules", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  it("closes the stale → resend loop: anchors taken from the refusal alone apply", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, "one\ntwo\nthree\nfour\n");
    const ws = t.open();
    const view = await ws.read("a.txt");
    await writeFile(file, "one\nTWO\nthree\nfour\n");
    const refusal = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{
          op: "replace",
          start: anchorOf(view.text, "two"),
          lines: ["2"],
        }],
      }],
    }).then(() => null, (e) => e);
    assert.ok(refusal instanceof PatchRefusedError, String(refusal));
    assert.match(refusal.message, /^Rejected — nothing written\./);
    assert.equal(await readFile(file, "utf8"), "one\nTWO\nthree\nfour\n");
    const fresh = anchorOf(refusal.message, "TWO");
    await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: fresh, lines: ["2"] }],
      }],
    });
    assert.equal(await readFile(file, "utf8"), "one\n2\nthree\nfour\n");
  });

  it("refuses a range whose interior line changed since the read, writing nothing", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, numbered(6));
    const ws = t.open();
    const view = await ws.read("a.txt");
    await writeFile(file, numbered(6).replace("line 3\n", "theirs\n"));
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [{
            op: "delete",
            start: anchorOf(view.text, "line 2"),
            end: anchorOf(view.text, "line 5"),
          }],
        }],
      }),
      { code: "STALE_ANCHOR" },
    );
    assert.equal(
      await readFile(file, "utf8"),
      numbered(6).replace("line 3\n", "theirs\n"),
    );
  });

  it("rebases an op whose lines only moved when asked, and refuses it otherwise", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, numbered(8));
    const ws = t.open({ session: "plain" });
    const view = await ws.read("a.txt");
    const rebasing = t.open({ session: "rebasing" });
    assert.equal((await rebasing.read("a.txt")).text, view.text);
    const drifted = "new 1\nnew 2\n" + numbered(8);
    await writeFile(file, drifted);
    const patch = {
      files: [{
        path: "a.txt",
        ops: [{
          op: "replace" as const,
          start: anchorOf(view.text, "line 5"),
          lines: ["five"],
        }],
      }],
    };
    await assert.rejects(ws.patch(patch), (e: Error) => {
      assert.match(e.message, /moved to line 7/);
      return true;
    });
    assert.equal(await readFile(file, "utf8"), drifted);
    const done = await rebasing.patch(patch, { rebase: true });
    assert.deepEqual(done.rebased, ["a.txt op 1: line 5 → 7"]);
    assert.equal(
      await readFile(file, "utf8"),
      drifted.replace("line 5\n", "five\n"),
    );
  });

  it("overwrites a whole file only after the session saw every line", async () => {
    const file = join(t.root, "big.txt");
    await writeFile(file, numbered(50));
    const ws = t.open();
    await ws.read("big.txt", { limit: 10 });
    await assert.rejects(ws.write("big.txt", "replaced\n"), {
      code: "NOT_READ",
    });
    assert.equal(await readFile(file, "utf8"), numbered(50));
    await ws.read("big.txt", { offset: 11 });
    await ws.write("big.txt", "replaced\n");
    assert.equal(await readFile(file, "utf8"), "replaced\n");
  });

  it("refuses writes under .git/ and .hashline/ unless allowGit, and deny globs for reads too", async () => {
    await mkdir(join(t.root, ".git", "hooks"), { recursive: true });
    await writeFile(join(t.root, ".git", "config"), "[core]\n");
    await mkdir(join(t.root, "secrets"));
    await writeFile(join(t.root, "secrets", "key.pem"), "KEY\n");
    const ws = t.open({ deny: ["secrets/**"] });
    const before = await snapshot(t.root);
    await ws.read(".git/config");
    await assert.rejects(
      ws.patch({
        files: [{
          path: ".git/config",
          ops: [{ op: "append", lines: ["\tfsmonitor = echo pwned"] }],
        }],
      }),
      { code: "DENIED" },
    );
    await assert.rejects(
      ws.write(".git/hooks/pre-commit", "#!/bin/sh\necho pwned\n"),
      { code: "DENIED" },
    );
    await assert.rejects(ws.read("secrets/key.pem"), { code: "DENIED" });
    await assert.rejects(ws.write("secrets/new.txt", "x\n"), {
      code: "DENIED",
    });
    await assert.rejects(ws.write("a.txt.hashline-lock", "x\n"), {
      code: "DENIED",
    });
    assert.deepEqual(await snapshot(t.root), before);
    const git = t.open({ allowGit: true });
    await git.read(".git/config");
    await git.patch({
      files: [{
        path: ".git/config",
        ops: [{ op: "append", lines: ["\tbare = false"] }],
      }],
    });
    assert.equal(
      await readFile(join(t.root, ".git", "config"), "utf8"),
      "[core]\n\tbare = false\n",
    );
  });

  it("refuses a read-only file and a trailing slash, each with its own code", async () => {
    const file = join(t.root, "ro.txt");
    await writeFile(file, "keep\n");
    await chmod(file, 0o444);
    const ws = t.open();
    const view = await ws.read("ro.txt");
    await assert.rejects(
      ws.patch({
        files: [{
          path: "ro.txt",
          ops: [{
            op: "replace",
            start: anchorOf(view.text, "keep"),
            lines: ["x"],
          }],
        }],
      }),
      { code: "PERMISSION" },
    );
    await assert.rejects(ws.write("ro.txt", "x\n"), { code: "PERMISSION" });
    await assert.rejects(ws.read("ro.txt/"), { code: "NOT_A_FILE" });
    await assert.rejects(ws.write("new.txt/", "x\n"), { code: "NOT_A_FILE" });
    assert.equal(await readFile(file, "utf8"), "keep\n");
  });

  it("keeps the file's mode on patch and refuses new lines that no read could show", async () => {
    const file = join(t.root, "run.sh");
    await writeFile(file, "#!/bin/sh\necho hi\n");
    await chmod(file, 0o750);
    const ws = t.open();
    const view = await ws.read("run.sh");
    const start = anchorOf(view.text, "echo hi");
    for (const bad of ["a\0b", "lone \ud800", "two\nlines"]) {
      await assert.rejects(
        ws.patch({
          files: [{
            path: "run.sh",
            ops: [{ op: "replace", start, lines: [bad] }],
          }],
        }),
        { code: "BAD_LINE" },
      );
    }
    await assert.rejects(ws.write("other.txt", "a\0b"), TypeError);
    assert.equal(await readFile(file, "utf8"), "#!/bin/sh\necho hi\n");
    await ws.patch({
      files: [{
        path: "run.sh",
        ops: [{ op: "replace", start, lines: ["echo bye"] }],
      }],
    });
    const { stat } = await import("node:fs/promises");
    assert.equal((await stat(file)).mode & 0o777, 0o750);
  });

  it("reports a committed patch as committed when its read record cannot be saved", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, "a\n");
    const ws = t.open({ session: "s1" });
    await ws.read("a.txt");
    // The session's record folder becomes a file: every later save fails.
    const { rm } = await import("node:fs/promises");
    await rm(join(t.state, "sessions", "s1"), { recursive: true });
    await writeFile(join(t.state, "sessions", "s1"), "not a folder");
    const done = await ws.patch({
      files: [{ path: "a.txt", ops: [{ op: "append", lines: ["b"] }] }],
    });
    assert.equal(await readFile(file, "utf8"), "a\nb\n");
    assert.equal(done.warnings.length, 1);
    assert.match(done.warnings[0], /could not be saved/);
    assert.match(done.summary, /Warning: The edit was written/);
  });

  it("keeps a capped number of files per session and says to read again", async () => {
    for (const n of ["a", "b", "c"]) {
      await writeFile(join(t.root, `${n}.txt`), `${n}\n`);
    }
    const ws = t.open({ maxSessionFiles: 2 });
    for (const n of ["a", "b", "c"]) await ws.read(`${n}.txt`);
    await assert.rejects(
      ws.patch({
        files: [{ path: "a.txt", ops: [{ op: "append", lines: ["x"] }] }],
      }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, "NOT_READ");
        assert.match(e.message, /read it first/);
        return true;
      },
    );
    await ws.patch({
      files: [{ path: "c.txt", ops: [{ op: "append", lines: ["x"] }] }],
    });
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "a\n");
  });

  it("shares a session's records across workspace objects through the state folder, and forgets them on request", async () => {
    await writeFile(join(t.root, "a.txt"), "a\n");
    await t.open({ session: "cli" }).read("a.txt");
    const second = t.open({ session: "cli" });
    await second.patch({
      files: [{ path: "a.txt", ops: [{ op: "append", lines: ["b"] }] }],
    });
    await second.forgetSession("cli");
    await assert.rejects(
      t.open({ session: "cli" }).patch({
        files: [{ path: "a.txt", ops: [{ op: "append", lines: ["c"] }] }],
      }),
      { code: "NOT_READ" },
    );
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "a\nb\n");
  });

  it("creates a file exclusively: never over an existing one", async () => {
    await writeFile(join(t.root, "taken.txt"), "mine\n");
    const ws = t.open();
    await assert.rejects(ws.create("taken.txt", "theirs\n"), {
      code: "EXISTS",
    });
    assert.equal(await readFile(join(t.root, "taken.txt"), "utf8"), "mine\n");
    await ws.create("sub/new.txt", "fresh\n");
    assert.equal(
      await readFile(join(t.root, "sub", "new.txt"), "utf8"),
      "fresh\n",
    );
    assert.deepEqual(await ws.stat("sub/new.txt"), {
      path: "sub/new.txt",
      exists: true,
      size: 6,
    });
  });

  it("refuses, once, an anchor that fits both a line and the line this session's last edit replaced there", async () => {
    // "value 78.2" and "value 79.3" share their 2-hex anchor.
    const file = join(t.root, "c.txt");
    await writeFile(file, "head\nvalue 78.2\ntail\n");
    const ws = t.open();
    const view = await ws.read("c.txt");
    const start = anchorOf(view.text, "value 78.2");
    await ws.patch({
      files: [{
        path: "c.txt",
        ops: [{ op: "replace", start, lines: ["value 79.3"] }],
      }],
    });
    // The same anchor now fits the new line: it may come from the old read.
    const refusal = await ws.patch({
      files: [{
        path: "c.txt",
        ops: [{ op: "replace", start, lines: ["stale"] }],
      }],
    }).then(() => null, (e) => e);
    assert.ok(refusal instanceof PatchRefusedError, String(refusal));
    assert.match(refusal.message, /ambiguous/);
    assert.equal(await readFile(file, "utf8"), "head\nvalue 79.3\ntail\n");
    // A resend from the refusal's fresh anchors applies.
    await ws.patch({
      files: [{
        path: "c.txt",
        ops: [{
          op: "replace",
          start: anchorOf(refusal.message, "value 79.3"),
          lines: ["value 80"],
        }],
      }],
    });
    assert.equal(await readFile(file, "utf8"), "head\nvalue 80\ntail\n");
  });
});
