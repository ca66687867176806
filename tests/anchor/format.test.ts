import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import {
  formatHashlines,
  formatLine,
  readWindow,
} from "../../src/anchor/format.ts";
import { lineHash } from "../../src/hash/fnv.ts";

interface Vectors {
  files: { name: string; content: string; view: string[] }[];
}
const fixture = new URL("./fixtures/vectors.json", import.meta.url);
const inRepo = new URL("../../spec/vectors.json", import.meta.url);
const vectors: Vectors = JSON.parse(
  readFileSync(existsSync(inRepo) ? inRepo : fixture, "utf8"),
);

describe("formatHashlines: vectors.json files", () => {
  for (const file of vectors.files) {
    it(`${file.name} reads as its view`, () => {
      const view = formatHashlines(file.content);
      assert.equal(view.text, file.view.join("\n"));
      assert.equal(view.totalLines, file.view.length);
      assert.equal(view.startLine, 1);
      assert.equal(view.endLine, file.view.length);
      assert.equal(view.nextOffset, null);
    });
  }
});

describe("formatHashlines: windows", () => {
  const content =
    Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

  it("offset and limit pick a window and say where the next starts", () => {
    const view = formatHashlines(content, { offset: 4, limit: 3 });
    assert.equal(view.startLine, 4);
    assert.equal(view.endLine, 6);
    assert.equal(view.nextOffset, 7);
    assert.equal(view.totalLines, 10);
    assert.equal(
      view.text,
      ["4", "5", "6"].map((n) => `${n}:${lineHash(`line ${n}`)}|line ${n}`)
        .join("\n"),
    );
  });

  it("the last window has nextOffset null", () => {
    const view = formatHashlines(content, { offset: 9, limit: 5 });
    assert.deepEqual([view.startLine, view.endLine, view.nextOffset], [
      9,
      10,
      null,
    ]);
  });

  it("limit defaults to 2000 lines", () => {
    const big = "x\n".repeat(2500);
    const view = formatHashlines(big);
    assert.equal(view.endLine, 2000);
    assert.equal(view.nextOffset, 2001);
    assert.equal(view.text.split("\n").length, 2000);
  });

  it("§9 offset past the last line is a RangeError that says how many lines there are", () => {
    assert.throws(
      () => formatHashlines(content, { offset: 11 }),
      (e: unknown) => e instanceof RangeError && /10 lines/.test(e.message),
    );
    assert.throws(
      () => formatHashlines("", { offset: 2 }),
      (e: unknown) => e instanceof RangeError && /0 lines/.test(e.message),
    );
  });

  it("§9 offset 1 on empty content is an empty view", () => {
    assert.deepEqual(formatHashlines(""), {
      text: "",
      totalLines: 0,
      startLine: 1,
      endLine: 0,
      nextOffset: null,
    });
    assert.equal(formatHashlines("\uFEFF").totalLines, 0);
  });

  const badOptions: [string, Record<string, unknown>, ErrorConstructor][] = [
    ["offset 0", { offset: 0 }, RangeError],
    ["negative offset", { offset: -1 }, RangeError],
    ["fractional offset", { offset: 1.5 }, RangeError],
    ["offset NaN", { offset: NaN }, RangeError],
    ["string offset", { offset: "2" }, TypeError],
    ["limit 0", { limit: 0 }, RangeError],
    ["fractional limit", { limit: 2.5 }, RangeError],
    ["string limit", { limit: "5" }, TypeError],
    ["maxLineChars 0", { maxLineChars: 0 }, RangeError],
  ];
  for (const [name, options, type] of badOptions) {
    it(`refuses ${name}`, () => {
      assert.throws(() => formatHashlines(content, options), type);
    });
  }

  it("refuses content that is not a string", () => {
    assert.throws(() => formatHashlines(null as unknown as string), TypeError);
  });

  it("readWindow works the same window out for a streaming reader", () => {
    assert.deepEqual(readWindow(10, { offset: 4, limit: 3 }), {
      startLine: 4,
      endLine: 6,
      nextOffset: 7,
      maxLineChars: 2000,
    });
    assert.throws(() => readWindow(3, { offset: 5 }), /3 lines/);
  });

  it("a window deep in a big string is fast and exact", () => {
    const lines = 200_000;
    const big = "abcdefghij\r\n".repeat(lines);
    const t = performance.now();
    const view = formatHashlines(big, { offset: lines - 1, limit: 10 });
    const ms = performance.now() - t;
    assert.equal(view.totalLines, lines);
    assert.equal(
      view.text,
      `${lines - 1}:${lineHash("abcdefghij")}|abcdefghij\n${lines}:${
        lineHash("abcdefghij")
      }|abcdefghij`,
    );
    assert.ok(ms < 1000, `took ${ms} ms`);
  });
});

describe("long lines (§2, §9: the display limit counts code points)", () => {
  it("a line over 2000 code points is cut with a [+N chars] marker; its anchor hashes the whole line", () => {
    const line = "x".repeat(2500);
    const view = formatHashlines(`${line}\n`);
    assert.equal(
      view.text,
      `1:${lineHash(line)}|${"x".repeat(2000)}[+500 chars]`,
    );
  });

  it("a line of exactly 2000 code points is shown whole", () => {
    const line = "y".repeat(2000);
    assert.equal(formatHashlines(line).text, `1:${lineHash(line)}|${line}`);
  });

  it("astral characters count once, even when the line is over 2000 UTF-16 units", () => {
    const line = "😀".repeat(1500); // 3000 UTF-16 units, 1500 code points
    assert.equal(formatHashlines(line).text, `1:${lineHash(line)}|${line}`);
    const longer = "😀".repeat(2003);
    assert.equal(
      formatHashlines(longer).text,
      `1:${lineHash(longer)}|${"😀".repeat(2000)}[+3 chars]`,
    );
  });

  it("maxLineChars sets the limit", () => {
    assert.equal(
      formatHashlines("λ → α\n", { maxLineChars: 2 }).text,
      `1:f2|λ [+3 chars]`,
    );
  });

  it("formatLine renders like a read and can take a known anchor byte", () => {
    assert.equal(formatLine(12, "def greet(name):"), "12:fb|def greet(name):");
    assert.equal(formatLine(1, "abc", 2, 0x0e), "1:0e|ab[+1 chars]");
  });
});
