import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LineMemory } from "../../src/patch/memory.ts";

describe("LineMemory: lines a refusal showed", () => {
  it("count as seen without erasing what was read there", () => {
    const mem = new LineMemory();
    mem.see(1, [1, 2, 3, 4]);
    mem.show(2, [20, 30]);
    assert.deepEqual([1, 2, 3, 4].map((n) => mem.hash32(n)), [1, 20, 30, 4]);
    assert.deepEqual([1, 2, 3, 4].map((n) => mem.read32(n)), [1, 2, 3, 4]);
    mem.show(6, [60]);
    assert.equal(mem.read32(6), 60, "a line only shown counts as read");
    assert.equal(mem.size, 5);
    assert.deepEqual(mem.toJSON(), [[1, [1, 20, 30, 4]], [6, [60]]]);
  });

  it("give way to a later read, and fold into the record at a commit", () => {
    const mem = new LineMemory();
    mem.see(1, [1, 2, 3]);
    mem.show(1, [10, 20]);
    mem.see(2, [200]);
    assert.deepEqual([1, 2].map((n) => mem.hash32(n)), [10, 200]);
    assert.deepEqual([1, 2].map((n) => mem.read32(n)), [1, 200]);
    mem.remap([{ at: 3, deleteCount: 0, lines: ["x"] }]);
    assert.deepEqual(mem.layers(), {
      read: [[1, [10, 200]], [4, [3]]],
      shown: [],
    });
  });

  it("survive clone and fromLayers", () => {
    const mem = new LineMemory();
    mem.see(1, [1, 2]);
    mem.show(2, [9]);
    const copy = mem.clone();
    const back = LineMemory.fromLayers(copy.layers().read, copy.layers().shown);
    assert.equal(back.hash32(2), 9);
    assert.equal(back.read32(2), 2);
  });
});
