import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  applyHashlineEdit,
  type HashlineEdit,
} from "../../src/patch/hashline_edit.ts";
import { anchorOf } from "./_fixture.ts";

const h = (content: string, n: number): string =>
  anchorOf(content, n).split(":")[1];

describe("applyHashlineEdit: edits", () => {
  const cases: [string, string, (c: string) => HashlineEdit, string][] = [
    [
      "replaces one line",
      "a\nb\nc\n",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "B" }),
      "a\nB\nc\n",
    ],
    [
      "one trailing newline of newContent is dropped",
      "a\nb\nc\n",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "B\n" }),
      "a\nB\nc\n",
    ],
    [
      "only one trailing newline is dropped",
      "a\nb\nc\n",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "B\n\n" }),
      "a\nB\n\nc\n",
    ],
    ["replaces a range with several lines", "a\nb\nc\nd\n", (c) => ({
      startLine: 2,
      startHash: h(c, 2),
      endLine: 3,
      endHash: h(c, 3),
      newContent: "x\ny\nz",
    }), "a\nx\ny\nz\nd\n"],
    ['newContent "" deletes the lines', "a\nb\nc\n", (c) => ({
      startLine: 1,
      startHash: h(c, 1),
      endLine: 2,
      endHash: h(c, 2),
      newContent: "",
    }), "c\n"],
    [
      "inserts after the start line",
      "a\nb\n",
      (c) => ({
        startLine: 1,
        startHash: h(c, 1),
        newContent: "x\ny\n",
        insertAfter: true,
      }),
      "a\nx\ny\nb\n",
    ],
    [
      "inserts after the last line of a file without final newline",
      "a\nb",
      (c) => ({
        startLine: 2,
        startHash: h(c, 2),
        newContent: "c",
        insertAfter: true,
      }),
      "a\nb\nc",
    ],
    [
      "keeps CRLF (CRLF newContent too)",
      "a\r\nb\r\n",
      (c) => ({ startLine: 1, startHash: h(c, 1), newContent: "x\r\ny\r\n" }),
      "x\r\ny\r\nb\r\n",
    ],
    [
      "keeps the BOM",
      "\uFEFFa\nb\n",
      (c) => ({ startLine: 1, startHash: h(c, 1), newContent: "A" }),
      "\uFEFFA\nb\n",
    ],
    [
      "keeps a missing final newline",
      "a\nb",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "B" }),
      "a\nB",
    ],
    [
      "a CR that is not before a line break is content",
      "a\nb\n",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "x\ry\r" }),
      "a\nx\ry\r\r\n",
    ],
    [
      "one trailing CRLF is dropped like one trailing LF",
      "a\r\nb\r\n",
      (c) => ({ startLine: 2, startHash: h(c, 2), newContent: "B\r\n" }),
      "a\r\nB\r\n",
    ],
    [
      "hashes are case-insensitive and may carry the read suffix",
      "a\nb\n",
      (c) => ({
        startLine: 2,
        startHash: `${h(c, 2).toUpperCase()}|`,
        newContent: "B",
      }),
      "a\nB\n",
    ],
    [
      "null endLine/endHash mean none",
      "a\nb\n",
      (
        c,
      ) => ({
        startLine: 2,
        startHash: h(c, 2),
        endLine: null,
        endHash: null,
        newContent: "B",
      } as unknown as HashlineEdit),
      "a\nB\n",
    ],
  ];
  for (const [name, content, edit, expected] of cases) {
    it(
      name,
      () =>
        assert.deepEqual(applyHashlineEdit(content, edit(content)), {
          content: expected,
          error: null,
        }),
    );
  }
});

