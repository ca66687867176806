import assert from "node:assert/strict";
import * as nodeFs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { execFileSync } from "node:child_process";
import { fstatSync, lstatSync, statSync } from "../../src/_runtime/fs.ts";

/** The fields and type tests of a status that the toolkit reads. */
function view(s: nodeFs.Stats) {
  return {
    dev: s.dev,
    ino: s.ino,
    mode: s.mode,
    nlink: s.nlink,
    uid: s.uid,
    gid: s.gid,
    size: s.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    mtime: s.mtime.getTime(),
    isFile: s.isFile(),
    isDirectory: s.isDirectory(),
    isSymbolicLink: s.isSymbolicLink(),
    isFIFO: s.isFIFO(),
    isSocket: s.isSocket(),
    isCharacterDevice: s.isCharacterDevice(),
    isBlockDevice: s.isBlockDevice(),
  };
}

function errorOf(call: () => unknown): { code?: string; name: string } {
  try {
    call();
  } catch (error) {
    const e = error as { code?: string; name: string };
    return { code: e.code, name: e.name };
  }
  assert.fail("expected the call to throw");
}

describe("status calls of the runtime layer", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hashline-stat-"));
    nodeFs.writeFileSync(join(dir, "a.txt"), "hello\n");
    nodeFs.mkdirSync(join(dir, "sub"));
    nodeFs.symlinkSync("a.txt", join(dir, "link"));
    execFileSync("mkfifo", [join(dir, "pipe")]);
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("give what node:fs gives for a file, a folder, a symlink and a FIFO", () => {
    for (const name of ["a.txt", "sub", "link", "pipe"]) {
      const path = join(dir, name);
      assert.deepEqual(view(lstatSync(path)), view(nodeFs.lstatSync(path)));
      assert.deepEqual(view(statSync(path)), view(nodeFs.statSync(path)));
    }
    assert.equal(lstatSync(join(dir, "link")).isSymbolicLink(), true);
    assert.equal(statSync(join(dir, "link")).isFile(), true);
    assert.equal(lstatSync(join(dir, "pipe")).isFIFO(), true);
  });

  it("give an open file's own status, even once its name is gone", () => {
    const path = join(dir, "gone.txt");
    nodeFs.writeFileSync(path, "soon removed\n");
    const fd = nodeFs.openSync(path, "r");
    try {
      const before = view(nodeFs.fstatSync(fd));
      assert.deepEqual(view(fstatSync(fd)), before);
      nodeFs.unlinkSync(path);
      const now = fstatSync(fd);
      assert.equal(now.ino, before.ino);
      assert.equal(now.size, "soon removed\n".length);
      assert.equal(now.nlink, 0);
    } finally {
      nodeFs.closeSync(fd);
    }
  });

  it("fail as node:fs fails: same code, and no entry when asked for none", () => {
    const missing = join(dir, "missing");
    assert.deepEqual(
      errorOf(() => lstatSync(missing)),
      errorOf(() => nodeFs.lstatSync(missing)),
    );
    assert.equal(
      errorOf(() => statSync(join(dir, "a.txt", "x"))).code,
      "ENOTDIR",
    );
    assert.equal(lstatSync(missing, { throwIfNoEntry: false }), undefined);
    assert.equal(statSync(missing, { throwIfNoEntry: false }), undefined);
    // Only a missing entry is answered without an error.
    assert.equal(
      errorOf(() =>
        lstatSync(join(dir, "a.txt", "x"), { throwIfNoEntry: false })
      ).code,
      "ENOTDIR",
    );
    assert.equal(errorOf(() => fstatSync(987_654)).code, "EBADF");
  });

  it("leave a bigint status to node:fs", () => {
    const s = lstatSync(join(dir, "a.txt"), { bigint: true });
    assert.equal(typeof s.ino, "bigint");
  });
});
