import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyStringEdits, findString } from "../../src/patch/string_edit.ts";

const say = {
  notFound: () => "not found",
  many: (n: number) => `${n} matches`,
};

describe("findString", () => {
  const cases: [string, string[], boolean, number[] | string][] = [
    ["a-b-a", ["a"], true, [0, 4]],
    ["a-b-a", ["b"], false, [2]],
    ["a-b-a", ["a"], false, "MANY_MATCHES"],
    ["a-b-a", ["c"], true, "NO_MATCH"],
    ["aaaa", ["aa"], true, [0, 2]],
  ];
  for (const [text, needles, all, want] of cases) {
    it(`${JSON.stringify(needles)} in ${JSON.stringify(text)}${all ? " (all)" : ""}`, () => {
      if (typeof want === "string") {
        assert.throws(() => findString(text, needles, all, say), {
          code: want,
        });
      } else {
        assert.deepEqual(findString(text, needles, all, say).hits, want);
      }
    });
  }

  it("tries the spellings in order and says which one matched", () => {
    const out = findString("x\r\ny", ["x\ny", "x\r\ny"], false, say);
    assert.deepEqual(out, { hits: [0], which: 1 });
  });
});

describe("applyStringEdits", () => {
  it("applies edits in order, each to what the ones before it left", () => {
    const out = applyStringEdits("one two", [
      { oldString: "one", newString: "two" },
      { oldString: "two", newString: "2", replaceAll: true },
    ], { name: "x" });
    assert.equal(out, "2 2");
  });

  it("stops at the first edit whose result would pass maxBytes, counting UTF-8 bytes", () => {
    assert.throws(
      () =>
        applyStringEdits("aé", [
          { oldString: "a", newString: "b" },
          { oldString: "é", newString: "éé" },
        ], { name: "x", maxBytes: 4 }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, "TOO_LARGE");
        assert.match(e.message, /^Edit 2 of 2 would make x 5 bytes/);
        return true;
      },
    );
    assert.equal(
      applyStringEdits("aé", [{ oldString: "é", newString: "e" }], {
        name: "x",
        maxBytes: 2,
      }),
      "ae",
    );
  });
});
