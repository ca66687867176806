// The move tasks of bench:formats: every format's output is counted, and
// hashline's move, its retyped form and @oh-my-pi/hashline's CUT/PUT (run
// under Bun) all give the expected files.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { movesTable } from "../../bench/formats/moves.ts";

describe("bench:formats move tasks", () => {
  it(
    "counts every format and the applied moves agree",
    { timeout: 60_000 },
    async () => {
      const { table, notes } = await movesTable();
      assert.deepEqual(notes, []);
      const rows = table.split("\n").slice(2);
      assert.equal(rows.length, 4);
      for (const row of rows) {
        const cells = row.split("|").map((c) => c.trim()).filter((c) => c);
        const [move, , retype] = cells.slice(2).map(Number);
        assert.ok(move * 5 < retype, row);
      }
    },
  );
});
