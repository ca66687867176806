/** The pure parts of the history: hunks, undo planning, the log's framing. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  crc32,
  frameRecord,
  hunksOf,
  parseLog,
  planUndo,
  type RecordFile,
  renderDiff,
} from "../../src/history/mod.ts";

function fileOf(oldText: string, newText: string): RecordFile {
  return {
    path: "f.txt",
    added: 0,
    removed: 0,
    hunks: hunksOf(oldText, newText),
  };
}

describe("hunks", () => {
  const cases: [string, string, string, number][] = [
    ["one line replaced", "a\nb\nc\n", "a\nB\nc\n", 1],
    ["CRLF kept", "a\r\nb\r\n", "a\r\nX\r\n", 1],
    ["final newline added", "a\nb", "a\nb\n", 1],
    ["all removed", "a\nb\n", "", 1],
    ["created", "", "x\n", 1],
    ["BOM file", "\uFEFFa\nb\n", "\uFEFFa\nc\n", 1],
    ["nothing", "a\n", "a\n", 0],
  ];
  for (const [name, before, after, count] of cases) {
    it(`${name}: the hunks undo back to the exact text`, () => {
      const hunks = hunksOf(before, after);
      assert.equal(hunks.length, count);
      const plan = planUndo("h_1", fileOf(before, after), after);
      assert.ok(plan.ok);
      assert.equal(
        plan.ok && plan.step.action === "write" && plan.step.text,
        before,
      );
    });
  }

  it("keep only what a plan changed, in file order", () => {
    const before =
      Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const lines = before.split("\n");
    lines[9] = "TEN";
    lines[899] = "NINE HUNDRED";
    const after = lines.join("\n");
    const hunks = hunksOf(before, after, [
      { at: 900, deleteCount: 1, lines: ["NINE HUNDRED"] },
      { at: 10, deleteCount: 1, lines: ["TEN"] },
    ]);
    assert.deepEqual(hunks.map((h) => [h.at, h.old, h.new]), [
      [10, "line 9\n", "TEN\n"],
      [900, "line 899\n", "NINE HUNDRED\n"],
    ]);
    assert.equal(
      renderDiff("f.txt", hunks),
      "--- f.txt\n+++ f.txt\n@@ -10,1 +10,1 @@\n-line 9\n+TEN\n@@ -900,1 +900,1 @@\n-line 899\n+NINE HUNDRED",
    );
  });
});

describe("undo planning", () => {
  it("finds the written lines where they now stand, keeps lines changed around them", () => {
    const file = fileOf("a\nb\nc\n", "a\nB\nc\n");
    const plan = planUndo("h_1", file, "new\nA\nB\nc\n");
    assert.ok(plan.ok);
    assert.equal(
      plan.ok && plan.step.action === "write" && plan.step.text,
      "new\nA\nb\nc\n",
    );
  });

  it("refuses MOVED_ON naming the line, when a written line changed", () => {
    const plan = planUndo(
      "h_4",
      fileOf("a\nb\nc\n", "a\nB\nc\n"),
      "a\nBB\nc\n",
    );
    assert.equal(plan.ok, false);
    assert.deepEqual(
      !plan.ok && plan.problems.map((p) => [p.code, p.path, p.line]),
      [["MOVED_ON", "f.txt", 2]],
    );
    assert.match(
      !plan.ok ? plan.problems[0].message : "",
      /line 2 no longer holds what h_4 wrote \("B"\): it now holds "BB"/,
    );
  });

  it("refuses when the written run moved and stands at two places (ambiguous)", () => {
    const plan = planUndo(
      "h_1",
      fileOf("a\nb\nc\n", "a\nB\nc\n"),
      "B\nx\nB\n",
    );
    assert.equal(plan.ok, false);
  });

  it("puts deleted lines back only while the lines around stand", () => {
    const file = fileOf("a\nb\nc\n", "a\nc\n");
    const ok = planUndo("h_1", file, "a\nc\nd\n");
    assert.equal(
      ok.ok && ok.step.action === "write" && ok.step.text,
      "a\nb\nc\nd\n",
    );
    assert.equal(planUndo("h_1", file, "a\nX\n").ok, false);
  });

  it("a creation is removed only while unchanged; a removal re-created only while absent", () => {
    const created: RecordFile = { ...fileOf("", "x\n"), created: true };
    assert.equal(planUndo("h_1", created, "x\n").ok, true);
    assert.equal(planUndo("h_1", created, "x\ny\n").ok, false);
    assert.equal(planUndo("h_1", created, null).ok, false);
    const removed: RecordFile = { ...fileOf("x\n", ""), deleted: true };
    const back = planUndo("h_2", removed, null);
    assert.equal(
      back.ok && back.step.action === "create" && back.step.text,
      "x\n",
    );
    assert.equal(planUndo("h_2", removed, "").ok, false);
  });

  it("a whole-file write restores only while the file is exactly as written", () => {
    const file: RecordFile = { ...fileOf("old\n", "new\n"), whole: "abc" };
    assert.equal(planUndo("h_1", file, "new\n", "abc").ok, true);
    assert.equal(planUndo("h_1", file, "new\n", "other").ok, false);
  });
});

describe("log framing", () => {
  const record = {
    id: "h_1",
    time: "2026-01-01T00:00:00.000Z",
    session: "s",
    door: "cli" as const,
    summary: "Edited é.txt (+1 -1)",
    files: [],
  };

  it("CRC-32 matches the standard check value", () => {
    assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  });

  it("reads back framed records; skips torn, damaged and foreign lines", () => {
    const line = frameRecord(record);
    const two = frameRecord({ ...record, id: "h_2" });
    assert.deepEqual(parseLog(line + two).map((r) => r.id), ["h_1", "h_2"]);
    assert.deepEqual(parseLog(line + two.slice(0, -5)).map((r) => r.id), [
      "h_1",
    ]);
    assert.deepEqual(
      parseLog(line + two.replace("h_2", "h_3")).map((r) => r.id),
      ["h_1"],
    );
    assert.deepEqual(parseLog("garbage\n" + line + "\n\n").map((r) => r.id), [
      "h_1",
    ]);
  });
});
