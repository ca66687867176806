/**
 * Operating-system failures come back typed at every door (library, HTTP,
 * command line): a full disk is `NO_SPACE` (507) and a read-only mount
 * `PERMISSION` (403), wherever the failure happens (lock, temporary file,
 * journal, read record). Files stay as they were, nothing is left behind
 * that a later call trips over, no message names a descriptor path, a
 * read still answers (with a warning) when its record cannot be saved, and
 * the next patch after space is freed applies.
 *
 * Needs root (to mount a 2 MiB tmpfs and a read-only bind mount); skipped
 * with a message elsewhere.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  open,
  readFile,
  realpath,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { main } from "../../src/cli/main.ts";
import { createApp } from "../../src/http/app.ts";
import { openWorkspace } from "../../src/workspace/mod.ts";
import type { Patch } from "../../src/patch/types.ts";
import { call } from "../http/_helpers.ts";
import { leftovers, snapshot } from "../workspace/_helpers.ts";
import { bootId, pidNamespace } from "../../src/_runtime/host.ts";
import { deadPid } from "./_util.ts";
import { handlesClosed } from "../_handles.ts";

function run(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args);
  if (r.error) return r.error.message;
  return r.status === 0 ? null : String(r.stderr).trim() || `exit ${r.status}`;
}

/** Why mounting cannot be tested here, or null when it can. */
function mountsRefused(): string | null {
  const probe = join(tmpdir(), `hashline-mount-probe-${Date.now()}`);
  spawnSync("mkdir", ["-p", probe]);
  const why = run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]);
  if (why === null) run("umount", [probe]);
  spawnSync("rmdir", [probe]);
  return why === null
    ? null
    : `mounting is not permitted here (needs root): ${why}`;
}

const skip = mountsRefused();
if (skip) console.log(`os_failures: skipped, ${skip}`);

const NO_FD = /\/proc\/self\/fd/;

async function cli(
  root: string,
  state: string,
  args: string[],
  stdin = "",
): Promise<{ code: number; text: string }> {
  let text = "";
  const code = await main(["--json", "--root", root, ...args], {
    cwd: root,
    env: (name) => (name === "HASHLINE_STORE" ? state : undefined),
    stdin: () => Promise.resolve(new TextEncoder().encode(stdin)),
    stdout: (s) => Promise.resolve(void (text += s)),
    stderr: (s) => Promise.resolve(void (text += s)),
  });
  return { code, text };
}

/** Fills the file system holding `dir` to the last page. */
async function fill(dir: string): Promise<void> {
  const h = await open(join(dir, "filler"), "w");
  const chunk = new Uint8Array(64 * 1024).fill(120);
  try {
    for (;;) await h.write(chunk);
  } catch (error) {
    assert.equal((error as { code?: string }).code, "ENOSPC");
  } finally {
    await h.close();
  }
  for (let i = 0;; i++) {
    try {
      await writeFile(join(dir, `filler-${i}`), "x");
    } catch {
      break;
    }
  }
}

function anchorOf(text: string, line: number): string {
  const row = text.split("\n")[line - 1];
  return row.slice(0, row.indexOf("|"));
}

