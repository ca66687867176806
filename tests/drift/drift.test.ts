import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash32 } from "../../src/hash/fnv.ts";
import { editContent } from "../../src/patch/apply.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import type { PatchOp } from "../../src/patch/types.ts";
import { anchorOf, makeTree, type Tree } from "../workspace/_helpers.ts";

const T = 20_000;

/** Twelve distinct lines; line 12 is the edit's target. */
const READ = Array.from(
  { length: 14 },
  (_, i) => i === 11 ? "  return total;" : `line ${i + 1}`,
);
const text = (lines: string[]) => lines.join("\n") + "\n";
const copyAbove = [...READ.slice(0, 11), READ[11], ...READ.slice(11)];
const copyBelow = [...READ.slice(0, 12), READ[11], ...READ.slice(12)];
const farAbove = ["// new", ...READ];
const neighbour = READ.map((l, i) => i === 10 ? "line 11 edited" : l);

function stale(
  pattern: RegExp,
): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof PatchRefusedError, String(e));
    assert.match(e.message, /^Rejected — nothing written\./);
    assert.deepEqual(e.problems.map((p) => p.code), ["STALE_ANCHOR"]);
    assert.match(e.message, pattern);
    return true;
  };
}

describe("drift: the library, given the read record", () => {
  const memory = memoryFromHashes(READ.map(lineHash32));
  const target = `12:${hexOf(READ[11])}`;
  const op: PatchOp = { op: "replace", start: target, lines: ["  return 0;"] };

  for (
    const [name, now] of [
      ["a copy of the target directly above it", copyAbove],
      ["a copy of the target directly below it", copyBelow],
    ] as const
  ) {
    for (const rebase of [false, true]) {
      it(`refuses when ${name} (rebase ${rebase ? "on" : "off"})`, {
        timeout: T,
      }, () => {
        assert.throws(
          () => editContent(text(now), [op], { memory, rebase }),
          stale(/line 12 → 12 or 13/),
        );
      });
    }
  }

  it(
    "refuses a line inserted far above with rebase off, naming where the line stands",
    {
      timeout: T,
    },
    () => {
      assert.throws(
        () => editContent(text(farAbove), [op], { memory }),
        stale(/line 12 → 13/),
      );
    },
  );

  it("applies at the line's new place with rebase on", { timeout: T }, () => {
    const out = editContent(text(farAbove), [op], { memory, rebase: true });
    assert.deepEqual(out.rebased, ["op 1: line 12 → 13"]);
    const want = farAbove.slice();
    want[12] = "  return 0;";
    assert.equal(out.content, text(want));
  });

  for (const rebase of [false, true]) {
    it(
      `a changed neighbour does not refuse (rebase ${rebase ? "on" : "off"})`,
      {
        timeout: T,
      },
      () => {
        const out = editContent(text(neighbour), [op], { memory, rebase });
        const want = neighbour.slice();
        want[11] = "  return 0;";
        assert.equal(out.content, text(want));
        assert.deepEqual(out.rebased, []);
      },
    );
  }

  it(
    "a changed neighbour of the same text as the target does not refuse; a removed one does",
    {
      timeout: T,
    },
    () => {
      const read = ["a();", "}", "}", "b();"];
      const mem = memoryFromHashes(read.map(lineHash32));
      const op = (n: number): PatchOp => ({
        op: "replace",
        start: `${n}:${hexOf("}")}`,
        lines: ["};"],
      });
      for (const rebase of [false, true]) {
        assert.equal(
          editContent(text(["a();", "} // edited", "}", "b();"]), [op(3)], {
            memory: mem,
            rebase,
          }).content,
          text(["a();", "} // edited", "};", "b();"]),
        );
        assert.equal(
          editContent(text(["a();", "}", "} // edited", "b();"]), [op(2)], {
            memory: mem,
            rebase,
          }).content,
          text(["a();", "};", "} // edited", "b();"]),
        );
        // One of the two was removed: which one is unknown, so neither is edited.
        const removed = text(["a();", "}", "b();"]);
        assert.throws(
          () => editContent(removed, [op(2)], { memory: mem, rebase }),
          PatchRefusedError,
        );
      }
    },
  );

  it(
    "a record of part of a large file still places lines when the whole is too large to align",
    {
      timeout: T,
    },
    () => {
      const big = Array.from(
        { length: 80_000 },
        (_, i) => i % 2 === 0 ? "}" : `x${i}`,
      );
      // The session read the second half only.
      const half = memoryFromHashes(
        new Map(
          big.slice(40_000).map((l, i) => [40_001 + i, lineHash32(l)]),
        ),
      );
      const n = 60_000;
      const op: PatchOp = {
        op: "replace",
        start: `${n}:${hexOf(big[n - 1])}`,
        lines: ["y"],
      };
      const moved = ["// new", ...big];
      const out = editContent(text(moved), [op], {
        memory: half,
        rebase: true,
      });
      assert.deepEqual(out.rebased, [`op 1: line ${n} → ${n + 1}`]);
      const copied = [...big.slice(0, n - 1), big[n - 1], ...big.slice(n - 1)];
      assert.throws(
        () => editContent(text(copied), [op], { memory: half, rebase: true }),
        stale(new RegExp(`line ${n} → ${n} or ${n + 1}`)),
      );
    },
  );

  it("an unchanged file of identical lines never refuses as ambiguous", {
    timeout: T,
  }, () => {
    const same = Array.from({ length: 30 }, () => "x");
    // Only lines 5..9 were read: the stamp says the file is unchanged.
    const partial = memoryFromHashes(
      new Map([5, 6, 7, 8, 9].map((n) => [n, lineHash32("x")])),
    );
    const a = `7:${anchorOf(`7:${hexOf("x")}|x`, 7).split(":")[1]}`;
    const edit: PatchOp[] = [{ op: "replace", start: a, lines: ["y"] }];
    assert.throws(
      () => editContent(text(same), edit, { memory: partial }),
      stale(/line 7 → /),
    );
    const out = editContent(text(same), edit, {
      memory: partial,
      unchanged: true,
    });
    assert.equal(out.content.split("\n")[6], "y");
    const whole = memoryFromHashes(same.map(lineHash32));
    assert.equal(
      editContent(text(same), edit, { memory: whole }).content,
      out.content,
    );
  });
});

