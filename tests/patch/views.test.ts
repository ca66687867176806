import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineHash, lineHash32 } from "../../src/hash/fnv.ts";
import { LineMemory } from "../../src/patch/memory.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { resolveThroughViews } from "../../src/patch/resolve_views.ts";
import { FileViews, MAX_VIEWS } from "../../src/patch/views.ts";
import { decodeRecord, encodeRecord } from "../../src/records/record_file.ts";

const h = (lines: string[]) => lines.map(lineHash32);

describe("patch/views", () => {
  it("translates a view's numbers through the session's own commits, and knows the lines they replaced", () => {
    const v = new FileViews();
    v.add(true, [{ start: 1, hashes: h(["a", "b", "c", "d", "e"]) }]);
    v.commit([{ at: 2, deleteCount: 1, lines: ["B1", "B2"] }], "h_4");
    v.commit([{ at: 1, deleteCount: 0, lines: ["top"] }], "h_5");
    const read = v.views[0];
    const cases: [number, unknown][] = [
      [1, { line: 2 }],
      [3, { line: 5 }],
      [5, { line: 7 }],
    ];
    for (const [n, want] of cases) assert.deepEqual(v.translate(read, n), want);
    const gone = v.translate(read, 2);
    assert.ok("gone" in gone && gone.gone.entry === "h_4");
  });

  it("keeps at most 64 views and no repeat of what a read since the last commit showed", () => {
    const v = new FileViews();
    v.add(true, [{ start: 1, hashes: h(["a", "b"]) }]);
    v.add(true, [{ start: 2, hashes: h(["b"]) }]);
    assert.equal(v.views.length, 1);
    for (let k = 0; k < MAX_VIEWS + 5; k++) {
      v.add(true, [{ start: 10 + k, hashes: [k] }]);
    }
    assert.equal(v.views.length, MAX_VIEWS);
    assert.equal(v.dropped, true);
  });

  it("resolves L:HH and bare numbers, refuses two candidates that stand apart", () => {
    const lines = ["a", "b", "c", "d"];
    const v = new FileViews();
    v.add(true, [{ start: 1, hashes: h(lines) }]);
    v.commit([{ at: 2, deleteCount: 0, lines: ["x"] }]);
    v.add(false, [{ start: 1, hashes: h(["a", "x", "b"]) }]);
    const now = lookupFromLines(["a", "x", "b", "c", "d"]);
    const file = () => ({ views: v, now });
    // "c" as read is line 4 now.
    const ok = resolveThroughViews(
      [{ op: "delete", start: `3:${lineHash("c")}` }],
      file,
      "f",
    );
    assert.deepEqual(ok.ops, [{ op: "delete", start: `4:${lineHash("c")}` }]);
    assert.deepEqual(ok.moved.get(4), { from: 3, to: 4 });
    // Bare 2: "b" as read (line 3 now) or "x" as the result showed (line 2).
    const two = resolveThroughViews([{ op: "delete", start: "2" }], file, "f");
    assert.equal(two.ops.length, 0);
    assert.equal(two.problems[0].code, "STALE_ANCHOR");
    assert.match(two.problems[0].message, /ambiguous/);
    // Bare 4 was shown by the read alone: line 5 now.
    const four = resolveThroughViews([{ op: "delete", start: "4" }], file, "f");
    assert.deepEqual(four.ops, [{ op: "delete", start: `5:${lineHash("d")}` }]);
  });

  it("round-trips through the read-record file", () => {
    const mem = new LineMemory();
    mem.see(1, h(["a", "b"]));
    mem.views = new FileViews();
    mem.views.add(true, [{ start: 1, hashes: h(["a", "b"]) }]);
    mem.views.commit([{ at: 1, deleteCount: 1, lines: ["A"] }], "h_12");
    mem.views.add(false, [{ start: 1, hashes: h(["A"]) }], true);
    const back = decodeRecord(encodeRecord("/r/f", mem), "/r/f")!;
    assert.deepEqual(back.views, mem.views);
    assert.equal(back.hash32(2), lineHash32("b"));
  });
});
