import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatHashlines } from "../../src/anchor/format.ts";
import { splitLines } from "../../src/anchor/split.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash32 } from "../../src/hash/fnv.ts";
import {
  applyPatch,
  editContent,
  freshAnchors,
} from "../../src/patch/apply.ts";
import type { PatchOp } from "../../src/patch/types.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { anchorOf, foldTwin, staleAnchorOf } from "./_fixture.ts";

type Build = (a: (n: number) => string) => PatchOp[];

describe("editContent: §9 terminator rules", () => {
  const cases: [string, string, Build, string][] = [
    ["CRLF: new lines end with CRLF", "a\r\nb\r\nc\r\n", (a) => [
      { op: "replace", start: a(2), lines: ["B", "B2"] },
    ], "a\r\nB\r\nB2\r\nc\r\n"],
    [
      "mixed: untouched lines keep their own bytes; new lines take the first terminator",
      "a\r\nb\nc\n",
      (a) => [
        { op: "replace", start: a(2), lines: ["B"] },
        { op: "append", lines: ["d"] },
      ],
      "a\r\nB\r\nc\nd\r\n",
    ],
    ["mixed starting with LF", "a\nb\r\nc", (a) => [
      { op: "insert_after", anchor: a(1), lines: ["x"] },
    ], "a\nx\nb\r\nc"],
    [
      "no final newline: replacing the last line keeps it unterminated",
      "a\nb",
      (a) => [
        { op: "replace", start: a(2), lines: ["B"] },
      ],
      "a\nB",
    ],
    [
      "no final newline: appending terminates the old last line, not the new one",
      "a\nb",
      () => [
        { op: "append", lines: ["c", "d"] },
      ],
      "a\nb\nc\nd",
    ],
    [
      "no final newline: deleting the last line leaves the new last line unterminated",
      "a\r\nb\r\nc",
      (a) => [
        { op: "delete", start: a(3) },
      ],
      "a\r\nb",
    ],
    ["no final newline: inserting before the last line", "a\nb", (a) => [
      { op: "insert_before", anchor: a(2), lines: ["x"] },
    ], "a\nx\nb"],
    ["final newline kept when the last line is replaced", "a\nb\n", (a) => [
      { op: "replace", start: a(2), lines: ["B"] },
    ], "a\nB\n"],
    ["content written into an empty file ends with a terminator", "", () => [
      { op: "append", lines: ["x", "y"] },
    ], "x\ny\n"],
    ["§9 append and prepend on an empty file land in op order", "", () => [
      { op: "append", lines: ["first"] },
      { op: "prepend", lines: ["second"] },
    ], "first\nsecond\n"],
    [
      "a result whose last line is empty gets a final terminator",
      "a\nb",
      (a) => [
        { op: "replace", start: a(2), lines: [""] },
      ],
      "a\n\n",
    ],
    ["appending an empty line to a file without final newline", "a", () => [
      { op: "append", lines: [""] },
    ], "a\n\n"],
    ["an empty line into an empty file", "", () => [
      { op: "append", lines: [""] },
    ], "\n"],
    ["BOM kept on edit", "\uFEFFa\nb\n", (a) => [
      { op: "replace", start: a(1), lines: ["A"] },
    ], "\uFEFFA\nb\n"],
    ["§9 BOM kept even when every line is deleted", "\uFEFFa\nb\n", (a) => [
      { op: "delete", start: a(1), end: a(2) },
    ], "\uFEFF"],
    ["BOM-only content written into", "\uFEFF", () => [
      { op: "prepend", lines: ["x"] },
    ], "\uFEFFx\n"],
    ["deleting every line leaves empty content", "a\nb\n", (a) => [
      { op: "delete", start: a(1), end: a(2) },
    ], ""],
    [
      "§9 replace with lines [] deletes, exactly like delete",
      "a\nb\nc\n",
      (a) => [
        { op: "replace", start: a(2), lines: [] },
      ],
      "a\nc\n",
    ],
    ['"\\n" is one empty line that can be replaced', "\n", (a) => [
      { op: "replace", start: a(1), lines: ["x"] },
    ], "x\n"],
    ["a lone CR stays content", "a\rb\nc\n", (a) => [
      { op: "replace", start: a(2), lines: ["C"] },
    ], "a\rb\nC\n"],
    ["a new line ending in CR is kept readable", "a\n", () => [
      { op: "append", lines: ["x\r"] },
    ], "a\nx\r\r\n"],
    ["a lone CR inside a new line stays content", "a\r\n", () => [
      { op: "append", lines: ["x\ry"] },
    ], "a\r\nx\ry\r\n"],
    [
      "an unterminated last line ending in CR gets CRLF when a line follows it",
      "a\nb\r",
      () => [
        { op: "append", lines: ["c"] },
      ],
      "a\nb\r\r\nc",
    ],
    [
      "deleting the last line of a file without final newline unterminates the new last line",
      "a\r\nb\r\nc",
      (a) => [
        { op: "delete", start: a(2), end: a(3) },
      ],
      "a",
    ],
    [
      "an empty line that becomes last keeps its terminator",
      "a\n\nb",
      (a) => [
        { op: "delete", start: a(3) },
      ],
      "a\n\n",
    ],
    [
      "§9 insert_after L and insert_before L+1 land in op order",
      "a\nb\n",
      (a) => [
        { op: "insert_before", anchor: a(2), lines: ["1"] },
        { op: "insert_after", anchor: a(1), lines: ["2"] },
        { op: "insert_before", anchor: a(2), lines: ["3"] },
      ],
      "a\n1\n2\n3\nb\n",
    ],
    [
      "ops are addressed against the file as read and applied bottom-up",
      "1\n2\n3\n4\n5\n",
      (a) => [
        { op: "delete", start: a(1), end: a(2) },
        { op: "replace", start: a(4), lines: ["four", "FOUR"] },
        { op: "insert_before", anchor: a(3), lines: ["x"] },
        { op: "insert_after", anchor: a(5), lines: ["six"] },
      ],
      "x\n3\nfour\nFOUR\n5\nsix\n",
    ],
  ];
  for (const [name, content, build, expected] of cases) {
    it(name, () => {
      const out = editContent(content, build((n) => anchorOf(content, n)));
      assert.equal(out.content, expected);
    });
  }
});

