import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyPatch as applyUnifiedDiff } from "diff";
import { applyPatch } from "../../mod.ts";
import { applyCodexPatch } from "../../bench/formats/_codex.ts";
import {
  aiderReplace,
  firstMatchEdit,
  strReplaceUnique,
} from "../../bench/formats/_text_edits.ts";
import { buildFix, hunkOf } from "../../bench/formats/fixes.ts";
import {
  applyMutation,
  findMutations,
  MUTATION_KINDS,
} from "../../bench/formats/mutations.ts";
import type { Task } from "../../bench/formats/tasks.ts";

const head = Array.from({ length: 12 }, (_, i) => `// header line ${i + 1}`);
const tail = Array.from({ length: 6 }, (_, i) => `// trailer line ${i + 1}`);
const SOURCE = [
  ...head,
  "export async function run(items: Item[], limit: number): Promise<number> {",
  "  let total = 0;",
  "  const strict = true;",
  '  const label = "Total";',
  "  if (items.length > limit && !items[0]?.ready) {",
  "    total = total + 1;",
  "  } else {",
  "    total = total * 2;",
  "  }",
  "  const done = await flush(items, limit);",
  "  report(label, total);",
  "  report(label, limit);",
  "  return done ? total : 0;",
  "}",
  ...tail,
].join("\n") + "\n";

describe("mutations found on the syntax tree", () => {
  const found = findMutations("demo/run.ts", SOURCE);

  it("finds every kind in a file that has each construct", () => {
    const kinds = new Set(found.map((m) => m.kind));
    assert.deepEqual(MUTATION_KINDS.filter((k) => !kinds.has(k)), []);
  });

  it("makes a line equal to another line of the file", () => {
    const m = found.find((m) => m.kind === "identical_line")!;
    const lines = applyMutation(SOURCE, m).split("\n");
    assert.ok(
      lines.filter((l) => l === "  report(label, total);").length === 2 ||
        lines.filter((l) => l === "  report(label, limit);").length === 2,
    );
  });
});

describe("the minimal fix in every format", () => {
  const seen = new Set<string>();
  const tasks: Task[] = [];
  for (const m of findMutations("demo/run.ts", SOURCE)) {
    if (seen.has(m.kind)) continue;
    seen.add(m.kind);
    tasks.push({
      id: m.kind,
      kind: m.kind,
      path: "demo/run.ts",
      original: SOURCE,
      buggy: applyMutation(SOURCE, m),
      note: m.note,
    });
  }

  it("restores the original through every tool on the file as read", () => {
    for (const task of tasks) {
      const fix = buildFix(task);
      const b = task.buggy;
      const results: Record<string, string | false> = {
        hashline_text: applyPatch(b, fix.hashlineText),
        hashline_json: applyPatch(b, {
          files: [{ path: task.path, ops: fix.ops }],
        }),
        str_replace: strReplaceUnique(b, fix.oldString, fix.newString),
        first_match: firstMatchEdit(b, fix.oldString, fix.newString),
        aider: aiderReplace(
          b,
          fix.oldLines.map((l) => l + "\n").join(""),
          fix.newLines.map((l) => l + "\n").join(""),
        ),
        jsdiff: applyUnifiedDiff(b, fix.unifiedDiff),
        codex: applyCodexPatch(b, fix.codexPatch),
      };
      for (const [tool, out] of Object.entries(results)) {
        assert.equal(out, SOURCE, `${task.kind} through ${tool}`);
      }
    }
  });

  it("writes the least context that is unique, in whole lines", () => {
    const task = tasks.find((t) => t.kind === "identical_line")!;
    const fix = buildFix(task);
    // The mutated line now has a twin, so one line of context is needed.
    assert.equal(fix.oldLines.length, 2);
    assert.equal(
      strReplaceUnique(task.buggy, fix.oldString, fix.newString),
      SOURCE,
    );
  });

  it("anchors hashline ops on the lines as read", () => {
    const task = tasks.find((t) => t.kind === "missing_line")!;
    const fix = buildFix(task);
    assert.equal(fix.ops.length, 1);
    assert.equal(fix.ops[0].op, "insert_after");
    assert.match(fix.hashlineText, /^@@ demo\/run\.ts\n\+ \d+:[0-9a-f]{2}\n~/);
  });

  it("refuses to build a fix for two texts with the same lines", () => {
    assert.throws(() => hunkOf(SOURCE, SOURCE), /same lines/);
  });
});

describe("other tools' matching rules", () => {
  const text = "a\n  x = 1;\nb\n  x = 1;\n";
  it("str_replace refuses zero or several matches and leaves the text alone", () => {
    assert.throws(
      () => strReplaceUnique(text, "  x = 1;", "  x = 2;"),
      /more than once/,
    );
    assert.throws(() => strReplaceUnique(text, "  y", "z"), /not found/);
  });
  it("the MCP filesystem edit takes the first match and writes LF", () => {
    assert.equal(
      firstMatchEdit(text.replaceAll("\n", "\r\n"), "  x = 1;", "  x = 2;"),
      "a\n  x = 2;\nb\n  x = 1;\n",
    );
    assert.equal(
      firstMatchEdit("\t\tx = 1;\n", "x = 1;\n", "x = 2;\n"),
      "\t\tx = 2;\n",
    );
  });
  it("Aider matches whole lines, then ignores a leading-whitespace difference", () => {
    assert.equal(
      aiderReplace("if (a) {\n\t\tgo();\n}\n", "go();\n", "stop();\n"),
      "if (a) {\n\t\tstop();\n}\n",
    );
    assert.throws(() => aiderReplace("a\n", "b\n", "c\n"), /does not match/);
  });
  it("Codex seeks exact, then trailing-space-blind, then trimmed lines, first match", () => {
    const patch =
      "*** Begin Patch\n*** Update File: f\n@@\n-x = 1;\n+x = 2;\n*** End Patch\n";
    assert.equal(
      applyCodexPatch("  x = 1;  \nx = 1;\n", patch),
      "  x = 1;  \nx = 2;\n",
    );
    assert.equal(applyCodexPatch("  x = 1;  \n", patch), "x = 2;\n");
    assert.throws(() => applyCodexPatch("y\n", patch), /not found/);
  });
});
