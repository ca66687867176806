/** Finding records in the log by offset: from the end back, by binary search, voided in place. */
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { frameRecord, parseLog } from "../../src/history/log/_frames.ts";
import {
  CHUNK,
  lineAt,
  locateIn,
  scanBack,
} from "../../src/history/log/_offsets.ts";
import { voidRecordAt } from "../../src/history/log/_void.ts";
import { recordOf, tempDir } from "./_log_helpers.ts";

/** A log of `n` records `h_1`…`h_n`, padded so it spans several chunks. */
function writeLog(file: string, n: number, pad = 0): number[] {
  const offsets: number[] = [];
  const lines: string[] = [];
  let at = 0;
  for (let i = 1; i <= n; i++) {
    offsets.push(at);
    const line = frameRecord(
      recordOf(`h_${i}`, `edit ${i} ${"x".repeat(pad)}`),
    );
    lines.push(line);
    at += new TextEncoder().encode(line).length;
  }
  writeFileSync(file, lines.join(""));
  return offsets;
}

describe("history log offsets", () => {
  it("scanBack visits the newest first, skips a torn last line, and stops when told", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 5);
      writeFileSync(file, readFileSync(file, "utf8") + '40 0badf00d {"id":');
      const fd = openSync(file, "r");
      const stats = { bytesRead: 0, parsed: 0 };
      const seen: [string, number][] = [];
      try {
        scanBack(fd, stats, (v, offset) => {
          seen.push([(v as { id: string }).id, offset]);
          return seen.length < 3;
        });
      } finally {
        closeSync(fd);
      }
      assert.deepEqual(seen, [["h_5", offsets[4]], ["h_4", offsets[3]], [
        "h_3",
        offsets[2],
      ]]);
      assert.ok(stats.parsed >= 3);
    } finally {
      t.remove();
    }
  });

  it(
    "locateIn finds a record in a log of many chunks parsing a small part of it",
    {
      timeout: 30_000,
    },
    () => {
      const t = tempDir();
      try {
        const file = join(t.dir, "log");
        const offsets = writeLog(file, 3000, 200);
        const size = readFileSync(file).length;
        assert.ok(size > 8 * CHUNK, String(size));
        const fd = openSync(file, "r");
        try {
          for (const n of [1, 1234, 3000]) {
            const stats = { bytesRead: 0, parsed: 0 };
            const found = locateIn(fd, `h_${n}`, stats);
            assert.equal(found?.offset, offsets[n - 1]);
            assert.equal((found?.value as { id: string }).id, `h_${n}`);
            // The search parses a few chunks' lines, never the whole log.
            assert.ok(stats.parsed < 1000, `${stats.parsed} lines of 3000`);
          }
          const stats = { bytesRead: 0, parsed: 0 };
          assert.equal(locateIn(fd, "h_3001", stats), undefined);
          assert.equal(locateIn(fd, "nope", stats), undefined);
          assert.deepEqual(
            lineAt(fd, offsets[9], size, stats)?.next,
            offsets[10],
          );
        } finally {
          closeSync(fd);
        }
      } finally {
        t.remove();
      }
    },
  );

  it("voidRecordAt voids only the record it names, in place, keeping the log's size", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const offsets = writeLog(file, 4);
      const size = readFileSync(file).length;
      const fd = openSync(file, "r+");
      const stats = { bytesRead: 0, parsed: 0 };
      try {
        assert.equal(voidRecordAt(fd, offsets[1], "h_3", stats), false);
        assert.equal(voidRecordAt(fd, offsets[1], "h_2", stats), true);
        assert.equal(voidRecordAt(fd, offsets[1], "h_2", stats), false);
        assert.equal(locateIn(fd, "h_2", stats), undefined);
      } finally {
        closeSync(fd);
      }
      const text = readFileSync(file, "utf8");
      assert.equal(new TextEncoder().encode(text).length, size);
      assert.deepEqual(parseLog(text).map((r) => r.id), ["h_1", "h_3", "h_4"]);
    } finally {
      t.remove();
    }
  });
});
