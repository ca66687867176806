/**
 * A commit journal names its temporaries and backups as they were written:
 * side-file names cut in UTF-8 bytes, so recovery accepts the journal of a
 * commit of a long non-ASCII name instead of setting it aside.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseJournal } from "../../src/commit/journal.ts";
import { sideName } from "../../src/commit/stage.ts";

describe("journal side-file names", () => {
  it("accepts the sides of a 252-byte CJK name as written", () => {
    const name = "漢".repeat(84);
    const id = "0123456789abcdef";
    const pid = 4242;
    const journal = {
      version: 2,
      id,
      pid,
      root: "/r",
      state: "committing",
      entries: [{
        target: `/r/${name}`,
        temp: sideName(name, pid, id, "new"),
        backup: sideName(name, pid, id, "old"),
        existed: true,
        old: null,
        newIno: null,
      }],
    };
    const parsed = parseJournal(JSON.stringify(journal));
    assert.notEqual(typeof parsed, "string", String(parsed));
  });
});
