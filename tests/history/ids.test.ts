/** Entry ids: one pattern for every reader of an id. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ENTRY_ID, idNumber } from "../../src/history/ids.ts";
import { recordProblem } from "../../src/history/check.ts";
import { makeRecord } from "../../src/history/record.ts";
import { makeTree } from "../workspace/_helpers.ts";

const CASES: [string, number][] = [
  ["h_1", 1],
  ["h_12", 12],
  [`h_${"9".repeat(16)}`, Number("9".repeat(16))],
  [`h_1${"0".repeat(16)}`, NaN],
  ["h_0", NaN],
  ["h_012", NaN],
  ["h_", NaN],
  ["h_1 ", NaN],
  ["H_1", NaN],
];

describe("entry ids", () => {
  for (const [id, n] of CASES) {
    it(`${JSON.stringify(id)} is ${Number.isNaN(n) ? "no id" : `id ${n}`}`, () => {
      assert.equal(ENTRY_ID.test(id), !Number.isNaN(n));
      if (Number.isNaN(n)) assert.ok(Number.isNaN(idNumber(id)));
      else assert.equal(idNumber(id), n);
      const record = makeRecord({
        id,
        session: "s",
        door: "library",
        summary: "x",
        files: [],
      });
      assert.equal(recordProblem(record) === null, !Number.isNaN(n));
    });
  }

  it(
    "an id past 16 digits is bad input at the library door",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        const ws = t.open();
        const id = `h_1${"0".repeat(16)}`;
        await assert.rejects(ws.entry(id), TypeError);
        await assert.rejects(ws.undo(id), TypeError);
      } finally {
        await t.cleanup();
      }
    },
  );
});
