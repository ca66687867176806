/** How a history record is framed: `LEN CRC32 JSON\n`, torn and voided lines. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  crc32,
  framed,
  frameRecord,
  idOf,
  isVoid,
  parseLine,
  parseLog,
  voidLine,
} from "../../src/history/log/_frames.ts";
import { recordOf } from "./_log_helpers.ts";

const encode = (s: string) => new TextEncoder().encode(s);

describe("history log frames", () => {
  it("crc32 gives the IEEE check value", () => {
    assert.equal(crc32(encode("123456789")), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
  });

  it("a framed record names its JSON's byte length and checksum, and parses back", () => {
    const r = recordOf("h_3", "naïve ✓");
    const line = frameRecord(r);
    const m = /^(\d+) ([0-9a-f]{8}) (.*)\n$/.exec(line);
    assert.ok(m, line);
    assert.equal(Number(m[1]), encode(m[3]).length);
    assert.equal(parseInt(m[2], 16), crc32(encode(m[3])));
    assert.deepEqual(parseLine(encode(line.slice(0, -1)))?.value, r);
    assert.equal(framed(r), line);
    assert.equal(framed(r), framed(r));
  });

  it("a torn or altered line is no record; parseLog skips it and keeps the rest", () => {
    const a = frameRecord(recordOf("h_1"));
    const b = frameRecord(recordOf("h_2"));
    const altered = b.replace("edit", "EDIT");
    assert.equal(parseLine(encode(altered.slice(0, -1))), null);
    assert.equal(parseLine(encode(a.slice(0, 20))), null);
    const ids = parseLog(a + altered + b + a.slice(0, 30)).map((r) => r.id);
    assert.deepEqual(ids, ["h_1", "h_2"]);
  });

  it("a void line keeps the record's length and id, and reads as void", () => {
    const line = frameRecord(recordOf("h_7"));
    const bytes = voidLine("h_7", encode(line).length);
    assert.ok(bytes);
    assert.equal(bytes.length, encode(line).length);
    assert.equal(bytes.at(-1), 10);
    const parsed = parseLine(bytes.subarray(0, -1));
    assert.ok(parsed && isVoid(parsed.value));
    assert.equal(idOf(parsed.value), 7);
    assert.equal(voidLine("h_7", 5), null, "too short to hold a void record");
    assert.deepEqual(parseLog(new TextDecoder().decode(bytes)), []);
  });

  it("idOf reads an h_N id and nothing else", () => {
    assert.equal(idOf({ id: "h_12" }), 12);
    for (const v of [{ id: "h_012" }, { id: 12 }, null, "h_1"]) {
      assert.ok(Number.isNaN(idOf(v)), JSON.stringify(v));
    }
  });
});
