/** The log's counts: taken from a checkpoint and the records past it, or from the whole log. */
import assert from "node:assert/strict";
import {
  appendFileSync,
  closeSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { frameRecord, voidLine } from "../../src/history/log/_frames.ts";
import {
  CounterFile,
  countsOf,
  KnownCounts,
  type LogState,
  SAVE_EVERY,
  tally,
} from "../../src/history/log/_counts.ts";
import { recordOf, tempDir } from "./_log_helpers.ts";

const encode = (s: string) => new TextEncoder().encode(s);

describe("history log counts", () => {
  it("tally counts whole records, moves next past every id, voided ones too", () => {
    const s: LogState = { next: 1, count: 0, bytes: 0, ino: 1, size: 0 };
    const nine = frameRecord(recordOf("h_9"));
    const voided = voidLine("h_9", encode(nine).length)!;
    const text = frameRecord(recordOf("h_4")) +
      new TextDecoder().decode(voided) +
      nine.replace("edit", "EDIT") + // checksum no longer matches: no record
      frameRecord(recordOf("h_2")) + frameRecord(recordOf("h_6")).slice(0, 9);
    tally(encode(text), s);
    assert.deepEqual([s.next, s.count], [10, 2]);
  });

  it("countsOf advances from a base that describes the log, else recounts it", () => {
    const t = tempDir();
    try {
      const file = join(t.dir, "log");
      writeFileSync(file, frameRecord(recordOf("h_1")));
      const base = statSync(file);
      appendFileSync(file, frameRecord(recordOf("h_2")));
      const st = statSync(file);
      const fd = openSync(file, "r");
      try {
        const from = {
          next: 2,
          count: 1,
          bytes: base.size,
          ino: st.ino,
          size: base.size,
        };
        const advanced = countsOf(fd, st, [from], () => 1000);
        assert.equal(advanced.recounted, false);
        assert.deepEqual(advanced.state, {
          next: 3,
          count: 2,
          bytes: st.size,
          ino: st.ino,
          size: st.size,
        });
        // A base of another inode, or past the log's size, is no base.
        for (
          const other of [{ ...from, ino: st.ino + 1 }, {
            ...from,
            size: st.size + 1,
          }]
        ) {
          const again = countsOf(fd, st, [null, other], () => 1000);
          assert.equal(again.recounted, true);
          assert.deepEqual(again.state, {
            next: 3,
            count: 2,
            bytes: st.size + 1000,
            ino: st.ino,
            size: st.size,
          });
        }
      } finally {
        closeSync(fd);
      }
    } finally {
      t.remove();
    }
  });

  it("the counter file reads back what was written, and null when damaged", () => {
    const t = tempDir();
    try {
      const path = join(t.dir, "next");
      const c = new CounterFile(path);
      assert.equal(c.read(), null);
      c.write({ next: 7, count: 3, bytes: 99, ino: 5, size: 80 });
      assert.deepEqual(c.read(), {
        next: 7,
        count: 3,
        bytes: 99,
        ino: 5,
        size: 80,
      });
      writeFileSync(path, '{"next":"seven"}');
      assert.equal(new CounterFile(path).read(), null);
    } finally {
      t.remove();
    }
  });

  it("known counts write the counter file when an id is taken and every SAVE_EVERY appends", () => {
    const t = tempDir();
    try {
      const path = join(t.dir, "next");
      const counts = new KnownCounts(path);
      const s: LogState = { next: 4, count: 0, bytes: 0, ino: 1, size: 0 };
      counts.taken(s);
      assert.equal(JSON.parse(readFileSync(path, "utf8")).next, 4);
      let pruned = 0;
      for (let i = 0; i < SAVE_EVERY; i++) {
        counts.appended(s, 10, (x) => x.count > 1000, (x) => {
          pruned++;
          return x;
        });
      }
      assert.equal(pruned, 0);
      assert.equal(JSON.parse(readFileSync(path, "utf8")).count, SAVE_EVERY);
      counts.appended(s, 10, () => true, (x) => ({ ...x, count: 1 }));
      assert.equal(JSON.parse(readFileSync(path, "utf8")).count, 1);
    } finally {
      t.remove();
    }
  });
});
