/** Retention: the newest entries within count and bytes, the newest always, past-retention reads. */
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { Blobs } from "../../src/history/blobs.ts";
import { frameRecord, parseLog } from "../../src/history/log/_frames.ts";
import {
  overLimits,
  pastRetention,
  prune,
} from "../../src/history/log/_retention.ts";
import { recordOf, tempDir } from "./_log_helpers.ts";

const records = (n: number) =>
  Array.from({ length: n }, (_, i) => recordOf(`h_${i + 1}`));

describe("history log retention", () => {
  it("is over its limits past a tenth more entries, or past its bytes", () => {
    const limits = { limit: 100, maxBytes: 1000, blobGraceMs: 0 };
    assert.equal(overLimits({ count: 110, bytes: 1000 }, limits), false);
    assert.equal(overLimits({ count: 111, bytes: 0 }, limits), true);
    assert.equal(overLimits({ count: 1, bytes: 1001 }, limits), true);
  });

  it("prune keeps the newest entries that fit, oldest out first, the newest always", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const all = records(20);
      writeFileSync(file, all.map(frameRecord).join(""));
      const blobs = new Blobs(t.dir);
      const byCount = prune(file, all, blobs, {
        limit: 5,
        maxBytes: 1 << 30,
        blobGraceMs: 0,
      });
      assert.equal(byCount.count, 5);
      assert.deepEqual(
        parseLog(readFileSync(file, "utf8")).map((r) => r.id),
        ["h_16", "h_17", "h_18", "h_19", "h_20"],
      );
      const one = new TextEncoder().encode(frameRecord(all[19])).length;
      const byBytes = prune(file, all, blobs, {
        limit: 100,
        maxBytes: 1,
        blobGraceMs: 0,
      });
      assert.deepEqual(byBytes, { count: 1, bytes: one });
      assert.deepEqual(
        parseLog(readFileSync(file, "utf8")).map((r) => r.id),
        ["h_20"],
      );
    } finally {
      t.remove();
    }
  });

  it("an entry with `limit` entries after it is past retention", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      const lines = records(200).map(frameRecord);
      writeFileSync(file, lines.join(""));
      const offsetOf = (n: number) =>
        new TextEncoder().encode(lines.slice(0, n - 1).join("")).length;
      const fd = openSync(file, "r");
      const stats = { bytesRead: 0, parsed: 0 };
      try {
        assert.equal(
          pastRetention(fd, "h_100", offsetOf(100), 100, stats),
          true,
        );
        assert.equal(
          pastRetention(fd, "h_101", offsetOf(101), 100, stats),
          false,
        );
        assert.equal(
          pastRetention(fd, "h_190", offsetOf(190), 100, stats),
          false,
        );
      } finally {
        closeSync(fd);
      }
    } finally {
      t.remove();
    }
  });
});
