import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  brokenVariants,
  checkBrokenFixes,
  emptyBrokenTally,
} from "../../bench/formats/broken.ts";
import { buildFix } from "../../bench/formats/fixes.ts";
import { loadSources } from "../../bench/formats/sources.ts";
import { buildTasks } from "../../bench/formats/tasks.ts";
import { createChecker } from "../../src/check/mod.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("the broken-fix column of bench:formats", () => {
  it("drops or duplicates the first closing line at or after the fix", () => {
    const text = "function f() {\n  if (a) {\n    b();\n  }\n}\n";
    const v = brokenVariants(text, { start: 2, deleteCount: 1, lines: [] });
    assert.equal(v?.dropped, "function f() {\n  if (a) {\n    b();\n}\n");
    assert.equal(
      v?.duplicated,
      "function f() {\n  if (a) {\n    b();\n  }\n  }\n}\n",
    );
    assert.equal(
      brokenVariants("a;\nb;\n", { start: 0, deleteCount: 1, lines: [] }),
      null,
    );
  });

  it("flags every broken fix and no correct one (reduced run on real TS/JS files)", async () => {
    const sources = await loadSources({
      nodeModules: join(REPO, "bench", "node_modules"),
      seed: 7,
      filesPerPackage: 2,
    });
    const tasks = buildTasks(sources.files, { seed: 7, perKind: 1 });
    const checker = createChecker();
    const tally = emptyBrokenTally();
    for (const t of tasks) {
      await checkBrokenFixes(checker, t, buildFix(t).hunk, tally);
    }
    assert.ok(tally.dropped.total >= 5, JSON.stringify(tally));
    assert.equal(tally.correctFlagged, 0);
    assert.equal(tally.dropped.caught, tally.dropped.total);
    assert.equal(tally.duplicated.caught, tally.duplicated.total);
  });
});
