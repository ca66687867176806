import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashlineApi } from "../../bench/formats/_hashline_api.ts";
import { type Applier, createAppliers } from "../../bench/formats/appliers.ts";
import { score, scoreDrift } from "../../bench/formats/checker.ts";
import { drift, restyledOnly } from "../../bench/formats/drift.ts";
import { buildFix } from "../../bench/formats/fixes.ts";
import { BUGGY, ORIGINAL, TASK } from "./_fixture.ts";

const noReformat = (): Promise<string> => Promise.reject(new Error("unused"));
const fix = buildFix(TASK);
const appliers = createAppliers(hashlineApi(), { gnuPatch: false });
const by = (id: string): Applier => appliers.find((a) => a.id === id)!;

async function outcome(
  id: string,
  kind: Parameters<typeof drift>[2],
): Promise<string> {
  const d =
    (await drift(TASK, fix.hunk, kind, { seed: 1, reformat: noReformat }))!;
  return score(
    await by(id).apply({ task: TASK, fix, disk: d.content }),
    d.expected,
  );
}

describe("the drift checker", () => {
  it("scores the exact expected file CORRECT, any other write WRONG, no write REFUSED", () => {
    assert.equal(
      score({ written: true, content: ORIGINAL }, ORIGINAL),
      "CORRECT",
    );
    assert.equal(
      score({ written: true, content: ORIGINAL + "\n" }, ORIGINAL),
      "WRONG",
    );
    assert.equal(
      score({ written: false, reason: "stale anchor" }, ORIGINAL),
      "REFUSED",
    );
  });

  it("scores a wrong fix WRONG: the right change on the wrong line", () => {
    const wrongLine = BUGGY.replace("const v5 = 5;", "const v5 = 6;");
    assert.equal(
      score({ written: true, content: wrongLine }, ORIGINAL),
      "WRONG",
    );
  });

  it("scores every write WRONG where only a refusal is right (the target was edited)", async () => {
    const d = (await drift(TASK, fix.hunk, "target_edited", {
      seed: 1,
      reformat: noReformat,
    }))!;
    assert.equal(d.expected, null);
    assert.match(
      d.content,
      /^if \(count <= limit\) \/\* edited \*\/ grow\(\);$/m,
    );
    assert.equal(
      score({ written: true, content: ORIGINAL }, d.expected),
      "WRONG",
    );
    assert.equal(await outcome("whole_file", "target_edited"), "WRONG");
    assert.equal(await outcome("str_replace", "target_edited"), "REFUSED");
    assert.equal(await outcome("hashline_record", "target_edited"), "REFUSED");
  });

  it("scores a merge by the written rule: both changes kept is CORRECT, losing one is WRONG", async () => {
    const d = (await drift(TASK, fix.hunk, "adjacent_edited", {
      seed: 1,
      reformat: noReformat,
    }))!;
    assert.equal(
      d.expected,
      ORIGINAL.replace("const v19 = 19;", "const v19 = 19; // edited"),
    );
    assert.equal(
      await outcome("hashline_record", "adjacent_edited"),
      "CORRECT",
    );
    assert.equal(await outcome("str_replace", "adjacent_edited"), "CORRECT");
    // The rewrite carries the fix but drops the other tool's edit.
    assert.equal(await outcome("whole_file", "adjacent_edited"), "WRONG");
  });

  it("counts a shift refused by hashline without rebase, and a first-match edit of a copy as WRONG", async () => {
    assert.equal(await outcome("hashline_record", "insert_above"), "REFUSED");
    assert.equal(await outcome("str_replace", "insert_above"), "CORRECT");
    assert.equal(await outcome("str_replace", "copy_above"), "REFUSED");
    assert.equal(await outcome("first_match", "copy_above"), "WRONG");
  });

  it("keeps CRLF line ends through hashline and loses them through tools that normalise to LF", async () => {
    assert.equal(await outcome("hashline_record", "crlf"), "CORRECT");
    assert.equal(await outcome("first_match", "crlf"), "WRONG");
    await Promise.all(appliers.map((a) => a.close()));
  });

  it("after a reformat, lets only the fix's own lines keep their old style", async () => {
    // A stand-in formatter: every statement line gets a semicolon.
    const semis = (text: string): Promise<string> =>
      Promise.resolve(text.replace(/^(const .*[^;\n])$/gm, "$1;"));
    const read = "const a = 1\nconst b = 2\n";
    const expected = await semis("const a = 1\nconst x = 9\nconst b = 2\n");
    const d = {
      expected,
      restyled: (c: string) =>
        restyledOnly(c, expected, ["const x = 9"], semis),
    };
    // The fix inserted where it belongs, in the style it was written in.
    const unformatted = "const a = 1;\nconst x = 9\nconst b = 2;\n";
    assert.deepEqual(
      await scoreDrift({ written: true, content: unformatted }, d),
      {
        outcome: "CORRECT",
        restyled: true,
      },
    );
    // The exact file needs no allowance.
    assert.deepEqual(
      await scoreDrift({ written: true, content: expected }, d),
      {
        outcome: "CORRECT",
        restyled: false,
      },
    );
    // The fix on the wrong line, or the reformat undone elsewhere: WRONG.
    for (
      const content of [
        "const x = 9\nconst a = 1;\nconst b = 2;\n",
        "const a = 1\nconst x = 9\nconst b = 2\n",
        read,
      ]
    ) {
      assert.equal(
        (await scoreDrift({ written: true, content }, d)).outcome,
        "WRONG",
      );
    }
    assert.equal(
      (await scoreDrift({ written: false, reason: "stale" }, d)).outcome,
      "REFUSED",
    );
  });
});