describe("editContent: counts and regions", () => {
  const content = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const a = (n: number): string => anchorOf(content, n);

  it("counts added and removed lines", () => {
    const out = editContent(content, [
      { op: "replace", start: a(2), end: a(3), lines: ["x"] },
      { op: "append", lines: ["y", "z"] },
    ]);
    assert.deepEqual([out.added, out.removed], [3, 2]);
  });

  it("regions are changed line ranges in the new content", () => {
    const out = editContent(content, [
      { op: "replace", start: a(2), end: a(3), lines: ["x"] },
      { op: "delete", start: a(5) },
      { op: "insert_after", anchor: a(9), lines: ["y", "z"] },
    ]);
    assert.equal(out.content, "1\nx\n4\n6\n7\n8\n9\ny\nz\n");
    assert.deepEqual(out.regions, [
      { start: 2, end: 2 },
      { start: 4, end: 3 },
      { start: 8, end: 9 },
    ]);
  });

  it("touching edits share one region", () => {
    const out = editContent(content, [
      { op: "insert_after", anchor: a(1), lines: ["x"] },
      { op: "replace", start: a(2), lines: ["y"] },
      { op: "delete", start: a(3) },
    ]);
    assert.deepEqual(out.regions, [{ start: 2, end: 3 }]);
  });

  it("freshAnchors shows the region ±2 in read format, like a read of the new content", () => {
    const out = editContent(content, [{
      op: "replace",
      start: a(5),
      lines: ["five"],
    }]);
    const view = formatHashlines(out.content, { offset: 3, limit: 5 }).text;
    assert.equal(freshAnchors(out.content, out.regions[0]), view);
    const lookup = lookupFromLines(splitLines(out.content).lines);
    assert.equal(freshAnchors(lookup, out.regions[0]), view);
  });

  it("freshAnchors around a deletion and at the edges", () => {
    const out = editContent(content, [{ op: "delete", start: a(1) }]);
    assert.deepEqual(out.regions, [{ start: 1, end: 0 }]);
    assert.equal(
      freshAnchors(out.content, out.regions[0]),
      formatHashlines(out.content, { limit: 2 }).text,
    );
    assert.equal(freshAnchors("", { start: 1, end: 0 }), "");
  });
});

