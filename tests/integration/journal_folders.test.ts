/**
 * A commit killed while it was making the folders of a new file (one made,
 * the one inside it not yet) leaves a journal in state `staging` naming a
 * target whose folder does not exist. Recovery settles it all the same:
 * the folders it made are removed, the journal is gone, and the next write
 * is not held up by it.
 */
import assert from "node:assert/strict";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTree } from "../workspace/_helpers.ts";
import { deadPid } from "./_util.ts";

const ID = "0123456789abcdef";

describe("recovery of a commit killed while making folders", () => {
  it("removes the folders it made and the journal", {
    timeout: 60_000,
  }, async () => {
    const t = await makeTree();
    try {
      const pid = await deadPid();
      await writeFile(join(t.root, "a.ts"), "a\n");
      // Made by the commit before it was killed: "new" and "lib", not "new/dir".
      await mkdir(join(t.root, "new"));
      await mkdir(join(t.root, "lib"));
      const journalDir = join(t.state, "journal");
      await mkdir(journalDir, { recursive: true });
      await writeFile(
        join(journalDir, `${Date.now()}-${ID}.json`),
        JSON.stringify({
          version: 2,
          id: ID,
          pid,
          root: t.root,
          state: "staging",
          entries: [{
            target: join(t.root, "new", "dir", "n.ts"),
            temp: `.n.ts.${pid}-${ID}.hashline-new.tmp`,
            backup: null,
            existed: false,
            old: null,
            newIno: null,
          }, {
            target: join(t.root, "lib", "b.ts"),
            temp: `.b.ts.${pid}-${ID}.hashline-new.tmp`,
            backup: null,
            existed: false,
            old: null,
            newIno: null,
          }],
          dirs: [
            join(t.root, "new"),
            join(t.root, "new", "dir"),
            join(t.root, "lib"),
          ],
        }),
      );
      const report = await t.open().recover();
      assert.deepEqual(report.malformed, []);
      assert.deepEqual(report.skipped, []);
      assert.equal(report.rolledBack, 1);
      assert.deepEqual(
        (await readdir(t.root)).sort(),
        ["a.ts"].concat(
          (await readdir(t.root)).filter((n) => n.startsWith(".")),
        ).sort(),
      );
      await assert.rejects(stat(join(t.root, "new")));
      await assert.rejects(stat(join(t.root, "lib")));
      assert.deepEqual(await readdir(journalDir), []);
    } finally {
      await t.cleanup();
    }
  });
});
