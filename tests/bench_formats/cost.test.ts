import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  blockWindow,
  COST_ROWS,
  leanFromHashlines,
  outlineLines,
  toolDefinitionTokens,
} from "../../bench/formats/cost.ts";
import {
  costTable,
  verdict,
  verdictLines,
} from "../../bench/formats/report.ts";
import type { RunResult, TaskRow, Trial } from "../../bench/formats/run.ts";
import { createTokenCounter } from "../../bench/formats/tokens.ts";
import {
  leanRatio,
  replaceToolsBlock,
  TOOLS_BEGIN,
  TOOLS_END,
} from "../../bench/tools_tokens.ts";
import { formatHashlines } from "../../mod.ts";

describe("read forms", () => {
  it("makes the lean form from a LINE:HH| read, keeping a | inside the content", () => {
    const view = formatHashlines("a|b\n\nc\n").text;
    assert.equal(leanFromHashlines(view), "1|a|b\n2|\n3|c");
  });

  it("finds the block around an edit from the lines an outline shows", () => {
    const shown = outlineLines(
      "1:aa|import x;\n[lines 2–9 hidden]\n10:bb|export function f() {\n30|export const y = 1;",
    );
    assert.deepEqual(shown, [1, 10, 30]);
    assert.deepEqual(blockWindow(shown, 12, 13, 40), { offset: 10, limit: 20 });
    assert.deepEqual(blockWindow(shown, 31, 31, 40), { offset: 30, limit: 11 });
  });

  it("puts the lean ratio at the lean overhead over the default one", () => {
    const plain = "const a = 1;\nconst b = 2;";
    const r = leanRatio(
      plain,
      "1:3f|const a = 1;\n2:a0|const b = 2;",
      "1|const a = 1;\n2|const b = 2;",
      null,
    );
    assert.ok(r.hashOver > r.leanOver && r.leanOver > 0);
    assert.equal(r.lean, r.leanOver / r.hashOver);
    assert.equal(r.peer, null);
  });

  it("rewrites only the tools block of the results page", () => {
    const first = replaceToolsBlock("# R\n\nkept\n", "one");
    assert.equal(
      first,
      `# R\n\nkept\n\n${TOOLS_BEGIN}\n\none\n\n${TOOLS_END}\n`,
    );
    assert.equal(
      replaceToolsBlock(first, "two"),
      `# R\n\nkept\n\n${TOOLS_BEGIN}\n\ntwo\n\n${TOOLS_END}\n`,
    );
  });
});

function row(
  id: string,
  costs: Partial<Record<string, { read: number; edit: number } | null>>,
): TaskRow {
  const c = Object.fromEntries(COST_ROWS.map((r) => [r, costs[r] ?? null]));
  return {
    id,
    kind: "comparison",
    path: "a.ts",
    lines: 10,
    tokens: {} as TaskRow["tokens"],
    read: {} as TaskRow["read"],
    peerTokens: null,
    costs: { o200k: c, claude: c } as TaskRow["costs"],
  };
}

function result(tasks: TaskRow[], trials: Trial[]): RunResult {
  const ids = [...new Set(trials.map((t) => t.applier))];
  const defs = Object.fromEntries(
    COST_ROWS.map((r) => [r, { o200k: 100, claude: 110 }]),
  );
  return {
    tasks,
    trials,
    appliers: ids.map((id) => ({
      id,
      label: id,
      format: "hashline_text",
      semantics: "",
    })),
    toolDefs: defs,
  } as unknown as RunResult;
}

describe("cost per task", () => {
  it("adds the tool definitions, one read and k edits, and says n/a for a row this build lacks", () => {
    const r = result([
      row("t1", {
        hashline: { read: 1000, edit: 40 },
        peer: { read: 800, edit: 50 },
      }),
      row("t2", {
        hashline: { read: 2000, edit: 60 },
        peer: { read: 1600, edit: 50 },
      }),
    ], []);
    const t = costTable(r, "o200k");
    // 100 + 1500 + k × 50
    assert.match(
      t,
      /LINE:HH\\\|` read \+ `L:HH` ops *\| *100 \| *1,500 \| *50\.0 \| *1,650 \| *1,750 \| *2,100 \|/,
    );
    assert.match(
      t,
      /outline read \+ block read[^\n]*\| *100 \| *n\/a \| *n\/a \| *n\/a \| *n\/a \| *n\/a \|/,
    );
  });

  it("charges every row its tool definitions, the peer's own edit-tool text included", () => {
    const defs = toolDefinitionTokens(createTokenCounter());
    for (const r of COST_ROWS) assert.ok(defs[r].o200k > 100, r);
    assert.ok(defs.peer.o200k > defs.str_replace.o200k);
  });
});

describe("the drift checks of docs/benchmarks.md", () => {
  const trial = (
    applier: string,
    drift: Trial["drift"],
    outcome: Trial["outcome"],
    task = "t1",
  ): Trial => ({ task, kind: "comparison", drift, applier, outcome });

  it("compares rebase-on correct counts with the peer's, leaving out two-placement trials, and counts silent wrong", () => {
    const r = result([], [
      trial("hashline_workspace_rebase", "insert_above", "CORRECT"),
      trial("peer", "insert_above", "CORRECT"),
      trial("hashline_workspace_rebase", "delete_above", "REFUSED"),
      trial("peer", "delete_above", "CORRECT"),
      // Two placements: the peer's write would not count for it, ours must be a refusal.
      trial("hashline_workspace_rebase", "copy_directly_above", "WRONG"),
      trial("peer", "copy_directly_above", "REFUSED"),
      trial("hashline_workspace", "insert_above", "REFUSED"),
    ]);
    const v = verdict(r);
    assert.deepEqual(v.behindPeer.hashline_workspace_rebase, ["delete_above"]);
    assert.equal(v.twoPlacementWrites.hashline_workspace_rebase, 1);
    assert.deepEqual(v.silentWrong.hashline_workspace_rebase, {
      copy_directly_above: 1,
    });
    assert.deepEqual(v.silentWrong.hashline_workspace, {});
    const lines = verdictLines(r).join("\n");
    assert.match(
      lines,
      /hashline_workspace_rebase: no \(fewer on delete_above\)/,
    );
    assert.match(lines, /hashline_workspace: yes — 0 silent wrong/);
  });
});
