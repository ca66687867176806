import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DRIFT_KINDS } from "../../bench/formats/drift.ts";
import {
  renderReadmeBlock,
  renderResults,
} from "../../bench/formats/report.ts";
import { runFormatsBench } from "../../bench/formats/run.ts";
import {
  BEGIN,
  END,
  replaceBlock,
  writeOutputs,
} from "../../bench/formats/write.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// A reduced size of `deno task bench:formats`: the same code path, a few tasks.
const reduced = {
  nodeModules: join(REPO, "bench", "node_modules"),
  seed: 7,
  perKind: 1,
  filesPerPackage: 2,
  kinds: ["comparison", "missing_line", "args_swapped"] as const,
};

describe("the format benchmark, reduced end to end", () => {
  it("gives the same tables twice from the same seed, and every cell adds up to the trials", async () => {
    const a = await runFormatsBench(reduced);
    const b = await runFormatsBench(reduced);
    assert.equal(renderResults(a, "charts"), renderResults(b, "charts"));
    assert.equal(a.tasks.length, 3);
    assert.deepEqual(a.packages.map((p) => p.name), [
      "rxjs",
      "immer",
      "preact",
      "execa",
    ]);
    for (const app of a.appliers) {
      for (const d of DRIFT_KINDS) {
        const n = a.trials.filter((t) =>
          t.applier === app.id && t.drift === d
        ).length;
        assert.equal(
          n,
          a.tasks.length - (a.skipped[d] ?? 0),
          `${app.id} × ${d}`,
        );
      }
    }
    // The control drift is the one every tool gets right.
    assert.ok(
      a.trials.filter((t) => t.drift === "none").every((t) =>
        t.outcome === "CORRECT"
      ),
    );
    // Hashline with the read record never writes where the target was edited.
    assert.ok(
      a.trials.filter((t) =>
        t.drift === "target_edited" && t.applier === "hashline_record"
      )
        .every((t) => t.outcome === "REFUSED"),
    );

    const dir = await mkdtemp(join(tmpdir(), "hashline-formats-test-"));
    try {
      const readme = join(dir, "README.md");
      await writeFile(
        readme,
        "# x\n\n## Benchmarks\n\nOld text.\n\n## Dependencies\n\nkept\n",
      );
      const paths = {
        results: join(dir, "bench", "RESULTS.md"),
        readme,
        charts: join(dir, "bench", "charts"),
      };
      await writeOutputs(a, { ...paths, runLine: "_Last run today._" });
      const first = await readFile(readme, "utf8");
      assert.ok(first.indexOf("Old text.") < first.indexOf(BEGIN));
      assert.ok(first.indexOf(END) < first.indexOf("## Dependencies"));
      assert.ok(first.includes(renderReadmeBlock(a, "bench/charts")));
      await writeOutputs(b, { ...paths, runLine: "_Last run tomorrow._" });
      assert.equal(await readFile(readme, "utf8"), first);
      const results = await readFile(paths.results, "utf8");
      assert.ok(results.includes("_Last run tomorrow._"));
      assert.ok(
        results.includes(
          "![Drift outcomes per tool](charts/formats-drift.svg)",
        ),
      );
      const svg = await readFile(
        join(paths.charts, "formats-drift.svg"),
        "utf8",
      );
      assert.match(svg, /^<svg [^>]*>/);
      assert.ok(svg.includes("hashline in memory + 32-bit record"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("rewrites only what lies between the markers", () => {
    const doc = `top\n${BEGIN}\nold\n${END}\nbottom\n`;
    assert.equal(
      replaceBlock(doc, "new"),
      `top\n${BEGIN}\n\nnew\n\n${END}\nbottom\n`,
    );
    assert.equal(replaceBlock("", "new"), `${BEGIN}\n\nnew\n\n${END}\n`);
  });
});
