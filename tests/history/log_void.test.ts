/** Voiding a record in place: at its offset, found again by id, never through a second name. */
import assert from "node:assert/strict";
import {
  existsSync,
  linkSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { frameRecord, parseLog } from "../../src/history/log/_frames.ts";
import { voidInLog } from "../../src/history/log/_void.ts";
import { recordOf, tempDir } from "./_log_helpers.ts";

/** A log of `h_1`…`h_n` at `file`, with each line's offset. */
function writeLog(file: string, n: number): number[] {
  const offsets: number[] = [];
  let text = "";
  for (let i = 1; i <= n; i++) {
    offsets.push(new TextEncoder().encode(text).length);
    text += frameRecord(recordOf(`h_${i}`));
  }
  writeFileSync(file, text);
  return offsets;
}

const ids = (file: string) =>
  parseLog(readFileSync(file, "utf8")).map((r) => r.id);

describe("history log void", () => {
  it("voids the record at its offset in the same log, keeping every byte offset", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 4);
      const before = readFileSync(file);
      const stats = { bytesRead: 0, parsed: 0 };
      const at = { id: "h_3", offset: offsets[2], length: 0 };
      const ino = statSync(file).ino;
      assert.equal(voidInLog(file, { ...at, ino }, stats), true);
      const after = readFileSync(file);
      assert.equal(after.length, before.length);
      assert.deepEqual(ids(file), ["h_1", "h_2", "h_4"]);
      // Every other line is byte for byte as it was.
      assert.deepEqual(
        after.subarray(0, offsets[2]),
        before.subarray(0, offsets[2]),
      );
      assert.deepEqual(after.subarray(offsets[3]), before.subarray(offsets[3]));
      assert.equal(voidInLog(file, { ...at, ino }, stats), false);
    } finally {
      t.remove();
    }
  });

  it("finds the record by id when the inode differs or the offset is unknown", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 5);
      const stats = { bytesRead: 0, parsed: 0 };
      // Another inode: the offset (h_1's line) is not trusted.
      assert.equal(
        voidInLog(
          file,
          { id: "h_4", offset: offsets[0], length: 0, ino: -7 },
          stats,
        ),
        true,
      );
      assert.equal(
        voidInLog(file, { id: "h_2", offset: -1, length: 0, ino: -1 }, stats),
        true,
      );
      assert.deepEqual(ids(file), ["h_1", "h_3", "h_5"]);
      assert.ok(stats.parsed > 0);
      assert.equal(
        voidInLog(file, { id: "h_9", offset: -1, length: 0, ino: -1 }, stats),
        false,
      );
    } finally {
      t.remove();
    }
  });

  it("leaves another record alone when the offset of the same log names it", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 3);
      const before = readFileSync(file);
      const ino = statSync(file).ino;
      const at = { id: "h_3", offset: offsets[1], length: 0, ino };
      assert.equal(voidInLog(file, at, { bytesRead: 0, parsed: 0 }), false);
      assert.deepEqual(readFileSync(file), before);
    } finally {
      t.remove();
    }
  });

  it("writes nothing through a log with a second name, and opens no missing log", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 2);
      const before = readFileSync(file);
      linkSync(file, join(t.dir, "outside"));
      const at = { id: "h_1", offset: offsets[0], length: 0, ino: -1 };
      const stats = { bytesRead: 0, parsed: 0 };
      assert.equal(voidInLog(file, at, stats), false);
      assert.deepEqual(readFileSync(file), before);
      assert.deepEqual(readFileSync(join(t.dir, "outside")), before);
      const missing = join(t.dir, "gone");
      assert.throws(
        () => voidInLog(missing, at, stats),
        (e: unknown) => (e as { code?: string }).code === "ENOENT",
      );
      assert.equal(existsSync(missing), false);
    } finally {
      t.remove();
    }
  });
});
