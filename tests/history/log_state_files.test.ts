/** Opening history state: a missing log reads as none, anything but a regular file is refused, appends start on a fresh line. */
import assert from "node:assert/strict";
import { closeSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import {
  openLogFile,
  refuse,
  writeLine,
} from "../../src/history/log/_state_files.ts";
import { tempDir } from "./_log_helpers.ts";

describe("history state files", () => {
  it("a missing log reads as none; a folder in its place is HISTORY, naming it", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      assert.equal(openLogFile(file, false), null);
      mkdirSync(file);
      for (const write of [false, true]) {
        assert.throws(
          () => openLogFile(file, write),
          (e: Error & { code?: string }) =>
            e instanceof HashlineError && e.code === "HISTORY" &&
            e.message.includes(file),
        );
      }
    } finally {
      t.remove();
    }
  });

  it("an append after a torn record starts on a fresh line", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      writeFileSync(file, "12 torn");
      const opened = openLogFile(file, true)!;
      try {
        const out = writeLine(opened.fd, opened.size, "next\n", false);
        assert.deepEqual(out, { offset: 8, length: 5, written: 6 });
        const clean = writeLine(opened.fd, 13, "more\n", true);
        assert.deepEqual(clean, { offset: 13, length: 5, written: 5 });
      } finally {
        closeSync(opened.fd);
      }
      assert.equal(readFileSync(file, "utf8"), "12 torn\nnext\nmore\n");
    } finally {
      t.remove();
    }
  });

  it("a full disk keeps its own code; other failures are HISTORY naming the file", () => {
    const full = Object.assign(new Error("no space"), { code: "ENOSPC" });
    const mapped = refuse(
      full,
      "/s/history/log",
      "Cannot keep the edit history",
    );
    assert.ok(mapped instanceof HashlineError);
    assert.notEqual((mapped as HashlineError).code, "HISTORY");
    const loop = Object.assign(new Error("loop"), { code: "ELOOP" });
    const refused = refuse(
      loop,
      "/s/history/log",
      "Cannot keep the edit history",
    );
    assert.equal((refused as HashlineError).code, "HISTORY");
    assert.match((refused as Error).message, /\/s\/history\/log is a symlink/);
  });
});
