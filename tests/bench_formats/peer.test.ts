import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { leanPatchText } from "../../bench/formats/appliers.ts";
import { score } from "../../bench/formats/checker.ts";
import { drift, TWO_PLACEMENTS } from "../../bench/formats/drift.ts";
import { buildFix } from "../../bench/formats/fixes.ts";
import {
  parsePeerOutput,
  peerApplied,
  peerOps,
  peerUnavailable,
  runPeer,
} from "../../bench/formats/peer.ts";
import { BUGGY, ORIGINAL, TASK } from "./_fixture.ts";

const noReformat = (_: string, t: string) => Promise.resolve(t);

describe("the peer's patch syntax", () => {
  it("writes a replacement, a deletion and an insertion as PUT/CUT ops on the read's numbers", () => {
    assert.equal(
      peerOps({ start: 19, deleteCount: 2, lines: ["a", ""] }),
      "PUT 20.=21:\n+a\n+\n",
    );
    assert.equal(
      peerOps({ start: 19, deleteCount: 1, lines: [] }),
      "CUT 20.=20\n",
    );
    assert.equal(
      peerOps({ start: 19, deleteCount: 0, lines: ["  x"] }),
      "PUT >19:\n+  x\n",
    );
    assert.equal(
      peerOps({ start: 0, deleteCount: 0, lines: ["x"] }),
      "PUT <1:\n+x\n",
    );
  });

  it("refuses driver output that is not one result per trial", () => {
    assert.throws(() => parsePeerOutput("oops", 1), SyntaxError);
    assert.throws(
      () => parsePeerOutput(JSON.stringify({ version: "1", results: [] }), 1),
      /results\[1\]/,
    );
    const ok = parsePeerOutput(
      JSON.stringify({
        version: "18.1.5",
        results: [{
          read: "[a#0000]\n1:x",
          header: "[a#0000]",
          written: false,
        }],
      }),
      1,
    );
    assert.deepEqual(peerApplied(ok.results[0]), {
      written: false,
      reason: "refused",
    });
  });
});

describe("the peer under Bun, on the bench's drifts", () => {
  it(
    "applies the fix with no drift, and refuses when a copy stands directly above or below the target",
    {
      timeout: 60_000,
    },
    async () => {
      const why = peerUnavailable();
      if (why !== undefined) {
        assert.fail(`the peer must run where the bench runs: ${why}`);
      }
      const fix = buildFix(TASK);
      const kinds = [
        "none",
        "insert_above",
        "copy_directly_above",
        "copy_directly_below",
      ] as const;
      const drifted = await Promise.all(
        kinds.map((k) =>
          drift(TASK, fix.hunk, k, { seed: 1, reformat: noReformat })
        ),
      );
      const { version, results } = await runPeer(
        drifted.map((d) => ({
          path: TASK.path,
          read: BUGGY,
          disk: d!.content,
          ops: peerOps(fix.hunk),
        })),
      );
      assert.equal(version, "18.1.5");
      assert.match(
        results[0].read,
        /^\[demo\/file\.ts#[0-9A-F]{4}\]\n1:const v1 = 1;\n/,
      );
      assert.equal(results[0].content, ORIGINAL);
      assert.equal(
        score(peerApplied(results[0]), drifted[0]!.expected),
        "CORRECT",
      );
      assert.equal(
        score(peerApplied(results[1]), drifted[1]!.expected),
        "CORRECT",
      );
      for (const i of [2, 3]) {
        assert.equal(results[i].written, false, kinds[i]);
        assert.equal(score(peerApplied(results[i]), null), "REFUSED");
      }
    },
  );
});

describe("the copy-directly drift kinds", () => {
  it("put a copy of the target right beside it, where only a refusal is right", async () => {
    const fix = buildFix(TASK);
    const lines = (s: string) => s.split("\n");
    for (
      const kind of ["copy_directly_above", "copy_directly_below"] as const
    ) {
      const d = await drift(TASK, fix.hunk, kind, {
        seed: 1,
        reformat: noReformat,
      });
      assert.equal(d!.expected, null);
      assert.ok(TWO_PLACEMENTS.has(kind));
      const now = lines(d!.content);
      assert.equal(now.length, lines(BUGGY).length + 1);
      assert.equal(now[19], "if (count <= limit) grow();");
      assert.equal(now[20], "if (count <= limit) grow();");
      assert.equal(now[18], "const v19 = 19;");
      assert.equal(now[21], "const v21 = 21;");
    }
    assert.ok(!TWO_PLACEMENTS.has("copy_above"));
  });

  it("lean patch text names lines by number alone and keeps new lines as they are", () => {
    assert.equal(
      leanPatchText("@@ a.ts\n= 20:fd..22:0a\n~x = 1:ab\n+ 3:00\n~y\n- 5:aa\n"),
      "@@ a.ts\n= 20..22\n~x = 1:ab\n+ 3\n~y\n- 5\n",
    );
  });
});