function hexOf(line: string): string {
  const h = lineHash32(line);
  return ((h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24)) & 0xff).toString(16)
    .padStart(2, "0");
}

describe("drift: workspace patches (bytes on disk)", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());
  const put = (content: string) => writeFile(join(t.root, "f.ts"), content);
  const get = () => readFile(join(t.root, "f.ts"), "utf8");

  for (const streamed of [false, true]) {
    const opts = streamed ? { streamThreshold: 1 } : {};
    const how = streamed ? ", streamed" : "";
    for (
      const [name, now] of [
        ["a copy directly above", copyAbove],
        ["a copy directly below", copyBelow],
      ] as const
    ) {
      it(
        `refuses the edit after ${name} of the target, rebase off and on${how}`,
        {
          timeout: T,
        },
        async () => {
          const ws = t.open(opts);
          for (const rebase of [false, true]) {
            // Each mode in its own session: a refusal's fresh lines count as read.
            const session = `drift-${rebase}`;
            await put(text(READ));
            const view = await ws.read("f.ts", { session });
            await put(text(now));
            await assert.rejects(
              ws.patch(
                `@@ f.ts\n= ${anchorOf(view.text, 12)}\n~  return 0;`,
                { rebase, session },
              ),
              stale(/line 12 → 12 or 13/),
            );
            assert.equal(await get(), text(now));
          }
        },
      );
    }

    it(
      `refuses a line inserted far above (rebase off)${
        streamed ? "" : " and applies it at 13 (rebase on)"
      }${how}`,
      {
        timeout: T,
      },
      async () => {
        await put(text(READ));
        const ws = t.open(opts);
        const view = await ws.read("f.ts");
        await put(text(farAbove));
        const patch = `@@ f.ts\n= ${anchorOf(view.text, 12)}\n~  return 0;`;
        await assert.rejects(ws.patch(patch, { dryRun: true }), /line 12 → 13/);
        assert.equal(await get(), text(farAbove));
        // Streamed files (past the stream threshold) are not rebased.
        if (streamed) return;
        const out = await ws.patch(patch, { rebase: true });
        assert.deepEqual(out.rebased, ["f.ts op 1: line 12 → 13"]);
        const want = farAbove.slice();
        want[12] = "  return 0;";
        assert.equal(await get(), text(want));
      },
    );
  }

  it("never refuses an unchanged file of identical lines read in part", {
    timeout: T,
  }, async () => {
    const same = Array.from({ length: 40 }, () => "x");
    await put(text(same));
    const ws = t.open();
    const view = await ws.read("f.ts", { offset: 10, limit: 5 });
    await ws.patch(`@@ f.ts\n= ${anchorOf(view.text, 12)}\n~y`);
    const want = same.slice();
    want[11] = "y";
    assert.equal(await get(), text(want));
    // The session's own commit stamps the file too: the next edit lands.
    await ws.patch(`@@ f.ts\n= ${anchorOf(view.text, 13)}\n~z`);
    want[12] = "z";
    assert.equal(await get(), text(want));
  });
});
