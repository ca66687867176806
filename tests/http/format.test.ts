import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatHashlines } from "../../src/anchor/format.ts";
import { formatView } from "../../src/http/_format.ts";

describe("the /v1/format view agrees with formatHashlines", () => {
  const contents = [
    "",
    "\n",
    "a",
    "a\n",
    "\uFEFFbom\r\nline\rwith lone CR\n",
    "x\n\ny",
    "\r\n\r\n",
    "😀 é ü\n漢字\n",
    "lone \ud800 surrogate\n",
    "long " + "y".repeat(2500) + "\nshort\n",
    Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n"),
  ];
  const windows = [{}, { offset: 2 }, { offset: 1, limit: 1 }, {
    offset: 3,
    limit: 20,
  }];
  for (const content of contents) {
    for (const window of windows) {
      it(`${JSON.stringify(content.slice(0, 24))} ${JSON.stringify(window)}`, () => {
        let expected: unknown;
        try {
          expected = formatHashlines(content, window);
        } catch (error) {
          assert.throws(
            () => formatView(content, window),
            (e: Error) =>
              e.constructor === (error as Error).constructor &&
              e.message === (error as Error).message,
          );
          return;
        }
        assert.deepEqual(formatView(content, window), expected);
      });
    }
  }
});