describe("editContent: refusals", () => {
  const content = "a\r\nb\r\nc\r\nd\r\n";

  it("lists every problem in a PatchRefusedError and returns nothing", () => {
    let caught: unknown;
    try {
      editContent(content, [
        { op: "delete", start: staleAnchorOf(content, 2) },
        { op: "append", lines: [] },
        { op: "delete", start: "9:aa" },
      ], { path: "x.txt" });
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof PatchRefusedError);
    assert.equal(caught.code, "PATCH_REFUSED");
    assert.deepEqual(caught.problems.map((p) => p.code), [
      "STALE_ANCHOR",
      "EMPTY_INSERT",
      "OUT_OF_RANGE",
    ]);
    assert.ok(
      caught.message.startsWith(
        "Rejected — nothing written.\n- x.txt: Anchor ",
      ),
    );
    assert.match(caught.message, /\n- x\.txt: Op 2 \(append\) has no lines/);
    assert.match(
      caught.message,
      /\n- x\.txt: Anchor 9:aa is out of range: the file has 4 lines/,
    );
    assert.equal(content, "a\r\nb\r\nc\r\nd\r\n");
  });

  it("a single kind of problem becomes the error code", () => {
    assert.throws(
      () =>
        editContent(content, [{
          op: "delete",
          start: staleAnchorOf(content, 1),
        }]),
      (e: unknown) =>
        e instanceof PatchRefusedError && e.code === "STALE_ANCHOR",
    );
  });

  it("memory catches a change the 2-hex fold misses", () => {
    const read = "one\ntwo\nthree\n";
    const memory = memoryFromHashes(splitLines(read).lines.map(lineHash32));
    const changed = `one\n${foldTwin("two")}\nthree\n`;
    const ops: PatchOp[] = [{
      op: "replace",
      start: anchorOf(read, 2),
      lines: ["2"],
    }];
    assert.equal(editContent(changed, ops).content, "one\n2\nthree\n");
    assert.throws(
      () => editContent(changed, ops, { memory }),
      /changed since it was read/,
    );
  });

  it("malformed ops are a TypeError naming the field", () => {
    assert.throws(
      () =>
        editContent(
          "a\n",
          [{ op: "replace", start: "1:aa" }] as unknown as PatchOp[],
        ),
      /ops\[0\]\.lines is missing/,
    );
    assert.throws(() => editContent(5 as unknown as string, []), TypeError);
  });
});

describe("editContent: new lines no read could show", () => {
  it("a line break, NUL or lone surrogate in a new line is refused and nothing changes", () => {
    const content = "a\nb\n";
    for (const line of ["x\ny", "x\r\n", "\0", "\uD800"]) {
      assert.throws(
        () => editContent(content, [{ op: "append", lines: [line] }]),
        (e: unknown) =>
          e instanceof PatchRefusedError && e.code === "BAD_LINE" &&
          /New line 1 of op 1 \(append\)/.test(e.message),
      );
    }
    assert.equal(content, "a\nb\n");
  });

  it('"literal": true writes a line that looks like a read prefix', () => {
    const content = "a\n";
    assert.throws(
      () => editContent(content, [{ op: "append", lines: ["1:ed|a"] }]),
      /PASTED_PREFIX|read prefix/,
    );
    assert.equal(
      editContent(content, [{ op: "append", lines: ["1:ed|a"], literal: true }])
        .content,
      "a\n1:ed|a\n",
    );
  });
});

