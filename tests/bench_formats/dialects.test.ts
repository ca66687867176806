import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashlineApi } from "../../bench/formats/_hashline_api.ts";
import {
  type Cell,
  dialectAppliers,
  dialectVerdict,
} from "../../bench/formats/_dialect_rows.ts";
import { score } from "../../bench/formats/checker.ts";
import { drift } from "../../bench/formats/drift.ts";
import { buildFix } from "../../bench/formats/fixes.ts";
import { BUGGY, ORIGINAL, TASK } from "./_fixture.ts";

const noReformat = (): Promise<string> => Promise.reject(new Error("unused"));
const fix = buildFix(TASK);
const rows = dialectAppliers(hashlineApi());
const by = (id: string) => rows.find((a) => a.id === id)!;

async function outcome(
  id: string,
  kind: Parameters<typeof drift>[2],
  f = fix,
): Promise<string> {
  const d =
    (await drift(TASK, f.hunk, kind, { seed: 1, reformat: noReformat }))!;
  return score(
    await by(id).apply({ task: TASK, fix: f, disk: d.content }),
    d.expected,
  );
}

describe("the dialect rows of bench:formats", () => {
  for (const id of ["hashline_apply_patch", "hashline_unified_diff"]) {
    it(`${id}: correct with no drift, refused when the target was edited`, {
      timeout: 30_000,
    }, async () => {
      assert.equal(await outcome(id, "none"), "CORRECT");
      assert.equal(await outcome(id, "target_edited"), "REFUSED");
      assert.equal(await outcome(id, "insert_above"), "REFUSED");
      assert.equal(await outcome(`${id}_rebase`, "insert_above"), "CORRECT");
    });
  }

  it("the judge scores a planted wrong edit WRONG, and the verdict says so", {
    timeout: 30_000,
  }, async () => {
    // The fix with its new line changed: it lands, on the right line, with the wrong text.
    const planted = {
      ...fix,
      codexPatch: fix.codexPatch.replace(
        "+if (count < limit) grow();",
        "+if (count > limit) grow();",
      ),
      unifiedDiff: fix.unifiedDiff.replace(
        "+if (count < limit) grow();",
        "+if (count > limit) grow();",
      ),
    };
    assert.notEqual(planted.codexPatch, fix.codexPatch);
    assert.notEqual(planted.unifiedDiff, fix.unifiedDiff);
    for (const id of ["hashline_apply_patch", "hashline_unified_diff"]) {
      const applied = await by(id).apply({
        task: TASK,
        fix: planted,
        disk: BUGGY,
      });
      assert.equal(applied.written, true);
      assert.equal(score(applied, ORIGINAL), "WRONG");
    }
    const cells = new Map<string, Cell>([
      ["hashline_apply_patch|none", { CORRECT: 0, REFUSED: 0, WRONG: 1 }],
    ]);
    const lines = dialectVerdict((row, kind) => cells.get(`${row}|${kind}`), [
      "none",
    ]);
    assert.match(
      lines[0],
      /^hashline_apply_patch: no \(none 1\) — 0 silent wrong/,
    );
    assert.match(
      lines[1],
      /^hashline_apply_patch: no — every trial correct with no drift/,
    );
  });
});
