/**
 * The rules between the parts of one patch (`patch/file_ops.ts`), judged
 * without a file system: lines as they stand and read records in, a plan
 * per file or typed problems out; and the text form of moves and file
 * operations, read and written back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lineHash32 } from "../../src/hash/fnv.ts";
import { listEntries } from "../../src/history/view.ts";
import { lineHash } from "../../src/hash/mod.ts";
import {
  landedAt,
  type PathState,
  planFileOps,
} from "../../src/patch/file_ops.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { formatPatchText, parsePatch } from "../../src/patch/parse.ts";
import type { Patch } from "../../src/patch/types.ts";

const at = (lines: string[], n: number) => `${n}:${lineHash(lines[n - 1])}`;

function file(lines: string[], read: boolean | number = true): PathState {
  const seen = read === true ? lines.length : read === false ? 0 : read;
  return {
    exists: true,
    lines: lookupFromLines(lines),
    eol: lines.length > 0 ? "\n" : null,
    ...(read === false
      ? {}
      : { memory: memoryFromHashes(lines.slice(0, seen).map(lineHash32)) }),
  };
}

const A = ["a1", "a2", "a3", "a4", "a5"];
const B = ["b1", "b2"];

function judge(patch: Patch, files: Record<string, PathState>) {
  return planFileOps(patch, (p) => files[p] ?? { exists: false });
}

const codes = (r: ReturnType<typeof judge>) => r.problems.map((p) => p.code);

describe("rules between the parts of a patch", () => {
  it(
    "a move becomes a delete at the source and an insert of the exact lines at the target",
    {
      timeout: 10_000,
    },
    () => {
      const r = judge({
        files: [{
          path: "a",
          ops: [],
          moves: [{
            op: "move",
            start: at(A, 2),
            end: at(A, 3),
            to: "b",
            after: at(B, 1),
          }],
        }],
      }, { a: file(A), b: file(B) });
      assert.deepEqual(r.problems, []);
      assert.deepEqual(r.files[0].ops, [{
        op: "delete",
        start: at(A, 2),
        end: at(A, 3),
      }]);
      assert.deepEqual(r.files[1], {
        path: "b",
        action: "edit",
        ops: [{
          op: "insert_after",
          anchor: at(B, 1),
          lines: ["a2", "a3"],
          literal: true,
        }],
      });
      assert.deepEqual(r.moves, [{
        op: "move",
        from: "a",
        start: 2,
        end: 3,
        to: "b",
        index: 0,
      }]);
    },
  );

  it(
    "a target inside the moved range is OVERLAP; a copy may land right below its lines",
    {
      timeout: 10_000,
    },
    () => {
      const inside = judge({
        files: [{
          path: "a",
          ops: [],
          moves: [{
            op: "move",
            start: at(A, 2),
            end: at(A, 4),
            after: at(A, 3),
          }],
        }],
      }, { a: file(A) });
      assert.deepEqual(codes(inside), ["OVERLAP"]);
      const below = judge({
        files: [{
          path: "a",
          ops: [],
          moves: [{
            op: "copy",
            start: at(A, 2),
            end: at(A, 4),
            after: at(A, 4),
          }],
        }],
      }, { a: file(A) });
      assert.deepEqual(below.problems, []);
      assert.equal(landedAt(below.files[0].ops, 0, A.length), 5);
    },
  );

  it("a copy source must be read, unchanged, and free of other ops", {
    timeout: 10_000,
  }, () => {
    const changed = [...A];
    changed[2] = "A3";
    const stale = judge({
      files: [{
        path: "a",
        ops: [],
        moves: [{
          op: "copy",
          start: at(A, 2),
          end: at(A, 3),
          after: at(A, 5),
        }],
      }],
    }, {
      a: {
        ...file(changed),
        memory: memoryFromHashes(A.map(lineHash32)),
      },
    });
    assert.deepEqual(codes(stale), ["STALE_ANCHOR"]);
    const overlap = judge({
      files: [{
        path: "a",
        ops: [{ op: "replace", start: at(A, 3), lines: ["x"] }],
        moves: [{
          op: "copy",
          start: at(A, 2),
          end: at(A, 3),
          after: at(A, 5),
        }],
      }],
    }, { a: file(A) });
    assert.deepEqual(codes(overlap), ["OVERLAP"]);
    assert.match(overlap.problems[0].message, /op 1 \(replace lines 3–3\)/);
  });

  it(
    "targets: unread NOT_READ, missing NOT_FOUND, a file with lines needs a gap, a deleted one OVERLAP",
    {
      timeout: 10_000,
    },
    () => {
      const move = (to: string, extra = {}) => ({
        files: [{
          path: "a",
          ops: [],
          moves: [{ op: "move" as const, start: at(A, 1), to, ...extra }],
        }, ...(to === "b" ? [] : [])],
      });
      assert.deepEqual(
        codes(
          judge(move("b", { after: at(B, 1) }), {
            a: file(A),
            b: file(B, false),
          }),
        ),
        ["NOT_READ"],
      );
      assert.deepEqual(codes(judge(move("nope"), { a: file(A) })), [
        "NOT_FOUND",
      ]);
      assert.deepEqual(
        codes(judge(move("b"), { a: file(A), b: file(B) })),
        ["BAD_INPUT"],
      );
      const deleted = judge({
        files: [
          {
            path: "a",
            ops: [],
            moves: [{ op: "move", start: at(A, 1), to: "b" }],
          },
          { path: "b", ops: [], delete: true },
        ],
      }, { a: file(A), b: file(B) });
      assert.deepEqual(codes(deleted), ["OVERLAP"]);
      assert.match(deleted.problems[0].message, /"b".*deletion of "b"/);
    },
  );

  it(
    "into a created file, after its own appends, with the source's terminator",
    {
      timeout: 10_000,
    },
    () => {
      const r = judge({
        files: [
          {
            path: "a",
            ops: [],
            moves: [{ op: "copy", start: at(A, 1), to: "n" }],
          },
          { path: "n", ops: [{ op: "append", lines: ["own"] }], create: true },
        ],
      }, { a: { ...file(A), eol: "\r\n" } });
      assert.deepEqual(r.problems, []);
      const n = r.files.find((f) => f.path === "n")!;
      assert.equal(n.eol, "\r\n");
      assert.deepEqual(n.ops.map((o) => "lines" in o ? o.lines : []), [
        ["own"],
        ["a1"],
      ]);
      assert.equal(landedAt(n.ops, 1, 0), 2);
    },
  );

  it(
    "file operations: EXISTS, NOT_FOUND, delete needs every line and takes no ops",
    {
      timeout: 10_000,
    },
    () => {
      assert.deepEqual(
        codes(
          judge({ files: [{ path: "a", ops: [], create: true }] }, {
            a: file(A),
          }),
        ),
        ["EXISTS"],
      );
      assert.deepEqual(
        codes(
          judge({ files: [{ path: "a", ops: [], rename: "b" }] }, {
            a: file(A),
            b: file(B),
          }),
        ),
        ["EXISTS"],
      );
      assert.deepEqual(
        codes(judge({ files: [{ path: "x", ops: [], delete: true }] }, {})),
        ["NOT_FOUND"],
      );
      assert.deepEqual(
        codes(
          judge({ files: [{ path: "a", ops: [], delete: true }] }, {
            a: file(A, 2),
          }),
        ),
        ["NOT_READ"],
      );
      const grown = {
        ...file([...A, "a6"]),
        memory: memoryFromHashes(A.map(lineHash32)),
      };
      grown.memory.lineCount = A.length;
      assert.deepEqual(
        codes(
          judge({ files: [{ path: "a", ops: [], delete: true }] }, {
            a: grown,
          }),
        ),
        ["CHANGED"],
      );
      assert.deepEqual(
        codes(judge({
          files: [{
            path: "a",
            ops: [{ op: "delete", start: at(A, 1) }],
            delete: true,
          }],
        }, { a: file(A) })),
        ["BAD_INPUT"],
      );
      assert.deepEqual(
        codes(
          judge({ files: [{ path: "a", ops: [], rename: "c" }] }, {
            a: file(A, false),
          }),
        ),
        ["NOT_READ"],
      );
      assert.deepEqual(
        codes(judge({
          files: [
            { path: "a", ops: [], rename: "c" },
            { path: "b", ops: [], rename: "c" },
          ],
        }, { a: file(A), b: file(B) })),
        ["OVERLAP"],
      );
      assert.deepEqual(
        codes(judge({ files: [{ path: "a", ops: [], rename: "A" }] }, {
          a: file(A),
          A: { ...file(A), sameAs: "a" },
        })),
        [],
      );
    },
  );

  it(
    "block anchors in moves are NOT_A_BLOCK for now; * on end or before is BAD_ANCHOR",
    {
      timeout: 10_000,
    },
    () => {
      const one = (extra: object) =>
        codes(judge({
          files: [{
            path: "a",
            ops: [],
            moves: [{ op: "move", start: at(A, 1), ...extra }],
          }],
        }, { a: file(A) }));
      assert.deepEqual(one({ start: `${at(A, 1)}*`, after: at(A, 5) }), [
        "NOT_A_BLOCK",
      ]);
      assert.deepEqual(one({ after: `${at(A, 5)}*` }), ["NOT_A_BLOCK"]);
      assert.deepEqual(one({ end: `${at(A, 2)}*`, after: at(A, 5) }), [
        "BAD_ANCHOR",
      ]);
      assert.deepEqual(one({ before: `${at(A, 5)}*` }), ["BAD_ANCHOR"]);
      assert.deepEqual(one({ after: at(A, 5), before: at(A, 4) }), [
        "BAD_INPUT",
      ]);
    },
  );
});

describe("text form of moves and file operations", () => {
  it(
    "reads every header and op line and writes them back",
    { timeout: 10_000 },
    () => {
      const text = [
        "@@ a.ts",
        "m 3:aa..5:bb > 9:cc",
        "c 2:aa < 1:bb",
        "m 4:aa* > other.ts:12:a3*",
        "@@+ new/x.ts",
        "+",
        "~hello",
        "@@- gone.ts",
        "@@ old.ts -> new.ts",
        "= 1:aa",
        "~x",
        "c 2:bb > empty.ts",
        "",
      ].join("\n");
      const patch = parsePatch(text);
      assert.deepEqual(patch.files, [
        {
          path: "a.ts",
          ops: [],
          moves: [
            { op: "move", start: "3:aa", end: "5:bb", after: "9:cc" },
            { op: "copy", start: "2:aa", before: "1:bb" },
            { op: "move", start: "4:aa*", to: "other.ts", after: "12:a3*" },
          ],
        },
        {
          path: "new/x.ts",
          ops: [{ op: "append", lines: ["hello"] }],
          create: true,
        },
        { path: "gone.ts", ops: [], delete: true },
        {
          path: "old.ts",
          ops: [{ op: "replace", start: "1:aa", lines: ["x"] }],
          rename: "new.ts",
          moves: [{ op: "copy", start: "2:bb", to: "empty.ts" }],
        },
      ]);
      assert.equal(formatPatchText(patch), text);
      assert.deepEqual(parsePatch(JSON.stringify(patch)), patch);
    },
  );

  it("refuses a move line without a target, and < into a whole file", {
    timeout: 10_000,
  }, () => {
    assert.throws(
      () => parsePatch("@@ a\nm 1:aa >"),
      /line 2: .*needs a target/,
    );
    assert.throws(
      () => parsePatch("@@ a\nm 1:aa < b.ts"),
      /line 2: .*"> b\.ts"/,
    );
    assert.throws(() => parsePatch("@@ a ->\n"), /line 1: a rename needs/);
    assert.deepEqual(
      parsePatch("@@ a\nm 1:aa > src/b.ts:167:14\n").files[0].moves,
      [
        { op: "move", start: "1:aa", to: "src/b.ts", after: "167:14" },
      ],
    );
  });
});

describe("history of renames", () => {
  it("--path matches the new name and the old one", { timeout: 10_000 }, () => {
    const record = {
      id: "h_1",
      time: "2026-01-01T00:00:00.000Z",
      session: "s",
      door: "library" as const,
      summary: "Renamed a → b (+0 -0)",
      files: [{ path: "b", renamedFrom: "a", added: 0, removed: 0, hunks: [] }],
    };
    for (const path of ["a", "b"]) {
      assert.deepEqual(listEntries([record], { path }).map((e) => e.id), [
        "h_1",
      ]);
    }
    assert.deepEqual(listEntries([record], { path: "c" }), []);
    assert.equal(listEntries([record], {})[0].files[0].renamedFrom, "a");
  });
});
