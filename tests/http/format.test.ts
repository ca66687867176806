import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { formatAnswer } from "../../src/http/_format.ts";

/** The answer the route documents: `{ ok: true, ...view }`, as JSON.stringify writes it. */
function expectedAnswer(
  content: string,
  window: { offset?: number; limit?: number },
): string {
  return JSON.stringify({ ok: true, ...formatHashlines(content, window) });
}

describe("the /v1/format answer is the JSON of formatHashlines, byte for byte", () => {
  const everyByte = Array.from(
    { length: 0x80 },
    (_, b) => String.fromCharCode(b),
  ).join("");
  const contents = [
    "",
    "\n",
    "a",
    "a\n",
    "\uFEFFbom\r\nline\rwith lone CR\n",
    "\uFEFF",
    "\uFEFF\n",
    "x\n\ny",
    "\r\n\r\n",
    "ends in a lone CR\r",
    "😀 é ü\n漢字\n",
    "lone \ud800 surrogate\n",
    'quotes " and \\ backslashes \\n \\" and /slashes/\n',
    `every ASCII byte: ${everyByte}\nagain ${everyByte}`,
    "\u2028 line and \u2029 paragraph separators, \u007f, \u0000 NUL\n",
    "long " + "y".repeat(2500) + "\nshort\n",
    "exactly " + "z".repeat(1992) + "\n" + "é".repeat(2000) + "\n",
    "😀".repeat(2001) + "\n" + "é".repeat(1999) + '"\\\n',
    "\t".repeat(2100) + "\n",
    Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"),
  ];
  const windows = [
    {},
    { offset: 2 },
    { offset: 1, limit: 1 },
    {
      offset: 3,
      limit: 20,
    },
    { offset: 50 },
    { offset: 51 },
  ];
  for (const content of contents) {
    for (const window of windows) {
      it(`${JSON.stringify(content.slice(0, 24))} ${JSON.stringify(window)}`, () => {
        let expected: string;
        try {
          expected = expectedAnswer(content, window);
        } catch (error) {
          assert.throws(
            () => formatAnswer(content, window),
            (e: Error) =>
              e.constructor === (error as Error).constructor &&
              e.message === (error as Error).message,
          );
          return;
        }
        assert.equal(formatAnswer(content, window), expected);
      });
    }
  }

  it("agrees on 500 random contents and windows", () => {
    const pieces = [
      "a",
      "bc",
      " ",
      "\n",
      "\r",
      "\r\n",
      '"',
      "\\",
      "\\n",
      "\t",
      "\u0000",
      "\u001f",
      "é",
      "😀",
      "\uFEFF",
      "\u2028",
    ];
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 500; k++) {
      let content = "";
      for (let len = next(40); len > 0; len--) {
        content += pieces[next(pieces.length)];
      }
      const window = { offset: 1 + next(4), limit: 1 + next(6) };
      let expected: string;
      try {
        expected = expectedAnswer(content, window);
      } catch {
        assert.throws(() => formatAnswer(content, window), RangeError);
        continue;
      }
      assert.equal(
        formatAnswer(content, window),
        expected,
        JSON.stringify(content),
      );
    }
  });

  it("refuses a bad window as formatHashlines does", () => {
    for (const window of [{ offset: 0 }, { limit: 0 }, { offset: 1.5 }]) {
      assert.throws(() => formatHashlines("a\n", window), RangeError);
      assert.throws(() => formatAnswer("a\n", window), RangeError);
    }
  });
});