describe("a full disk", { skip: skip ?? false }, () => {
  let base: string;
  let mnt: string;
  let root: string;
  let state: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "hashline-full-")));
    mnt = join(base, "mnt");
    await mkdir(mnt);
    const why = run("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt]);
    assert.equal(why, null, `mount: ${why}`);
    root = join(mnt, "root");
    state = join(mnt, "state");
    await mkdir(root);
    await writeFile(join(root, "a.txt"), "one\ntwo\n");
  });
  after(async () => {
    // A replaced file and a released lock close after the answer; the
    // mount is busy until they have.
    await handlesClosed(mnt);
    run("umount", [mnt]);
    await rm(base, { recursive: true, force: true });
  });

  it("answers NO_SPACE at every door, changes nothing, and applies the next patch once space is freed", async () => {
    const ws = openWorkspace(root, { stateDir: state, session: "s" });
    const first = await ws.read("a.txt");
    const cliRead = await cli(root, state, ["--session", "c", "read", "a.txt"]);
    assert.equal(cliRead.code, 0, cliRead.text);
    const app = createApp({ root, stateDir: state });
    // A lock left by a dead writer: taking it over needs a breaker file,
    // which a full disk must not leave behind half-made.
    const dead = await deadPid();
    await writeFile(
      join(root, ".a.txt.hashline-lock"),
      `${dead} gone ${bootId()} ${pidNamespace()}\n`,
    );
    await fill(mnt);
    const before = await snapshot(root);

    // A read whose record cannot be saved still answers, with a warning.
    const fresh = openWorkspace(root, { stateDir: state, session: "late" });
    const view = await fresh.read("a.txt");
    assert.equal(view.text, first.text);
    assert.equal(view.warnings?.length, 1, JSON.stringify(view));
    assert.match(view.warnings![0], /record could not be saved.*full/);
    assert.doesNotMatch(view.warnings![0], NO_FD);
    const stateBefore = await snapshot(state);

    const patch: Patch = {
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: anchorOf(first.text, 2), lines: ["2"] }],
      }],
    };
    const library = [
      () => ws.patch(patch),
      () => ws.write("a.txt", "whole\n"),
      () => ws.create("new.txt", "new\n"),
      () =>
        ws.patch({
          files: [
            patch.files[0],
            { path: "b/new.txt", ops: [{ op: "append", lines: ["x"] }] },
          ],
        }),
    ];
    for (const op of library) {
      await assert.rejects(op(), (e: { code?: string; message: string }) => {
        assert.equal(e.code, "NO_SPACE", e.message);
        assert.doesNotMatch(e.message, NO_FD);
        return true;
      });
      assert.deepEqual(await snapshot(root), before);
      // No journal, temporary or empty lock left in the state folder either.
      assert.deepEqual(await snapshot(state), stateBefore);
    }

    const read = await call(app, "POST", "/v1/files/read", { path: "a.txt" }, {
      "hashline-session": "h",
    });
    assert.equal(read.status, 200);
    assert.match(read.body.warnings[0], /record could not be saved/);
    const patched = await call(app, "POST", "/v1/files/patch", { patch }, {
      "hashline-session": "h",
    });
    assert.equal(patched.status, 507, JSON.stringify(patched.body));
    assert.equal(patched.body.error.code, "NO_SPACE");
    assert.doesNotMatch(patched.body.error.message, NO_FD);
    assert.deepEqual(await snapshot(root), before);

    const cliLate = await cli(root, state, ["--session", "z", "read", "a.txt"]);
    assert.equal(cliLate.code, 0, cliLate.text);
    assert.match(
      JSON.parse(cliLate.text).warnings[0],
      /record could not be saved/,
    );
    const text = `@@ a.txt\n= ${anchorOf(first.text, 2)}\n~2\n`;
    const byCli = await cli(
      root,
      state,
      ["--session", "c", "patch", "-"],
      text,
    );
    assert.notEqual(byCli.code, 0);
    assert.match(byCli.text, /NO_SPACE/);
    assert.doesNotMatch(byCli.text, NO_FD);
    assert.deepEqual(await snapshot(root), before);

    await rm(join(mnt, "filler"));
    const done = await ws.patch(patch);
    assert.match(done.summary, /^Edited a\.txt \(\+1 -1\)/);
    assert.equal(await readFile(join(root, "a.txt"), "utf8"), "one\n2\n");
    assert.deepEqual(await leftovers(root), []);
  });
});

describe("a read-only mount", { skip: skip ?? false }, () => {
  let base: string;
  let src: string;
  let ro: string;
  before(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), "hashline-ro-")));
    src = join(base, "src");
    ro = join(base, "ro");
    await mkdir(join(src, "root"), { recursive: true });
    await mkdir(join(src, "state"));
    await mkdir(ro);
    await writeFile(join(src, "root", "a.txt"), "one\ntwo\n");
    for (
      const args of [["--bind", src, ro], ["-o", "remount,bind,ro", ro]]
    ) {
      const why = run("mount", args);
      assert.equal(why, null, `mount ${args.join(" ")}: ${why}`);
    }
  });
  after(async () => {
    run("umount", [ro]);
    await rm(base, { recursive: true, force: true });
  });

  it("answers PERMISSION at every door and changes nothing", async () => {
    const root = join(ro, "root");
    const state = join(ro, "state");
    const before = await snapshot(src);
    const ws = openWorkspace(root, { stateDir: state, session: "s" });
    const view = await ws.read("a.txt");
    // (Node's recursive mkdir says ENOENT where the others say EROFS.)
    assert.match(view.warnings?.[0] ?? "", /record could not be saved/);
    assert.doesNotMatch(view.warnings![0], NO_FD);
    const patch: Patch = {
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: anchorOf(view.text, 2), lines: ["2"] }],
      }],
    };
    const library = [
      () => ws.patch(patch),
      () => ws.write("a.txt", "whole\n"),
      () => ws.create("new.txt", "new\n"),
      () =>
        ws.patch({
          files: [{ path: "b/c.txt", ops: [{ op: "append", lines: ["x"] }] }],
        }),
    ];
    for (const op of library) {
      await assert.rejects(op(), (e: { code?: string; message: string }) => {
        assert.equal(e.code, "PERMISSION", e.message);
        assert.doesNotMatch(e.message, NO_FD);
        return true;
      });
    }

    const app = createApp({ root, stateDir: state });
    const as = { "hashline-session": "h" };
    const read = await call(app, "POST", "/v1/files/read", {
      path: "a.txt",
    }, as);
    assert.equal(read.status, 200);
    assert.match(read.body.warnings[0], /record could not be saved/);
    const patched = await call(app, "POST", "/v1/files/patch", { patch }, as);
    assert.equal(patched.status, 403, JSON.stringify(patched.body));
    assert.equal(patched.body.error.code, "PERMISSION");
    assert.doesNotMatch(patched.body.error.message, NO_FD);

    const created = await cli(
      root,
      state,
      ["patch", "-"],
      "@@ new.txt\n+\n~x\n",
    );
    assert.notEqual(created.code, 0);
    assert.match(created.text, /PERMISSION/);
    assert.doesNotMatch(created.text, NO_FD);
    assert.deepEqual(await snapshot(src), before);
  });
});
