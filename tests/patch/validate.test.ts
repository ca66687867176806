import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { lineHash32 } from "../../src/hash/fnv.ts";
import type { PatchOp } from "../../src/patch/types.ts";
import { linesNeeded, lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { planOps } from "../../src/patch/plan.ts";
import { validateOps } from "../../src/patch/validate.ts";
import { splitLines } from "../../src/anchor/split.ts";
import {
  anchorOf,
  foldTwin,
  guardedLookup,
  staleAnchorOf,
} from "./_fixture.ts";

const content =
  Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const lines = splitLines(content).lines;
const now = lookupFromLines(lines);
const A = (n: number): string => anchorOf(content, n);

function codes(ops: PatchOp[]): string[] {
  return validateOps(ops, now).map((p) => p.code);
}

describe("validateOps: §9 overlap rules", () => {
  const cases: [string, PatchOp[], string[]][] = [
    ["insert_after the first line of a replaced range is an overlap", [
      { op: "replace", start: A(3), end: A(5), lines: ["x"] },
      { op: "insert_after", anchor: A(3), lines: ["y"] },
    ], ["OVERLAP"]],
    ["insert_before the last line of a replaced range is an overlap", [
      { op: "replace", start: A(3), end: A(5), lines: ["x"] },
      { op: "insert_before", anchor: A(5), lines: ["y"] },
    ], ["OVERLAP"]],
    ["insert_after a line inside a deleted range is an overlap", [
      { op: "insert_after", anchor: A(4), lines: ["y"] },
      { op: "delete", start: A(3), end: A(5) },
    ], ["OVERLAP"]],
    ["insert on a single replaced line is an overlap", [
      { op: "replace", start: A(7), lines: [] },
      { op: "insert_before", anchor: A(7), lines: ["y"] },
    ], ["OVERLAP"]],
    ["overlapping ranges are an overlap", [
      { op: "delete", start: A(2), end: A(4) },
      { op: "replace", start: A(4), end: A(6), lines: ["x"] },
    ], ["OVERLAP"]],
    ["the same line twice is an overlap", [
      { op: "delete", start: A(2) },
      { op: "delete", start: A(2) },
    ], ["OVERLAP"]],
    ["a range inside another is an overlap", [
      { op: "delete", start: A(1), end: A(9) },
      { op: "delete", start: A(4), end: A(5) },
    ], ["OVERLAP"]],
    ["inserts next to a range are fine", [
      { op: "insert_after", anchor: A(2), lines: ["a"] },
      { op: "replace", start: A(3), end: A(5), lines: ["x"] },
      { op: "insert_before", anchor: A(6), lines: ["b"] },
    ], []],
    ["adjacent ranges are fine", [
      { op: "delete", start: A(1), end: A(2) },
      { op: "delete", start: A(3), end: A(4) },
    ], []],
    ["append and prepend never overlap", [
      { op: "delete", start: A(1), end: A(10) },
      { op: "append", lines: ["a"] },
      { op: "prepend", lines: ["b"] },
    ], []],
    ["several inserts into one gap are fine", [
      { op: "insert_after", anchor: A(4), lines: ["a"] },
      { op: "insert_before", anchor: A(5), lines: ["b"] },
      { op: "insert_after", anchor: A(4), lines: ["c"] },
    ], []],
  ];
  for (const [name, ops, expected] of cases) {
    it(name, () => assert.deepEqual(codes(ops), expected));
  }

  it("the overlap message names both ops and the line", () => {
    const [p] = validateOps([
      { op: "replace", start: A(3), end: A(5), lines: ["x"] },
      { op: "insert_after", anchor: A(5), lines: ["y"] },
    ], now);
    assert.equal(p.line, 5);
    assert.match(
      p.message,
      /op 2 \(insert_after 5:..\).*line 5.*op 1 \(replace 3:..\.\.5:..\) replaces/i,
    );
  });
});

describe("validateOps: §9 other rules", () => {
  for (
    const op of ["insert_after", "insert_before", "append", "prepend"] as const
  ) {
    it(`${op} with lines [] is refused as EMPTY_INSERT`, () => {
      const o = (op === "append" || op === "prepend"
        ? { op, lines: [] }
        : { op, anchor: A(2), lines: [] }) as PatchOp;
      assert.deepEqual(codes([o]), ["EMPTY_INSERT"]);
    });
  }

  it("replace with lines [] is allowed (it deletes)", () => {
    assert.deepEqual(codes([{ op: "replace", start: A(2), lines: [] }]), []);
  });

  it("a new line starting with a read prefix is refused as PASTED_PREFIX, for every op with lines", () => {
    const pasted = `${A(2)}|line 2`;
    const ops: PatchOp[] = [
      { op: "replace", start: A(2), lines: ["ok", pasted] },
      { op: "append", lines: ["12:AB|x"] },
      { op: "insert_after", anchor: A(5), lines: ["fine", "3:0e|y"] },
    ];
    const problems = validateOps(ops, now);
    assert.deepEqual(problems.map((p) => p.code), [
      "PASTED_PREFIX",
      "PASTED_PREFIX",
      "PASTED_PREFIX",
    ]);
    assert.match(problems[0].message, /New line 2 of op 1/);
    assert.match(problems[0].message, /"literal": true/);
  });

  it('"literal": true writes lines that begin with an anchor prefix as they are', () => {
    const ops: PatchOp[] = [
      { op: "replace", start: A(2), lines: ["12:a3|x"], literal: true },
      { op: "append", lines: ["1:00|y"], literal: true },
      { op: "insert_after", anchor: A(5), lines: ["3:0e|z"], literal: false },
    ];
    assert.deepEqual(codes(ops), ["PASTED_PREFIX"]);
  });

  const badLines: [string, string, RegExp][] = [
    ["a line break", "a\nb", /holds a line break at character 2/],
    ["a CRLF line break", "a\r\nb", /holds a line break at character 3/],
    ["a NUL", "a\0b", /holds a NUL character at character 2/],
    [
      "a lone high surrogate",
      "x\uD83D",
      /lone surrogate \(U\+D83D\) at character 2/,
    ],
    [
      "a lone low surrogate",
      "\uDE00x",
      /lone surrogate \(U\+DE00\) at character 1/,
    ],
  ];
  for (const [name, line, message] of badLines) {
    it(`a new line holding ${name} is refused as BAD_LINE naming op and line`, () => {
      for (const literal of [false, true]) {
        const problems = validateOps([
          { op: "append", lines: ["ok", line], literal },
        ], now);
        assert.deepEqual(problems.map((p) => p.code), ["BAD_LINE"]);
        assert.match(problems[0].message, /^New line 2 of op 1 \(append\)/);
        assert.match(problems[0].message, message);
      }
    });
  }

  it("a lone CR and a whole surrogate pair are content, not bad lines", () => {
    assert.deepEqual(
      codes([{ op: "append", lines: ["a\rb", "x\r", "😀", "\r"] }]),
      [],
    );
  });

  it("many bad lines are named up to three, then counted", () => {
    const problems = validateOps([
      { op: "prepend", lines: ["a\0", "b\0", "c\0", "d\0", "e\0"] },
    ], now);
    assert.equal(problems.length, 4);
    assert.match(problems[3].message, /has 2 more bad new lines/);
  });

  it("a line that only contains an anchor later is fine", () => {
    assert.deepEqual(
      codes([{ op: "append", lines: ["see 12:a3|x", "12:a3 x"] }]),
      [],
    );
  });

  it("an anchor past the end is OUT_OF_RANGE and names the line count", () => {
    const [p] = validateOps([{ op: "delete", start: "11:aa" }], now);
    assert.equal(p.code, "OUT_OF_RANGE");
    assert.equal(p.line, 11);
    assert.match(
      p.message,
      /Anchor 11:aa is out of range: the file has 10 lines/,
    );
  });

  it("any anchor on an empty file is OUT_OF_RANGE and points to append/prepend", () => {
    const [p] = validateOps([{
      op: "insert_after",
      anchor: "1:c5",
      lines: ["x"],
    }], lookupFromLines([]));
    assert.equal(p.code, "OUT_OF_RANGE");
    assert.match(p.message, /0 lines.*append or prepend/);
  });

  it("an anchor that does not parse is BAD_ANCHOR naming it", () => {
    const [p] = validateOps([{ op: "delete", start: "three" }], now);
    assert.equal(p.code, "BAD_ANCHOR");
    assert.match(p.message, /"three" is not an anchor/);
  });

  it("a range that ends before it starts is BAD_RANGE", () => {
    const [p] = validateOps([{ op: "delete", start: A(5), end: A(3) }], now);
    assert.equal(p.code, "BAD_RANGE");
  });

  it("uppercase hex and the read suffix are accepted in JSON ops too", () => {
    assert.deepEqual(
      codes([{ op: "delete", start: `${A(2).toUpperCase()}|` }]),
      [],
    );
  });

  it("every problem is listed, in op order", () => {
    const problems = validateOps(
      [
        { op: "delete", start: staleAnchorOf(content, 1) },
        { op: "append", lines: [] },
        { op: "delete", start: "99:aa" },
        { op: "replace", start: A(4), end: A(6), lines: ["1:aa|x"] },
        { op: "insert_after", anchor: A(5), lines: ["y"] },
      ],
      now,
      { path: "src/a.ts" },
    );
    assert.deepEqual(problems.map((p) => p.code), [
      "STALE_ANCHOR",
      "EMPTY_INSERT",
      "OUT_OF_RANGE",
      "PASTED_PREFIX",
      "OVERLAP",
    ]);
    assert.ok(problems.every((p) => p.path === "src/a.ts"));
  });
});

describe("validateOps: stale anchors", () => {
  it("a stale anchor shows the current lines ±2 with fresh anchors", () => {
    const [p] = validateOps([{
      op: "replace",
      start: staleAnchorOf(content, 5),
      lines: ["x"],
    }], now);
    assert.equal(p.code, "STALE_ANCHOR");
    assert.equal(p.line, 5);
    const expected = [3, 4, 5, 6, 7].map((n) => `${A(n)}|line ${n}`).join("\n");
    assert.ok(
      p.message.startsWith(
        `Anchor ${staleAnchorOf(content, 5)} is stale: line 5 now reads ${
          A(5)
        }.`,
      ),
      p.message,
    );
    assert.ok(
      p.message.endsWith(`Resend with these anchors:\n${expected}`),
      p.message,
    );
    assert.deepEqual(p.shown, [{
      start: 3,
      hashes: [3, 4, 5, 6, 7].map((n) => lineHash32(`line ${n}`)),
    }]);
  });

  it("context is clipped at the file's edges", () => {
    const [p] = validateOps([{
      op: "delete",
      start: staleAnchorOf(content, 1),
    }], now);
    assert.ok(
      p.message.endsWith(`\n${A(1)}|line 1\n${A(2)}|line 2\n${A(3)}|line 3`),
    );
  });

  it("where memory shows the old line now stands at one other line, it says `moved to line N → N:HH`", () => {
    const read = "a\nb\nc\nd\n";
    const memory = memoryFromHashes(splitLines(read).lines.map(lineHash32));
    const after = "new 1\nnew 2\na\nb\nc\nd\n";
    const [p] = validateOps(
      [{ op: "replace", start: anchorOf(read, 3), lines: ["C"] }],
      lookupFromLines(splitLines(after).lines),
      { memory },
    );
    assert.equal(p.code, "STALE_ANCHOR");
    assert.match(
      p.message,
      new RegExp(`moved to line 5 → ${anchorOf(after, 5)}`),
    );
  });

  it("an out-of-range anchor whose line moved says so too", () => {
    const read = "a\nb\nc\n";
    const memory = memoryFromHashes(splitLines(read).lines.map(lineHash32));
    const after = "c\n";
    const [p] = validateOps(
      [{ op: "delete", start: anchorOf(read, 3) }],
      lookupFromLines(splitLines(after).lines),
      { memory },
    );
    assert.equal(p.code, "OUT_OF_RANGE");
    assert.match(p.message, /moved to line 1 → 1:/);
  });

  it("no `moved to` when the old content stands at several lines now", () => {
    const read = "a\nb\nc\n";
    const memory = memoryFromHashes(splitLines(read).lines.map(lineHash32));
    const after = "x\ny\nz\nc\nc\n";
    const [p] = validateOps(
      [{ op: "delete", start: anchorOf(read, 3) }],
      lookupFromLines(splitLines(after).lines),
      { memory },
    );
    assert.equal(p.code, "STALE_ANCHOR");
    assert.doesNotMatch(p.message, /moved/);
  });

  it("a fold collision is caught by the remembered full hash", () => {
    const twin = foldTwin("line 5");
    const changed = lines.slice();
    changed[4] = twin;
    const memory = memoryFromHashes(lines.map(lineHash32));
    const op: PatchOp = { op: "delete", start: A(5) };
    assert.deepEqual(
      validateOps([op], lookupFromLines(changed)),
      [],
      "the fold alone cannot see it",
    );
    const [p] = validateOps([op], lookupFromLines(changed), { memory });
    assert.equal(p.code, "STALE_ANCHOR");
    assert.match(p.message, /changed since it was read/);
    assert.ok(
      p.message.includes(`${A(5)}|${twin}`),
      "shows the new line with its anchor",
    );
  });

  it("memory that agrees with the file changes nothing", () => {
    const memory = memoryFromHashes(lines.map(lineHash32));
    assert.deepEqual(
      validateOps([{ op: "delete", start: A(5) }], now, { memory }),
      [],
    );
  });

  it("the same stale anchor in two ops is reported once", () => {
    const stale = staleAnchorOf(content, 5);
    assert.deepEqual(
      codes([{ op: "delete", start: stale }, {
        op: "insert_before",
        anchor: stale,
        lines: ["x"],
      }]),
      [
        "STALE_ANCHOR",
        "OVERLAP",
      ],
    );
  });
});

describe("linesNeeded", () => {
  it("lists anchored lines ±2 (clipped) and remembered hashes", () => {
    const memory = memoryFromHashes(new Map([[2, 111], [9, 222]]));
    const need = linesNeeded([
      { op: "delete", start: "2:aa", end: "3:bb" },
      { op: "insert_after", anchor: "9:cc", lines: ["x"] },
      { op: "append", lines: ["y"] },
      { op: "delete", start: "bad" },
    ], { memory, lineCount: 10 });
    assert.deepEqual(need, {
      lines: [1, 2, 3, 4, 5, 7, 8, 9, 10],
      hashes: [111, 222],
    });
  });

  it("validateOps asks the lookup only for what linesNeeded lists", () => {
    const read = Array.from({ length: 40 }, (_, i) => `r${i}`);
    const memory = memoryFromHashes(read.map(lineHash32));
    const nowLines = [
      "inserted",
      ...read.slice(0, 20),
      "changed",
      ...read.slice(21),
    ];
    const readText = read.join("\n") + "\n";
    const ops: PatchOp[] = [
      {
        op: "replace",
        start: anchorOf(readText, 10),
        end: anchorOf(readText, 12),
        lines: ["x"],
      },
      { op: "delete", start: anchorOf(readText, 21) },
      { op: "insert_before", anchor: "1:zz", lines: ["y"] },
      { op: "delete", start: anchorOf(readText, 40) },
      { op: "delete", start: "45:aa" },
    ];
    const need = linesNeeded(ops, { memory, lineCount: nowLines.length });
    const guarded = guardedLookup(nowLines, need.lines, need.hashes);
    const problems = validateOps(ops, guarded, { memory });
    assert.ok(problems.length >= 4);
    assert.ok(guarded.asked.size > 0);
  });
});

describe("planOps", () => {
  it("§9 inserts into the same gap land in op order (insert_after L, insert_before L+1)", () => {
    assert.deepEqual(
      planOps([
        { op: "insert_before", anchor: "3:aa", lines: ["b"] },
        { op: "insert_after", anchor: "2:aa", lines: ["a"] },
        { op: "insert_before", anchor: "3:aa", lines: ["c"] },
      ], 5),
      [
        { at: 3, deleteCount: 0, lines: ["b"] },
        { at: 3, deleteCount: 0, lines: ["a"] },
        { at: 3, deleteCount: 0, lines: ["c"] },
      ],
    );
  });

  it("§9 append and prepend on an empty file land in op order", () => {
    assert.deepEqual(
      planOps([
        { op: "append", lines: ["a"] },
        { op: "prepend", lines: ["p"] },
      ], 0),
      [
        { at: 1, deleteCount: 0, lines: ["a"] },
        { at: 1, deleteCount: 0, lines: ["p"] },
      ],
    );
  });

  it("inserts come before a replacement at the same line; edits sort by line", () => {
    assert.deepEqual(
      planOps([
        { op: "delete", start: "5:aa", end: "6:bb" },
        { op: "replace", start: "2:aa", lines: [] },
        { op: "insert_after", anchor: "1:aa", lines: ["x"] },
      ], 6),
      [
        { at: 2, deleteCount: 0, lines: ["x"] },
        { at: 2, deleteCount: 1, lines: [] },
        { at: 5, deleteCount: 2, lines: [] },
      ],
    );
  });

  it("new lines are planned exactly as given (validation refuses line breaks)", () => {
    assert.deepEqual(planOps([{ op: "append", lines: ["a\rb", ""] }], 1), [
      { at: 2, deleteCount: 0, lines: ["a\rb", ""] },
    ]);
  });
});

describe("lookupFromLines / memoryFromHashes", () => {
  it("finds every line with a hash", () => {
    const l = lookupFromLines(["a", "b", "a"]);
    assert.deepEqual(l.linesWithHash(lineHash32("a")), [1, 3]);
    assert.deepEqual(l.linesWithHash(12345), []);
  });
  it("array memory has holes for unseen lines", () => {
    const m = memoryFromHashes([1, undefined, 3]);
    assert.deepEqual([
      m.hash32(1),
      m.hash32(2),
      m.hash32(3),
      m.hash32(0),
      m.hash32(4),
    ], [1, undefined, 3, undefined, undefined]);
  });
});

/** The read record after a refusal's shown lines were entered into it. */
function withShown(
  memory: Map<number, number>,
  problems: { shown?: { start: number; hashes: number[] }[] }[],
): Map<number, number> {
  const next = new Map(memory);
  for (const p of problems) {
    for (const run of p.shown ?? []) {
      run.hashes.forEach((h, k) => next.set(run.start + k, h));
    }
  }
  return next;
}

/** Anchors `N:HH` as a model would pick them out of a refusal's text. */
function anchorsIn(message: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of message.matchAll(/^(\d+):([0-9a-f]{2})\|/gm)) {
    out.set(Number(m[1]), `${m[1]}:${m[2]}`);
  }
  return out;
}

