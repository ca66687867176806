import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HashlineError } from "../../src/errors.ts";
import {
  checkNul,
  fileText,
  NUL_WINDOW,
  windowLines,
} from "../../src/fs/text.ts";

const enc = new TextEncoder();
const notText = (offset: number) => (e: unknown) =>
  e instanceof HashlineError && e.code === "NOT_TEXT" &&
  e.message.includes(String(offset));

describe("fs/text", () => {
  it("fileText decodes UTF-8 and keeps a BOM as U+FEFF", () => {
    assert.equal(fileText("a", enc.encode("\uFEFFπ\r\nb\n")), "\uFEFFπ\r\nb\n");
  });

  it("fileText refuses invalid UTF-8 and a NUL in the first 8 KiB, naming the byte offset", () => {
    const bad = new Uint8Array([0x61, 0x62, 0xff, 0x63]);
    assert.throws(() => fileText("a.bin", bad), notText(2));
    const nul = enc.encode("abc\0def");
    assert.throws(() => fileText("a.bin", nul), notText(3));
  });

  it("fileText accepts a NUL past the first 8 KiB (text with a stray NUL far in)", () => {
    const bytes = new Uint8Array(NUL_WINDOW + 10).fill(0x61);
    bytes[NUL_WINDOW + 5] = 0;
    assert.equal(fileText("a", bytes).length, NUL_WINDOW + 10);
  });

  it("checkNul counts offsets from the window's base and stops at 8 KiB", () => {
    const bytes = enc.encode("ab\0");
    assert.throws(() => checkNul("f", bytes, 100), notText(102));
    checkNul("f", bytes, NUL_WINDOW);
  });

  it("windowLines splits count lines at \\n or \\r\\n, keeps a lone \\r, and names a bad byte by file offset", () => {
    assert.deepEqual(
      windowLines("f", enc.encode("a\r\nb\rc\nd"), 0, 3),
      ["a", "b\rc", "d"],
    );
    assert.deepEqual(windowLines("f", enc.encode("x\n"), 0, 0), []);
    assert.throws(
      () => windowLines("f", new Uint8Array([0x61, 0x0a, 0xc3]), 1000, 2),
      notText(1002),
    );
  });
});
