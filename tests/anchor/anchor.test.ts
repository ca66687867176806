import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  formatAnchor,
  parseAnchor,
  readPrefixOf,
} from "../../src/anchor/anchor.ts";

describe("parseAnchor", () => {
  const good: [string, number, string][] = [
    ["12:a3", 12, "a3"],
    ["12:A3", 12, "a3"],
    ["12:a3|", 12, "a3"],
    [" 7:0e ", 7, "0e"],
    ["1:ff", 1, "ff"],
  ];
  for (const [text, line, hash] of good) {
    it(`reads ${JSON.stringify(text)}`, () => {
      assert.deepEqual(parseAnchor(text), { line, hash });
    });
  }
  const bad = [
    "0:a3",
    "12",
    "12:a",
    "12:a3x",
    "12:g3",
    "a3",
    "-1:a3",
    "12:a3|x",
    "",
    "12:a3||",
    "1.5:a3",
  ];
  for (const text of bad) {
    it(`refuses ${JSON.stringify(text)} with a SyntaxError naming it`, () => {
      assert.throws(
        () => parseAnchor(text),
        (e: unknown) =>
          e instanceof SyntaxError && e.message.includes(JSON.stringify(text)),
      );
    });
  }
  it("refuses a non-string with a TypeError", () => {
    assert.throws(() => parseAnchor(12 as unknown as string), TypeError);
  });
});

describe("formatAnchor", () => {
  it("writes LINE:HH from a string or a byte", () => {
    assert.equal(formatAnchor(12, "A3"), "12:a3");
    assert.equal(formatAnchor(3, 14), "3:0e");
  });
  it("refuses line 0", () => {
    assert.throws(() => formatAnchor(0, "a3"), RangeError);
  });
});

describe("readPrefixOf", () => {
  it("finds pasted read prefixes only at the start", () => {
    assert.equal(readPrefixOf("3:0E|x"), "3:0E|");
    assert.equal(readPrefixOf("x 3:0e|x"), null);
    assert.equal(readPrefixOf("3:0e x"), null);
  });
});