describe("validateOps: lines inside a range", () => {
  const read = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);
  const readText = read.join("\n") + "\n";
  const R = (n: number): string => anchorOf(readText, n);
  const memory = new Map(read.map((l, i) => [i + 1, lineHash32(l)]));

  it("an interior line the session saw that changed makes the op stale, showing it with fresh anchors", () => {
    const changed = read.slice();
    changed[5] = "someone else's row 6";
    const ops: PatchOp[] = [
      { op: "replace", start: R(4), end: R(8), lines: ["mine"] },
    ];
    const problems = validateOps(ops, lookupFromLines(changed), {
      memory: memoryFromHashes(memory),
    });
    assert.deepEqual(problems.map((p) => [p.code, p.line]), [[
      "STALE_ANCHOR",
      6,
    ]]);
    const [p] = problems;
    assert.match(
      p.message,
      /^Line 6 inside op 1 \(replace 4:..\.\.8:..\) changed since it was read: the range edit would discard that change\. Resend with these anchors:\n4:/,
    );
    assert.ok(
      p.message.includes(
        `6:${
          anchorOf(changed.join("\n"), 6).split(":")[1]
        }|someone else's row 6`,
      ),
    );
    assert.deepEqual(p.shown, [{
      start: 4,
      hashes: [4, 5, 6, 7, 8].map((n) => lineHash32(changed[n - 1])),
    }]);
    assert.deepEqual(
      validateOps(ops, lookupFromLines(changed)),
      [],
      "without a read record there is nothing to compare the interior with",
    );
    const deleted = validateOps(
      [{ op: "delete", start: R(2), end: R(10) }],
      lookupFromLines(changed),
      { memory: memoryFromHashes(memory) },
    );
    assert.deepEqual(deleted.map((p) => p.code), ["STALE_ANCHOR"]);
  });

  it("interior lines the session never saw are not held against the op", () => {
    const changed = read.slice();
    changed[5] = "changed unseen";
    const partial = new Map([...memory].filter(([n]) => n !== 6));
    assert.deepEqual(
      validateOps(
        [{ op: "delete", start: R(4), end: R(8) }],
        lookupFromLines(changed),
        { memory: memoryFromHashes(partial) },
      ),
      [],
    );
  });

  it("several changed interior lines are one problem naming them all", () => {
    const changed = read.slice();
    changed[3] = "x4";
    changed[8] = "x9";
    const [p, ...rest] = validateOps(
      [{ op: "delete", start: R(2), end: R(11) }],
      lookupFromLines(changed),
      { memory: memoryFromHashes(memory) },
    );
    assert.equal(rest.length, 0);
    assert.match(p.message, /^2 lines inside op 1 .* \(line 4, 9\)/);
    assert.deepEqual(p.shown?.map((r) => [r.start, r.hashes.length]), [
      [2, 10],
    ]);
  });

  it("the refusal's lines count as read: a resend built from them passes", () => {
    const changed = read.slice();
    changed[6] = "row 7, edited elsewhere";
    const now = lookupFromLines(changed);
    const first: PatchOp[] = [
      { op: "replace", start: R(5), end: R(9), lines: ["merged"] },
    ];
    const refused = validateOps(first, now, {
      memory: memoryFromHashes(memory),
    });
    assert.equal(refused.length, 1);
    const fresh = anchorsIn(refused[0].message);
    const resend: PatchOp[] = [
      {
        op: "replace",
        start: fresh.get(5)!,
        end: fresh.get(9)!,
        lines: ["merged"],
      },
    ];
    assert.equal(
      validateOps(resend, now, { memory: memoryFromHashes(memory) })[0]?.code,
      "STALE_ANCHOR",
      "without entering the shown lines, the old record still refuses",
    );
    assert.deepEqual(
      validateOps(resend, now, {
        memory: memoryFromHashes(withShown(memory, refused)),
      }),
      [],
    );
  });

  it("a stale end anchor that the record catches closes the loop the same way", () => {
    const changed = read.slice();
    changed[2] = foldTwin("row 3");
    const now = lookupFromLines(changed);
    const refused = validateOps(
      [{ op: "delete", start: R(3) }],
      now,
      { memory: memoryFromHashes(memory) },
    );
    assert.match(refused[0].message, /changed since it was read/);
    const fresh = anchorsIn(refused[0].message);
    assert.deepEqual(
      validateOps([{ op: "delete", start: fresh.get(3)! }], now, {
        memory: memoryFromHashes(withShown(memory, refused)),
      }),
      [],
    );
  });

  it("when the op's lines moved and are more than the refusal shows, it says which lines to re-read", () => {
    const now = lookupFromLines(["new a", "new b", "new c", ...read]);
    const [p1, p2] = validateOps(
      [{ op: "replace", start: R(2), end: R(9), lines: ["x"] }],
      now,
      { memory: memoryFromHashes(memory) },
    );
    for (const p of [p1, p2]) {
      assert.match(
        p.message,
        /Re-read lines 5–12, then resend op 1 \(replace 2:..\.\.9:..\): it covers more lines than this shows\. Current lines:\n/,
      );
    }
    assert.match(p1.message, /moved to line 5 → 5:/);
    assert.ok(
      p1.shown?.some((r) => r.start === 5 && r.hashes[0] === memory.get(2)),
    );
  });

  it("a single moved line says to resend with the anchor it moved to, and that anchor then passes", () => {
    const now = lookupFromLines(["new a", "new b", ...read]);
    const ops: PatchOp[] = [{ op: "delete", start: R(7) }];
    const refused = validateOps(ops, now, { memory: memoryFromHashes(memory) });
    assert.equal(refused.length, 1);
    assert.match(
      refused[0].message,
      /moved to line 9 → 9:..\. Resend with the anchor it moved to\. Current lines:\n5:/,
    );
    const moved = /moved to line 9 → (9:..)/.exec(refused[0].message)![1];
    assert.deepEqual(
      validateOps([{ op: "delete", start: moved }], now, {
        memory: memoryFromHashes(withShown(memory, refused)),
      }),
      [],
    );
  });
});
