import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatPatchText, parsePatch } from "../../src/patch/parse.ts";
import type { Patch, PatchOp } from "../../src/patch/types.ts";

const designExample = `@@ src/app.ts
= 12:a3..14:0e
~const x = 1;
+ 30:fb
~// note
- 20:5d..21:c5
< 1:c5
~// before line 1
+
~// appended at end of file
`;

const designOps: PatchOp[] = [
  { op: "replace", start: "12:a3", end: "14:0e", lines: ["const x = 1;"] },
  { op: "insert_after", anchor: "30:fb", lines: ["// note"] },
  { op: "delete", start: "20:5d", end: "21:c5" },
  { op: "insert_before", anchor: "1:c5", lines: ["// before line 1"] },
  { op: "append", lines: ["// appended at end of file"] },
];

function syntaxErrorAt(line: number): (e: unknown) => boolean {
  return (e) =>
    e instanceof SyntaxError &&
    new RegExp(`\\bline ${line}\\b`).test(e.message);
}

describe("parsePatch: JSON shapes", () => {
  const ops: PatchOp[] = [{ op: "delete", start: "3:aa" }];
  const cases: [string, unknown, Patch][] = [
    ["{ files }", { files: [{ path: "a.ts", ops }] }, {
      files: [{ path: "a.ts", ops }],
    }],
    ["{ path, ops }", { path: "a.ts", ops }, {
      files: [{ path: "a.ts", ops }],
    }],
    ['{ ops } gets path ""', { ops }, { files: [{ path: "", ops }] }],
    ['a bare array gets path ""', ops, { files: [{ path: "", ops }] }],
  ];
  for (const [name, value, expected] of cases) {
    it(`${name} as a value`, () =>
      assert.deepEqual(parsePatch(value), expected));
    it(`${name} as JSON text`, () =>
      assert.deepEqual(parsePatch(`\n  ${JSON.stringify(value)}`), expected));
  }

  it("keeps the documented example's ops", () => {
    const json = { files: [{ path: "src/app.ts", ops: designOps }] };
    assert.deepEqual(parsePatch(JSON.stringify(json)), json);
  });

  const badShapes: [string, unknown, RegExp][] = [
    [
      "unknown op",
      [{ op: "rename", start: "1:aa" }],
      /ops\[0\]\.op.*one of replace, delete/,
    ],
    [
      "missing lines",
      [{ op: "replace", start: "1:aa" }],
      /ops\[0\]\.lines is missing/,
    ],
    [
      "missing start",
      { ops: [{ op: "delete" }] },
      /ops\[0\]\.start is missing/,
    ],
    [
      "lines not an array",
      [{ op: "append", lines: "x" }],
      /ops\[0\]\.lines must be array/,
    ],
    [
      "a line not a string",
      [{ op: "append", lines: [1] }],
      /ops\[0\]\.lines\[0\] must be string/,
    ],
    [
      "unknown field",
      [{ op: "delete", start: "1:aa", End: "2:bb" }],
      /ops\[0\] has unknown field "End"/,
    ],
    [
      "file without path",
      { files: [{ ops: [] }] },
      /files\[0\]\.path is missing/,
    ],
    ["no ops or files", { path: "a" }, /expected \{ files/],
    ["null", null, /got null/],
    ["a number", 7, /got number/],
  ];
  for (const [name, value, message] of badShapes) {
    it(`refuses ${name} with a TypeError naming the field`, () => {
      assert.throws(
        () => parsePatch(value),
        (e: unknown) => e instanceof TypeError && message.test(e.message),
      );
    });
  }

  it("refuses broken JSON with a SyntaxError", () => {
    assert.throws(() => parsePatch('{"files": ['), SyntaxError);
  });

  it("leaves anchor syntax to validation (BAD_ANCHOR)", () => {
    assert.deepEqual(
      parsePatch([{ op: "delete", start: "nope" }]).files[0].ops,
      [{ op: "delete", start: "nope" }],
    );
  });
});

describe("parsePatch: text form", () => {
  it("reads the documented example", () => {
    assert.deepEqual(parsePatch(designExample), {
      files: [{ path: "src/app.ts", ops: designOps }],
    });
  });

  it("§9 `= A` and `- A` alone mean the single line A", () => {
    assert.deepEqual(
      parsePatch("= 3:aa\n~x\n- 5:bb", { headerless: true }).files[0].ops,
      [
        { op: "replace", start: "3:aa", lines: ["x"] },
        { op: "delete", start: "5:bb" },
      ],
    );
  });

  it("§9 blank lines between ops are ignored", () => {
    assert.deepEqual(
      parsePatch("\n\n= 3:aa\n~x\n\n   \n- 5:bb\n\n", { headerless: true })
        .files[0].ops,
      [
        { op: "replace", start: "3:aa", lines: ["x"] },
        { op: "delete", start: "5:bb" },
      ],
    );
  });

  it("§9 an anchor with its read suffix `12:a3|` is accepted as `12:a3`", () => {
    assert.deepEqual(
      parsePatch("@@ a\n= 12:A3|..14:0e|\n+ 3:ff|\n~x").files[0].ops,
      [
        { op: "replace", start: "12:a3", end: "14:0e", lines: [] },
        { op: "insert_after", anchor: "3:ff", lines: ["x"] },
      ],
    );
  });

  it("`~` lines are verbatim after the `~` (spaces, empty, a leading ~)", () => {
    assert.deepEqual(
      parsePatch("@@ a\n+\n~  indented \n~\n~~tilde").files[0].ops,
      [
        { op: "append", lines: ["  indented ", "", "~tilde"] },
      ],
    );
  });

  it("bare `<` prepends; `< A` inserts before", () => {
    assert.deepEqual(parsePatch("@@ a\n<\n~top\n< 4:0e\n~x").files[0].ops, [
      { op: "prepend", lines: ["top"] },
      { op: "insert_before", anchor: "4:0e", lines: ["x"] },
    ]);
  });

  it("an insert without `~` lines parses with lines [] (refused later as EMPTY_INSERT)", () => {
    assert.deepEqual(parsePatch("+ 2:aa", { headerless: true }).files[0].ops, [{
      op: "insert_after",
      anchor: "2:aa",
      lines: [],
    }]);
  });

  it('with headerless, ops before any `@@` belong to path ""', () => {
    assert.deepEqual(
      parsePatch("- 1:aa\n@@ b.ts\n- 2:bb", { headerless: true }),
      {
        files: [
          { path: "", ops: [{ op: "delete", start: "1:aa" }] },
          { path: "b.ts", ops: [{ op: "delete", start: "2:bb" }] },
        ],
      },
    );
  });

  it("sections naming the same path are merged in order", () => {
    assert.deepEqual(
      parsePatch("@@ a\n- 1:aa\n@@ b\n- 1:aa\n@@ a\n- 3:cc").files,
      [
        {
          path: "a",
          ops: [{ op: "delete", start: "1:aa" }, {
            op: "delete",
            start: "3:cc",
          }],
        },
        { path: "b", ops: [{ op: "delete", start: "1:aa" }] },
      ],
    );
  });

  it("reads CRLF patch text", () => {
    assert.deepEqual(parsePatch("@@ a.ts\r\n= 1:aa\r\n~x\r\n"), {
      files: [{
        path: "a.ts",
        ops: [{ op: "replace", start: "1:aa", lines: ["x"] }],
      }],
    });
  });

  it("empty text is a patch with no files", () => {
    assert.deepEqual(parsePatch(""), { files: [] });
  });

  const syntaxErrors: [string, string, number][] = [
    ["§9 a `~` line after `-`", "@@ a\n- 1:aa\n~x", 3],
    ["§9 a `~` line after `-` and a blank line", "@@ a\n- 1:aa\n\n~x", 4],
    ["§9 an op before any `@@ PATH`", "\n= 1:aa\n~x", 2],
    ["an op before `@@ PATH` even when one follows", "- 1:aa\n@@ b\n- 2:bb", 1],
    ["a code fence that never closes", "```\n@@ a\n- 1:aa", 1],
    ["a code fence with text after its close", "```\n@@ a\n```\nhello", 1],
    [
      "an unknown line inside a code fence keeps its number",
      "```diff\n@@ a\n- 1:aa\nhello\n```",
      4,
    ],
    ["a `~` line before any op", "~x", 1],
    ["a `~` line right after `@@`", "@@ a\n~x", 2],
    ["`@@` without a path", "@@ a\n- 1:aa\n@@  ", 3],
    ["`=` without an anchor", "@@ a\n=", 2],
    ["`-` without an anchor", "@@ a\n\n-", 3],
    ["a malformed anchor", "= 12:zz", 1],
    ["line 0", "- 0:aa", 1],
    ["a three-part range", "= 1:aa..2:bb..3:cc", 1],
    ["a half range", "- 1:aa..", 1],
    ["an insert with a non-anchor", "+ foo", 1],
    ["an unknown line", "@@ a\n= 1:aa\n~x\nhello", 4],
    ["an indented op", "  = 1:aa", 1],
    ["a unified diff header without its +++ line", "--- a/x.ts", 2],
  ];
  for (const [name, text, line] of syntaxErrors) {
    it(`${name} is a SyntaxError naming line ${line}`, () => {
      assert.throws(() => parsePatch(text), syntaxErrorAt(line));
    });
  }

  it("the delete-then-~ error says why", () => {
    assert.throws(
      () => parsePatch("@@ a\n- 1:aa\n~x"),
      /cannot follow a delete/,
    );
  });
});

describe("parsePatch: §9 code fences, headers and bytes", () => {
  const body = "@@ a.ts\n= 1:aa\n~x\n";
  const want = {
    files: [{
      path: "a.ts",
      ops: [{ op: "replace", start: "1:aa", lines: ["x"] }],
    }],
  };
  const fenced: [string, string][] = [
    ["a bare fence", "```\n" + body + "```"],
    ["a fence with a language", "```diff\n" + body + "```\n"],
    ["blank lines around the fence", "\n```patch\n" + body + "```\n\n"],
    ["a CRLF fence", "```text\r\n@@ a.ts\r\n= 1:aa\r\n~x\r\n```\r\n"],
  ];
  for (const [name, text] of fenced) {
    it(`ignores ${name} wrapping the whole patch`, () => {
      assert.deepEqual(parsePatch(text), want);
    });
  }

  it("ignores a fence around the JSON form", () => {
    assert.deepEqual(
      parsePatch("```json\n" + JSON.stringify(want) + "\n```"),
      want,
    );
  });

  it("keeps a ~ line of three backticks inside a fenced patch", () => {
    assert.deepEqual(
      parsePatch("```\n@@ a.md\n+\n~```\n~code\n~```\n```").files[0].ops,
      [{ op: "append", lines: ["```", "code", "```"] }],
    );
  });

  it("an op before any header names the header it needs", () => {
    assert.throws(
      () => parsePatch("+\n~x"),
      (e: unknown) =>
        e instanceof SyntaxError && /line 1\b/.test(e.message) &&
        /"@@ PATH"/.test(e.message),
    );
  });

  it("reads UTF-8 bytes and refuses invalid UTF-8 naming the byte offset", () => {
    const bytes = new TextEncoder().encode("@@ é.ts\n+\n~λ\n");
    assert.deepEqual(parsePatch(bytes), {
      files: [{ path: "é.ts", ops: [{ op: "append", lines: ["λ"] }] }],
    });
    const bad = new Uint8Array([
      ...new TextEncoder().encode("@@ a\n+\n~"),
      0xc3,
      0x28,
    ]);
    assert.throws(
      () => parsePatch(bad),
      (e: unknown) =>
        e instanceof SyntaxError && /not valid UTF-8/.test(e.message) &&
        /byte offset 8\b/.test(e.message),
    );
    const surrogate = new Uint8Array([0x7e, 0xed, 0xa0, 0x80]);
    assert.throws(() => parsePatch(surrogate), /byte offset 1\b/);
  });

  it("literal: true is part of the JSON form", () => {
    const ops = [{ op: "append", lines: ["1:aa|x"], literal: true }];
    assert.deepEqual(parsePatch(ops).files[0].ops, ops);
    assert.throws(
      () => parsePatch([{ op: "delete", start: "1:aa", literal: true }]),
      /unknown field "literal"/,
    );
    assert.throws(
      () => formatPatchText(ops as PatchOp[]),
      /only the JSON form's "literal": true/,
    );
  });
});

describe("round trip JSON ↔ text", () => {
  const patches: Patch[] = [
    { files: [{ path: "src/app.ts", ops: designOps }] },
    {
      files: [{
        path: "",
        ops: [{ op: "prepend", lines: ["a", ""] }, {
          op: "replace",
          start: "2:0e",
          lines: [],
        }],
      }],
    },
    {
      files: [
        {
          path: "a b.ts",
          ops: [{ op: "insert_before", anchor: "9:ab", lines: ["~", " x"] }],
        },
        { path: "c.ts", ops: [{ op: "delete", start: "1:00", end: "1:00" }] },
      ],
    },
  ];
  for (const [i, patch] of patches.entries()) {
    it(`patch ${i + 1}: parse(formatPatchText(p)) equals p`, () => {
      assert.deepEqual(
        parsePatch(formatPatchText(patch), { headerless: true }),
        patch,
      );
      assert.deepEqual(parsePatch(JSON.stringify(patch)), patch);
    });
  }

  it("the documented text form survives parse then format", () => {
    assert.equal(formatPatchText(parsePatch(designExample)), designExample);
  });

  it("formatPatchText takes one file or bare ops too", () => {
    assert.equal(
      formatPatchText([{ op: "delete", start: "1:aa" }]),
      "- 1:aa\n",
    );
    assert.equal(formatPatchText({ path: "x", ops: [] }), "@@ x\n");
  });

  it("formatPatchText refuses what the text form cannot carry", () => {
    assert.throws(
      () => formatPatchText([{ op: "append", lines: ["a\nb"] }]),
      TypeError,
    );
    assert.throws(
      () => formatPatchText([{ op: "append", lines: ["a\r"] }]),
      TypeError,
    );
    assert.throws(
      () =>
        formatPatchText({
          files: [{ path: "a", ops: [] }, { path: "", ops: [] }],
        }),
      TypeError,
    );
  });
});
