import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { openWorkspace } from "../../src/workspace/mod.ts";

describe("history of an edit in a file of many lines", () => {
  it(
    "a one-line patch of a 400,000-line file is recorded, shown and undone byte for byte",
    {
      timeout: 120_000,
    },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "hl-many-lines-"));
      try {
        const text = Array.from({ length: 400_000 }, (_, i) =>
          `line ${i}`).join("\n") +
          "\n";
        await writeFile(join(dir, "a.txt"), text);
        const ws = openWorkspace(dir);
        const view = await ws.read("a.txt", { offset: 200_000, limit: 1 });
        const anchor = view.text.split("|")[0];
        const done = await ws.patch({
          files: [{
            path: "a.txt",
            ops: [{ op: "replace", start: anchor, lines: ["X"] }],
          }],
        });
        assert.ok(done.entry, "the patch has an entry");
        const entry = await ws.entry(done.entry);
        assert.match(entry.files[0].diff, /^-line 199999$/m);
        assert.match(entry.files[0].diff, /^\+X$/m);
        const undone = await ws.undo(done.entry);
        assert.equal(undone.undoOf, done.entry);
        assert.equal(await readFile(join(dir, "a.txt"), "utf8"), text);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
