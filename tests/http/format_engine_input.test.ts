/**
 * The Wasm path of `POST /v1/format` encodes the content straight into the
 * engine: content whose UTF-8 form is over one engine chunk (while its
 * UTF-16 length is under it) falls back to the string path, with the same
 * answer; and answers built one after another never share bytes.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { formatAnswerBytes } from "../../src/http/_format.ts";
import { wasmEngine } from "../../src/hash/wasm.ts";

const decoder = new TextDecoder();
const expected = (content: string, window = {}) =>
  JSON.stringify({ ok: true, ...formatHashlines(content, window) });

describe("format answer from the engine's own input", () => {
  it("content over one chunk in UTF-8 but not in UTF-16 gives the documented answer", () => {
    const capacity = wasmEngine()?.capacity ?? 1 << 20;
    const line = "ééééééééé\n"; // 10 UTF-16 units, 19 bytes
    const content = line.repeat(Math.ceil(capacity / 15));
    assert.ok(content.length < capacity);
    assert.ok(new TextEncoder().encode(content).length > capacity);
    const got = decoder.decode(formatAnswerBytes(content, { limit: 3 }));
    assert.equal(got, expected(content, { limit: 3 }));
  });

  it("each answer owns its bytes", () => {
    const first = formatAnswerBytes("a\nb\n", {});
    const copy = first.slice();
    const second = formatAnswerBytes("c\nd\ne\n", {});
    assert.deepEqual(first, copy);
    assert.equal(decoder.decode(second), expected("c\nd\ne\n"));
    assert.notEqual(first.buffer, second.buffer);
  });
});
