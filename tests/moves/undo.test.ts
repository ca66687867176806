/**
 * Undo of moves and file operations applies only while what it restores
 * still stands as the entry left it (else `MOVED_ON`, nothing written);
 * a rename keeps the file's mode; read records follow a rename and are
 * dropped for other sessions, and for everyone on a delete.
 */
import assert from "node:assert/strict";
import { chmod, link, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";

const anchors = (text: string) =>
  text.split("\n").map((l) => l.slice(0, l.indexOf("|")));

async function movedOn(t: Tree, id: string): Promise<void> {
  const ws = t.open();
  const before = await snapshot(t.root);
  await assert.rejects(ws.undo(id), { code: "MOVED_ON" });
  assert.deepEqual(await snapshot(t.root), before);
}

describe("undo of moves and file operations", () => {
  it(
    "MOVED_ON where the moved lines, the deleted path, the renamed-from path or the created file changed since",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), "a1\na2\na3\n");
        await writeFile(join(t.root, "b.txt"), "b1\n");
        await writeFile(join(t.root, "d.txt"), "d1\n");
        await writeFile(join(t.root, "r.txt"), "r1\n");
        const ws = t.open();
        const a = anchors((await ws.read("a.txt")).text);
        const b = anchors((await ws.read("b.txt")).text);
        await ws.read("d.txt");
        await ws.read("r.txt");
        const moved = await ws.patch({
          files: [{
            path: "a.txt",
            ops: [{ op: "move", start: a[1], to: "b.txt", after: b[0] }],
          }],
        } as never);
        const bb = anchors((await ws.read("b.txt")).text);
        await ws.patch({
          files: [{
            path: "b.txt",
            ops: [{ op: "replace", start: bb[1], lines: ["A2 edited"] }],
          }],
        });
        await movedOn(t, moved.entry!);

        const deleted = await ws.patch("@@- d.txt\n");
        await writeFile(join(t.root, "d.txt"), "again\n");
        await movedOn(t, deleted.entry!);

        await chmod(join(t.root, "r.txt"), 0o700);
        await ws.read("r.txt");
        const renamed = await ws.patch("@@ r.txt -> s.txt\n");
        assert.equal((await stat(join(t.root, "s.txt"))).mode & 0o777, 0o700);
        await writeFile(join(t.root, "r.txt"), "taken\n");
        await movedOn(t, renamed.entry!);

        const created = await ws.patch({
          files: [{
            path: "n/c.txt",
            create: true,
            ops: [{ op: "append", lines: ["c"] }],
          }],
        } as never);
        await writeFile(join(t.root, "n", "c.txt"), "c changed\n");
        await movedOn(t, created.entry!);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "read records: a rename carries the committer's record to the new path; others' and a deleted file's are dropped",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "p.txt"), "p1\np2\n");
        await writeFile(join(t.root, "q.txt"), "q1\n");
        const me = t.open({ session: "me" });
        const other = t.open({ session: "other" });
        const p = anchors((await me.read("p.txt")).text);
        await other.read("p.txt");
        await other.read("q.txt");
        await me.read("q.txt");
        await me.patch("@@ p.txt -> moved.txt\n");
        // The committer edits the new path without reading it again.
        await me.patch({
          files: [{
            path: "moved.txt",
            ops: [{ op: "replace", start: p[1], lines: ["P2"] }],
          }],
        });
        // The other session's record of p.txt is gone: a new p.txt is unread.
        await writeFile(join(t.root, "p.txt"), "p1\np2\n");
        await assert.rejects(
          other.patch({
            files: [{
              path: "p.txt",
              ops: [{ op: "delete", start: p[0] }],
            }],
          }),
          { code: "NOT_READ" },
        );
        await me.patch("@@- q.txt\n");
        await writeFile(join(t.root, "q.txt"), "q1\n");
        for (const ws of [me, other]) {
          await assert.rejects(ws.patch("@@- q.txt\n"), { code: "NOT_READ" });
        }
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a case-only rename onto a name still held (here a hard link) rolls back whole",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "case.txt"), "c1\n");
        await link(join(t.root, "case.txt"), join(t.root, "CASE.txt"));
        const ws = t.open();
        await ws.read("case.txt");
        const before = await snapshot(t.root);
        await assert.rejects(ws.patch("@@ case.txt -> CASE.txt\n"), {
          code: "CHANGED",
        });
        assert.deepEqual(await snapshot(t.root), before);
      } finally {
        await t.cleanup();
      }
    },
  );

  it(
    "a dry run of file operations and moves writes nothing and records nothing",
    {
      timeout: 30_000,
    },
    async () => {
      const t = await makeTree();
      try {
        await writeFile(join(t.root, "a.txt"), "a1\na2\n");
        await writeFile(join(t.root, "b.txt"), "b1\n");
        const ws = t.open();
        const a = anchors((await ws.read("a.txt")).text);
        await ws.read("b.txt");
        const before = await snapshot(t.root);
        const r = await ws.patch({
          files: [
            {
              path: "a.txt",
              rename: "c/a.txt",
              ops: [{ op: "move", start: a[0], to: "n.txt" }],
            },
            { path: "b.txt", delete: true },
            { path: "n.txt", create: true, ops: [] },
          ],
        } as never, { dryRun: true });
        assert.match(
          r.summary,
          /^Dry run: nothing was written\.\n\nMoved line 1 → n\.txt:1/,
        );
        assert.equal(r.entry, undefined);
        assert.deepEqual(await snapshot(t.root), before);
        assert.deepEqual(await ws.history(), []);
      } finally {
        await t.cleanup();
      }
    },
  );
});
