/** State files: replaced through an exclusive temporary, opened where they stand without following a symlink. */
import assert from "node:assert/strict";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openStateFile } from "../../src/fs/open_state.ts";
import { writeThroughTemp } from "../../src/fs/state_file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

function withDir(work: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "hashline-state-file-"));
  try {
    work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("writeThroughTemp", () => {
  it("replaces the file with the mode asked for and leaves no temporary", () => {
    withDir((dir) => {
      const file = join(dir, "blob");
      writeFileSync(file, "old");
      writeThroughTemp(file, bytes("new"), { flush: true, mode: 0o600 });
      assert.equal(readFileSync(file, "utf8"), "new");
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(dir), ["blob"]);
    });
  });

  it("removes its temporary when the rename fails, and leaves the name as it was", () => {
    withDir((dir) => {
      const file = join(dir, "taken");
      mkdirSync(file);
      writeFileSync(join(file, "inside"), "keep");
      assert.throws(() =>
        writeThroughTemp(file, bytes("x"), { temp: join(dir, ".taken.tmp") })
      );
      assert.deepEqual(readdirSync(dir), ["taken"]);
      assert.equal(readFileSync(join(file, "inside"), "utf8"), "keep");
    });
  });

  it("never writes through a symlink planted at the temporary's name", () => {
    withDir((dir) => {
      const outside = join(dir, "outside.txt");
      writeFileSync(outside, "keep");
      const temp = join(dir, ".blob.tmp");
      symlinkSync(outside, temp);
      assert.throws(
        () => writeThroughTemp(join(dir, "blob"), bytes("x"), { temp }),
        (e: unknown) => (e as { code?: string }).code === "EEXIST",
      );
      assert.equal(readFileSync(outside, "utf8"), "keep");
      assert.deepEqual(readdirSync(dir).sort(), [".blob.tmp", "outside.txt"]);
    });
  });
});

describe("openStateFile", () => {
  it("opens a regular file to read, or to write in place with update", () => {
    withDir((dir) => {
      const file = join(dir, "next");
      writeFileSync(file, "abc");
      const fd = openStateFile(file);
      try {
        const buf = new Uint8Array(3);
        assert.equal(readSync(fd, buf, 0, 3, 0), 3);
        assert.equal(new TextDecoder().decode(buf), "abc");
        assert.throws(() => writeSync(fd, bytes("z"), 0, 1, 0));
      } finally {
        closeSync(fd);
      }
      const rw = openStateFile(file, true);
      try {
        writeSync(rw, bytes("z"), 0, 1, 1);
      } finally {
        closeSync(rw);
      }
      assert.equal(readFileSync(file, "utf8"), "azc");
    });
  });

  it("refuses a symlink at the name with ELOOP, and a missing file with ENOENT", () => {
    withDir((dir) => {
      const outside = join(dir, "outside.txt");
      writeFileSync(outside, "keep");
      symlinkSync(outside, join(dir, "link"));
      for (const update of [false, true]) {
        assert.throws(
          () => openStateFile(join(dir, "link"), update),
          (e: unknown) => (e as { code?: string }).code === "ELOOP",
        );
        assert.throws(
          () => openStateFile(join(dir, "gone"), update),
          (e: unknown) => (e as { code?: string }).code === "ENOENT",
        );
      }
      assert.equal(readFileSync(outside, "utf8"), "keep");
      assert.deepEqual(readdirSync(dir).sort(), ["link", "outside.txt"]);
    });
  });
});