describe("applyHashlineEdit: errors leave content unchanged", () => {
  const content = "a\nb\nc\n";
  const cases: [string, HashlineEdit, RegExp | string][] = [
    [
      "start hash mismatch",
      { startLine: 2, startHash: "f1", newContent: "x" },
      `Hash mismatch at line 2: expected 'f1', got '${
        h(content, 2)
      }'. File may have changed — re-read it first.`,
    ],
    [
      "end hash mismatch",
      {
        startLine: 1,
        startHash: h(content, 1),
        endLine: 3,
        endHash: "00",
        newContent: "x",
      },
      `Hash mismatch at line 3: expected '00', got '${
        h(content, 3)
      }'. File may have changed — re-read it first.`,
    ],
    ["start line out of range says how many lines", {
      startLine: 4,
      startHash: "aa",
      newContent: "x",
    }, /^Line 4 out of range \(file has 3 lines\)/],
    ["end line out of range", {
      startLine: 1,
      startHash: h(content, 1),
      endLine: 9,
      endHash: "aa",
      newContent: "x",
    }, /^Line 9 out of range \(file has 3 lines\)/],
    [
      "line 0",
      { startLine: 0, startHash: "aa", newContent: "x" },
      /startLine must be a whole line number/,
    ],
    [
      "fractional line",
      { startLine: 1.5, startHash: "aa", newContent: "x" },
      /startLine must be a whole line number/,
    ],
    ["§9 endLine without endHash", {
      startLine: 1,
      startHash: h(content, 1),
      endLine: 2,
      newContent: "x",
    }, /endLine and endHash go together/],
    ["§9 endHash without endLine", {
      startLine: 1,
      startHash: h(content, 1),
      endHash: "aa",
      newContent: "x",
    }, /endLine and endHash go together/],
    ["end before start", {
      startLine: 2,
      startHash: h(content, 2),
      endLine: 1,
      endHash: h(content, 1),
      newContent: "x",
    }, /comes before startLine/],
    ['§9 newContent "" with insertAfter', {
      startLine: 1,
      startHash: h(content, 1),
      newContent: "",
      insertAfter: true,
    }, /Nothing to insert/],
    ["insertAfter with a range", {
      startLine: 1,
      startHash: h(content, 1),
      endLine: 2,
      endHash: h(content, 2),
      newContent: "x",
      insertAfter: true,
    }, /cannot be combined with insertAfter/],
    [
      "a malformed hash",
      { startLine: 1, startHash: "xyz", newContent: "x" },
      /is not a line hash/,
    ],
    ["a NUL in newContent", {
      startLine: 1,
      startHash: h(content, 1),
      newContent: "ok\nx\0y",
    }, /^Line 2 of newContent holds a NUL character/],
    ["a lone surrogate in newContent", {
      startLine: 1,
      startHash: h(content, 1),
      newContent: "\uDC00",
      insertAfter: true,
    }, /^Line 1 of newContent holds a lone surrogate \(U\+DC00\)/],
    ["a pasted read prefix", {
      startLine: 1,
      startHash: h(content, 1),
      newContent: "1:aa|x",
    }, /read prefix "1:aa\|"/],
  ];
  for (const [name, edit, error] of cases) {
    it(name, () => {
      const out = applyHashlineEdit(content, edit);
      assert.equal(out.content, content);
      if (typeof error === "string") assert.equal(out.error, error);
      else assert.match(out.error ?? "", error);
    });
  }

  it("an empty file has no line to anchor on", () => {
    assert.deepEqual(
      applyHashlineEdit("", { startLine: 1, startHash: "c5", newContent: "x" }),
      {
        content: "",
        error:
          "Line 1 out of range (file has 0 lines): the file is empty, so there is no line to edit.",
      },
    );
  });

  it("throws TypeError only for wrong types", () => {
    const bad: unknown[][] = [
      [1, { startLine: 1, startHash: "aa", newContent: "" }],
      ["a", null],
      ["a", { startLine: "1", startHash: "aa", newContent: "" }],
      ["a", { startLine: 1, startHash: 1, newContent: "" }],
      ["a", { startLine: 1, startHash: "aa", newContent: 3 }],
      ["a", { startLine: 1, startHash: "aa", newContent: "", endLine: "2" }],
      ["a", {
        startLine: 1,
        startHash: "aa",
        newContent: "",
        insertAfter: "yes",
      }],
    ];
    for (const [c, e] of bad) {
      assert.throws(
        () => applyHashlineEdit(c as string, e as HashlineEdit),
        TypeError,
      );
    }
  });
});
