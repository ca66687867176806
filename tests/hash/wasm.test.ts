import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  createLineScanner,
  hashLines,
  lineHash32,
  scanLines,
} from "../../src/hash/mod.ts";
import { wasmEngine } from "../../src/hash/wasm.ts";
import * as layout from "../../src/hash/_layout.ts";
import { ENGINES, randomCuts, scanChunked } from "./_engines.ts";

const encoder = new TextEncoder();

/** Deterministic text of many lines of every length 0..maxLen, some non-ASCII. */
function manyLines(count: number, maxLen: number, seed: number): string[] {
  let state = seed | 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const len = next() % (maxLen + 1);
    let line = "";
    for (let j = 0; j < len; j++) {
      line += String.fromCharCode(0x20 + (next() % 95));
    }
    if (next() % 50 === 0) line += "é→😀";
    lines.push(line);
  }
  return lines;
}

describe("wasm engine", () => {
  it("loads, and its memory holds the whole fixed layout", () => {
    const engine = wasmEngine();
    assert.ok(engine);
    assert.ok(
      engine.exports.layoutEnd() <= engine.exports.memory.buffer.byteLength,
    );
    assert.equal(engine.capacity, 1 << 20);
  });

  it("agrees with the layout generated from assembly/layout.ts", () => {
    const engine = wasmEngine();
    assert.ok(engine);
    const x = engine.exports as unknown as Record<string, () => number>;
    assert.equal(x.capacity(), layout.CAPACITY);
    assert.equal(x.inputPtr(), layout.IN);
    assert.equal(x.statePtr(), layout.STATE);
    assert.equal(x.stateBytes(), layout.STATE_BYTES);
    assert.equal(x.hashesPtr(), layout.HASHES);
    assert.equal(x.endsPtr(), layout.ENDS);
    assert.equal(x.foldsPtr(), layout.FOLDS);
    assert.equal(x.countsPtr(), layout.COUNTS);
    assert.equal(x.outPtr(), layout.OUT);
    assert.equal(x.layoutEnd(), layout.LAYOUT_END);
    // A fresh state block holds what reset() stores at the generated offsets.
    const fresh = new DataView(engine.initialState.slice().buffer);
    assert.equal(fresh.byteLength, layout.STATE_BYTES);
    assert.equal(fresh.getUint32(layout.S_HASH, true), 0x811c9dc5);
    assert.equal(fresh.getUint32(layout.S_FLAGS, true), layout.F_AT_START);
    assert.equal(fresh.getUint32(layout.S_INVALID, true), layout.NONE);
    assert.equal(fresh.getUint32(layout.S_NUL, true), layout.NONE);
  });

  it("agrees with the string hash on thousands of lines of every length", () => {
    // Enough lines of each length to fill the sixteen-line groups many times.
    const lines = manyLines(20000, 90, 7);
    const bytes = encoder.encode(lines.join("\n"));
    const expected = lines.map(lineHash32);
    for (const engine of ENGINES) {
      assert.deepEqual(scanChunked(engine, bytes).hashes, expected, engine);
    }
  });

  it("handles inputs over 1 MiB with lines and code points across chunk seams", () => {
    const lines = manyLines(60000, 60, 11);
    lines[1000] = "x".repeat(70000) + "😀";
    lines[2000] = "é".repeat(40000);
    const text = lines.join("\r\n");
    const bytes = encoder.encode(text);
    assert.ok(bytes.length > 1 << 20);
    const expected = lines.map(lineHash32);
    const whole = scanChunked("wasm", bytes);
    assert.deepEqual(whole.hashes, expected);
    const cuts = randomCuts(bytes.length, 99, 300000);
    assert.deepEqual(scanChunked("wasm", bytes, cuts), whole);
    assert.deepEqual(scanChunked("ts", bytes, cuts), whole);
    assert.deepEqual([...scanLines(bytes).ends], whole.ends);
    assert.equal(hashLines(bytes).length, lines.length);
  });

  it("hashes lines of 1 KiB and more, of many different lengths", () => {
    const lines = manyLines(300, 5000, 3).map((l, i) => l + "-".repeat(i * 7));
    const bytes = encoder.encode(lines.join("\n"));
    assert.deepEqual(scanChunked("wasm", bytes).hashes, lines.map(lineHash32));
  });

  it("keeps interleaved scanners apart", () => {
    const a = encoder.encode(manyLines(3000, 80, 5).join("\n"));
    const b = encoder.encode("\uFEFF" + manyLines(3000, 40, 6).join("\r\n"));
    const expectA = scanChunked("ts", a);
    const expectB = scanChunked("ts", b);
    const sa = createLineScanner({ engine: "wasm" });
    const sb = createLineScanner({ engine: "wasm" });
    const gotA: number[] = [];
    const gotB: number[] = [];
    const step = 4093;
    for (let at = 0; at < Math.max(a.length, b.length); at += step) {
      const ba = sa.push(a.subarray(at, at + step));
      gotA.push(...ba.hashes.subarray(0, ba.count));
      // Whole-buffer calls in between must not disturb the streaming ones.
      hashLines(encoder.encode("noise\n"));
      const bb = sb.push(b.subarray(at, at + step));
      gotB.push(...bb.hashes.subarray(0, bb.count));
    }
    const ea = sa.end();
    gotA.push(...ea.hashes.subarray(0, ea.count));
    const eb = sb.end();
    gotB.push(...eb.hashes.subarray(0, eb.count));
    assert.deepEqual(gotA, expectA.hashes);
    assert.deepEqual(gotB, expectB.hashes);
    assert.equal(sb.hasBom, true);
  });
});
