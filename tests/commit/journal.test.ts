import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import {
  type Journal,
  parseJournal,
  writeJournal,
} from "../../src/commit/journal.ts";
import { recoverJournals } from "../../src/commit/recover.ts";

const ID = "0123456789abcdef";

function journal(root: string, over: Partial<Journal> = {}): Journal {
  return {
    version: 2,
    id: ID,
    pid: 4242,
    root,
    state: "committing",
    entries: [{
      target: join(root, "a.txt"),
      temp: `.a.txt.4242-${ID}.hashline-new.tmp`,
      backup: null,
      existed: true,
      old: null,
      newIno: null,
    }],
    ...over,
  };
}

describe("commit/journal", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), "hl-journal-")));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it(
    "a journal is written whole, making its folder, and parses back as written",
    {
      timeout: 10_000,
    },
    async () => {
      const file = join(dir, "state", "journal", `4242-${ID}.json`);
      const j = journal(dir);
      writeJournal(file, j);
      assert.deepEqual(parseJournal(await readFile(file, "utf8")), j);
      assert.deepEqual(await readdir(join(dir, "state", "journal")), [
        `4242-${ID}.json`,
      ], "no temporary left beside it");
    },
  );

  it("refuses malformed journals with a reason", () => {
    const cases: [string, RegExp][] = [
      ['{"version":2', /not valid JSON/],
      ["null", /not an object/],
      [JSON.stringify({ ...journal(dir), version: 1 }), /unknown version 1/],
      [JSON.stringify({ ...journal(dir), id: "zz" }), /missing or malformed/],
      [
        JSON.stringify({ ...journal(dir), state: "done" }),
        /missing or malformed/,
      ],
      [
        JSON.stringify({ ...journal(dir), entries: [null] }),
        /entry is malformed/,
      ],
      [
        JSON.stringify(journal(dir, {
          entries: [{
            ...journal(dir).entries[0],
            temp: "../../etc/passwd",
          }],
        })),
        /not one of this commit's own/,
      ],
    ];
    for (const [raw, reason] of cases) {
      const parsed = parseJournal(raw);
      assert.equal(typeof parsed, "string", raw);
      assert.match(parsed as string, reason);
    }
  });

  it(
    "recovery sets a malformed journal aside and reports it, and leaves another root's journal alone",
    {
      timeout: 10_000,
    },
    async () => {
      const state = join(dir, ".hashline");
      await mkdir(join(state, "journal"), { recursive: true });
      await writeFile(join(state, "journal", `1-${ID}.json`), "{broken");
      const foreign = JSON.stringify(journal("/somewhere/else"));
      await writeFile(join(state, "journal", `2-${ID}.json`), foreign);
      await writeFile(join(dir, "a.txt"), "kept\n");
      const st = await stat(dir);
      let locked = 0;
      const report = await recoverJournals(
        state,
        { real: dir, dev: st.dev, ino: st.ino },
        () => {
          locked++;
          return Promise.resolve(() => {});
        },
      );
      assert.equal(report.malformed.length, 1);
      assert.match(
        report.malformed[0],
        /1-0123456789abcdef\.json\.malformed: .*not valid JSON/,
      );
      assert.equal(report.rolledForward + report.rolledBack, 0);
      assert.equal(locked, 0, "nothing of another root is locked or touched");
      assert.deepEqual((await readdir(join(state, "journal"))).sort(), [
        `1-${ID}.json.malformed`,
        `2-${ID}.json`,
      ]);
      assert.equal(await readFile(join(dir, "a.txt"), "utf8"), "kept\n");
    },
  );
});