describe("editContent: rebase", () => {
  const read = "one\ntwo\nthree\nfour\nfive\n";
  const memory = memoryFromHashes(splitLines(read).lines.map(lineHash32));
  const ops: PatchOp[] = [{
    op: "replace",
    start: anchorOf(read, 3),
    end: anchorOf(read, 4),
    lines: ["THREE", "FOUR"],
  }];
  const now = "zero\nminus\none\ntwo\nthree\nfour\nfive\n";

  it("without rebase, lines that moved are refused and say where they went", () => {
    assert.throws(
      () => editContent(now, ops, { memory }),
      /moved to line 5 → 5:/,
    );
  });

  it("with rebase, the op is applied where its lines stand now and named in the result", () => {
    const out = editContent(now, ops, { memory, rebase: true });
    assert.equal(out.content, "zero\nminus\none\ntwo\nTHREE\nFOUR\nfive\n");
    assert.deepEqual(out.rebased, ["op 1: lines 3–4 → 5–6"]);
    assert.equal(
      applyPatch(now, ops, { memory, rebase: true }),
      out.content,
    );
  });

  it("with rebase, a changed neighbour alone does not refuse", () => {
    const changed = now.replace("five", "FIVE");
    const out = editContent(changed, ops, { memory, rebase: true });
    assert.equal(out.content, "zero\nminus\none\ntwo\nTHREE\nFOUR\nFIVE\n");
    assert.deepEqual(out.rebased, ["op 1: lines 3–4 → 5–6"]);
  });

  it("with rebase, a changed line inside the region refuses", () => {
    const changed = now.replace("four", "FOUR!");
    assert.throws(
      () => editContent(changed, ops, { memory, rebase: true }),
      PatchRefusedError,
    );
  });

  it("rebase without a read record changes nothing", () => {
    assert.throws(
      () => editContent(now, ops, { rebase: true }),
      PatchRefusedError,
    );
    assert.deepEqual(editContent(read, ops, { rebase: true }).rebased, []);
  });
});

describe("applyPatch", () => {
  const content = "x\ny\n";
  const ops: PatchOp[] = [{
    op: "replace",
    start: anchorOf(content, 2),
    lines: ["Y"],
  }];
  const forms: [
    string,
    PatchOp[] | { files: { path: string; ops: PatchOp[] }[] } | string,
  ][] = [
    ["an ops array", ops],
    ["a Patch with one file", { files: [{ path: "any.txt", ops }] }],
    ["text form", `@@ any.txt\n= ${anchorOf(content, 2)}\n~Y\n`],
    ["text form without @@", `= ${anchorOf(content, 2)}|\n~Y`],
    ["JSON text", JSON.stringify({ files: [{ path: "a", ops }] })],
    ["JSON text of bare ops", JSON.stringify(ops)],
  ];
  for (const [name, patch] of forms) {
    it(`takes ${name}`, () =>
      assert.equal(applyPatch(content, patch), "x\nY\n"));
  }

  it("refuses a patch naming several files", () => {
    assert.throws(
      () =>
        applyPatch(content, {
          files: [{ path: "a", ops }, { path: "b", ops }],
        }),
      TypeError,
    );
  });

  it("an empty patch changes nothing", () => {
    assert.equal(applyPatch(content, ""), content);
    assert.equal(applyPatch(content, []), content);
  });

  it("a refusal starts with `Rejected — nothing written.`", () => {
    assert.throws(
      () => applyPatch(content, `- ${staleAnchorOf(content, 1)}`),
      (e: unknown) =>
        e instanceof PatchRefusedError &&
        e.message.startsWith("Rejected — nothing written.") &&
        e.message.includes(`${anchorOf(content, 1)}|x`),
    );
  });

  it("a text-form syntax error is a SyntaxError", () => {
    assert.throws(() => applyPatch(content, "- 1:aa\n~x"), SyntaxError);
  });
  it("refuses moves, copies and file operations rather than dropping them", () => {
    const a = (n: number) => anchorOf(content, n);
    for (
      const [text, part] of [
        [`= ${a(2)}\n~B\nm ${a(1)} > ${a(2)}`, "move"],
        [`c ${a(1)} > ${a(2)}`, "copy"],
        ["@@- f", "delete"],
        ["@@+ g", "create"],
        ["@@ a -> b", "rename"],
      ]
    ) {
      assert.throws(
        () => applyPatch(content, text),
        (e: unknown) =>
          e instanceof TypeError &&
          e.message.startsWith(`Cannot apply ${part} to the content given`) &&
          /openWorkspace\(root\)\.patch/.test(e.message),
        text,
      );
    }
  });
});
