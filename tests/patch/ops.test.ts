import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  anchorsOf,
  blockFieldOf,
  editOf,
  type FieldKind,
  LINE_OPS,
  mapAnchors,
  misplacedBlocks,
  namesNoLine,
  OP_ROWS,
  opWhere,
  rowOf,
  withBlock,
} from "../../src/patch/ops.ts";
import { formatPatchText, parsePatch } from "../../src/patch/parse.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";
import { planPatch } from "../../src/patch/plan.ts";
import { opLabel } from "../../src/patch/problems.ts";
import { EntryOpSchema, PatchOpSchema } from "../../src/patch/shapes.ts";
import type { EntryOp, PatchOp } from "../../src/patch/types.ts";

// Anchors of lines 2 and 4 of FILE, so every op below is fresh.
const FILE = ["a", "b", "c", "d", "e"];
const SAMPLE: Record<FieldKind, unknown> = {
  "anchor": "2:23",
  "anchor?": "4:ba",
  "lines": ["x"],
  "flag?": true,
  "path?": "b.txt",
};

/** The op of a row with every field it declares filled in. */
function full(kind: string): EntryOp {
  const op: Record<string, unknown> = { op: kind };
  for (const [field, k] of Object.entries(rowOf(kind).fields)) {
    op[field] = SAMPLE[k];
  }
  // A move takes one of after or before.
  if (rowOf(kind).region === "source") delete op.before;
  return op as unknown as EntryOp;
}

describe("patch/ops: the op table", () => {
  it("lists every op once, line edits first, in the order unknown-op messages name them", () => {
    assert.deepEqual(OP_ROWS.map((r) => r.kind), [
      "replace",
      "delete",
      "insert_after",
      "insert_before",
      "append",
      "prepend",
      "move",
      "copy",
    ]);
    const bad = EntryOpSchema.safeParse({ op: "swap" });
    assert.equal(bad.success, false);
    assert.match(
      String(!bad.success && bad.error.message),
      /replace, delete, insert_after, insert_before, append, prepend, move, copy/,
    );
  });

  for (const row of OP_ROWS) {
    it(`${row.kind}: its schema takes exactly the fields its row declares`, () => {
      const op = full(row.kind);
      assert.deepEqual(EntryOpSchema.parse(op), op);
      assert.equal(
        EntryOpSchema.safeParse({ ...op, extra: 1 }).success,
        false,
        "an undeclared field is refused",
      );
      for (const [field, k] of Object.entries(row.fields)) {
        if (k.endsWith("?")) continue;
        const without = { ...op } as Record<string, unknown>;
        delete without[field];
        assert.equal(
          EntryOpSchema.safeParse(without).success,
          false,
          `${row.kind} without ${field} is refused`,
        );
      }
      assert.equal(
        PatchOpSchema.safeParse(op).success,
        row.region !== "source",
        "only line edits are patch ops; moves stand in file entries",
      );
    });
  }

  for (const row of Object.values(LINE_OPS)) {
    it(`${row.kind}: the text form writes and reads it back through its symbol`, () => {
      const op = full(row.kind) as PatchOp;
      const { literal: _, ...plain } = op as PatchOp & { literal?: boolean };
      const text = formatPatchText({
        files: [{ path: "a.txt", ops: [plain] }],
      });
      assert.equal(text.split("\n")[1].split(" ")[0], row.text);
      assert.deepEqual(parsePatch(text).files[0].ops, [plain]);
    });
  }

  it("names each op in messages by its label fields", () => {
    const labels = Object.keys(LINE_OPS).map((k) =>
      opLabel(full(k) as PatchOp, 0)
    );
    assert.deepEqual(labels, [
      "op 1 (replace 2:23..4:ba)",
      "op 1 (delete 2:23..4:ba)",
      "op 1 (insert_after 2:23)",
      "op 1 (insert_before 2:23)",
      "op 1 (append)",
      "op 1 (prepend)",
    ]);
    assert.equal(opWhere(full("move")), " 2:23..4:ba");
  });

  it("rewrites every anchor field in order, and only those", () => {
    for (const kind of Object.keys(LINE_OPS)) {
      const op = full(kind);
      const out = mapAnchors(op, (t, _f, i) => `${i}|${t}`);
      assert.deepEqual(
        anchorsOf(out),
        anchorsOf(op).map((t, i) => `${i}|${t}`),
      );
      if (anchorsOf(op).length === 0) assert.equal(out, op);
    }
    assert.deepEqual(anchorsOf(full("copy")), ["2:23", "4:ba", "4:ba"]);
  });

  it("places each op's lines where planning puts them", () => {
    const cases: [string, { at: number; deleteCount: number }][] = [
      ["replace", { at: 2, deleteCount: 3 }],
      ["delete", { at: 2, deleteCount: 3 }],
      ["insert_after", { at: 3, deleteCount: 0 }],
      ["insert_before", { at: 2, deleteCount: 0 }],
      ["append", { at: 6, deleteCount: 0 }],
      ["prepend", { at: 1, deleteCount: 0 }],
    ];
    for (const [kind, where] of cases) {
      const op = full(kind) as PatchOp;
      const lines = kind === "delete" ? [] : ["x"];
      assert.deepEqual(editOf(op, () => FILE.length), { ...where, lines });
      const plan = planPatch(lookupFromLines(FILE), [op]);
      assert.deepEqual(plan.problems, [], kind);
      assert.deepEqual(plan.plan, [{ ...where, lines }], kind);
    }
  });

  it("knows which ops name no line and where a block anchor may stand", () => {
    assert.deepEqual(
      OP_ROWS.filter((r) => namesNoLine(full(r.kind))).map((r) => r.kind),
      ["append", "prepend"],
    );
    assert.deepEqual(
      Object.keys(LINE_OPS).map((k) => blockFieldOf(full(k)) ?? null),
      ["start", "start", "anchor", null, null, null],
    );
    const star = (t: string) => t.endsWith("*");
    assert.deepEqual(
      misplacedBlocks({ op: "delete", start: "2:23*", end: "4:ba*" }, star),
      ["end", "start"],
    );
    assert.deepEqual(
      misplacedBlocks(
        { op: "insert_before", anchor: "2:23*", lines: [] },
        star,
      ),
      ["anchor"],
    );
    assert.deepEqual(
      misplacedBlocks({ op: "delete", start: "2:23*" }, star),
      [],
    );
    assert.deepEqual(
      withBlock({ op: "delete", start: "2:23*" }, "2:23", "4:ba", false),
      { op: "delete", start: "2:23", end: "4:ba" },
    );
    assert.deepEqual(
      withBlock({ op: "delete", start: "2:23*" }, "2:23", "2:23", true),
      { op: "delete", start: "2:23" },
    );
    assert.deepEqual(
      withBlock(
        { op: "insert_after", anchor: "2:23*", lines: ["x"] },
        "2:23",
        "4:ba",
        false,
      ),
      { op: "insert_after", anchor: "4:ba", lines: ["x"] },
    );
  });
});
