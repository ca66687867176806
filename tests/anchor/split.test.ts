import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { joinLines, splitLines } from "../../src/anchor/split.ts";

describe("splitLines", () => {
  const cases: [
    string,
    string,
    string[],
    string[],
    boolean,
    boolean,
    "\n" | "\r\n" | null,
  ][] = [
    // name, content, lines, terminators, bom, finalNewline, firstTerminator
    ["empty content has no lines", "", [], [], false, false, null],
    ['"\\n" is one empty line', "\n", [""], ["\n"], false, true, "\n"],
    [
      '"\\n\\n" is two empty lines',
      "\n\n",
      ["", ""],
      ["\n", "\n"],
      false,
      true,
      "\n",
    ],
    [
      "final terminator ends the last line",
      "a\nb\n",
      ["a", "b"],
      ["\n", "\n"],
      false,
      true,
      "\n",
    ],
    [
      "unterminated last line",
      "a\nb",
      ["a", "b"],
      ["\n", ""],
      false,
      false,
      "\n",
    ],
    [
      "CRLF ends lines",
      "a\r\nb\r\n",
      ["a", "b"],
      ["\r\n", "\r\n"],
      false,
      true,
      "\r\n",
    ],
    [
      "mixed endings kept per line",
      "a\r\nb\nc",
      ["a", "b", "c"],
      ["\r\n", "\n", ""],
      false,
      false,
      "\r\n",
    ],
    ["lone CR is content", "a\rb\n", ["a\rb"], ["\n"], false, true, "\n"],
    ["trailing lone CR is content", "a\r", ["a\r"], [""], false, false, null],
    ["BOM is hidden", "\uFEFFx\n", ["x"], ["\n"], true, true, "\n"],
    ["BOM alone has no lines", "\uFEFF", [], [], true, false, null],
    [
      "only the first BOM is hidden",
      "\uFEFF\uFEFFx",
      ["\uFEFFx"],
      [""],
      true,
      false,
      null,
    ],
    ["CR before CRLF", "a\r\r\n", ["a\r"], ["\r\n"], false, true, "\r\n"],
  ];
  for (const [name, content, lines, terms, bom, finalNewline, first] of cases) {
    it(name, () => {
      const s = splitLines(content);
      assert.deepEqual(s.lines, lines);
      assert.deepEqual(s.terminators, terms);
      assert.equal(s.bom, bom);
      assert.equal(s.finalNewline, finalNewline);
      assert.equal(s.firstTerminator, first);
      assert.equal(
        joinLines(s),
        content,
        "joinLines restores the exact content",
      );
    });
  }

  it("refuses a non-string", () => {
    assert.throws(() => splitLines(3 as unknown as string), TypeError);
  });

  it("joinLines refuses mismatched arrays", () => {
    assert.throws(
      () => joinLines({ bom: false, lines: ["a"], terminators: [] }),
      RangeError,
    );
  });
});
