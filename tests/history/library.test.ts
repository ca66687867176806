/**
 * The library door of the edit history: one entry per commit, newest
 * first, undo that round-trips byte for byte, refusals that name lines.
 */
import assert from "node:assert/strict";
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { createApp } from "../../src/http/app.ts";
import { makeTree, type Tree } from "../workspace/_helpers.ts";
import { anchors, bytesOf, SHAPES } from "./_helpers.ts";

describe("history through the library", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  for (const shape of SHAPES) {
    it(`patch → log → undo → undo round-trips ${shape.name} byte for byte`, async () => {
      await writeFile(join(t.root, shape.name), shape.content);
      const before = await bytesOf(t.root, shape.name);
      const ws = t.open();
      const a = await anchors(ws, shape.name);
      const r = await ws.patch({
        files: [{
          path: shape.name,
          ops: [
            { op: "replace", start: a[1], lines: ["BETA"] },
            { op: "delete", start: a[3] },
            { op: "prepend", lines: ["zero"] },
          ],
        }],
      });
      const after = await bytesOf(t.root, shape.name);
      assert.ok(r.entry);
      const [top] = await ws.history();
      assert.equal(top.id, r.entry);
      assert.equal(top.door, "library");
      assert.equal(top.session, "default");
      assert.equal(top.summary, r.summary.split("\n")[0]);
      assert.deepEqual(top.files, [{ path: shape.name, added: 2, removed: 2 }]);
      const u = await ws.undo(r.entry);
      assert.equal(await bytesOf(t.root, shape.name), before);
      assert.equal(u.undoOf, r.entry);
      const [undoEntry] = await ws.history({ limit: 1 });
      assert.equal(undoEntry.id, u.id);
      assert.equal(undoEntry.undoOf, r.entry);
      // An undo is an entry too: undoing it re-applies the change.
      await ws.undo(u.id!);
      assert.equal(await bytesOf(t.root, shape.name), after);
    });
  }

  it("a three-file patch is one entry, undone all at once", async () => {
    const names = ["a.txt", "b.txt", "c.txt"];
    for (const n of names) await writeFile(join(t.root, n), `${n} 1\n${n} 2\n`);
    const ws = t.open();
    const files = [];
    for (const n of names) {
      const a = await anchors(ws, n);
      files.push({
        path: n,
        ops: [{ op: "replace" as const, start: a[0], lines: [`${n} one`] }],
      });
    }
    const before = await Promise.all(names.map((n) => bytesOf(t.root, n)));
    const r = await ws.patch({ files });
    const list = await ws.history();
    assert.equal(list.length, 1);
    assert.deepEqual(list[0].files.map((f) => f.path), names);
    const d = await ws.entry(r.entry!);
    assert.match(d.files[2].diff, /^-c\.txt 1$/m);
    assert.match(d.files[2].diff, /^\+c\.txt one$/m);
    await ws.undo(r.entry!);
    assert.deepEqual(
      await Promise.all(names.map((n) => bytesOf(t.root, n))),
      before,
    );
    assert.equal((await ws.history()).length, 2);
  });

  it("refuses undo with MOVED_ON when a line the entry wrote changed since, writing nothing", async () => {
    await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\n");
    const ws = t.open();
    let a = await anchors(ws, "a.txt");
    const r = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: a[1], lines: ["TWO"] }],
      }],
    });
    a = await anchors(ws, "a.txt");
    await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: a[1], lines: ["Two!"] }],
      }],
    });
    const bytes = await bytesOf(t.root, "a.txt");
    const count = (await ws.history()).length;
    await assert.rejects(
      ws.undo(r.entry!),
      (
        e: Error & {
          code?: string;
          problems?: { path?: string; line?: number }[];
        },
      ) => {
        assert.equal(e.code, "MOVED_ON");
        assert.match(e.message, /^Rejected — nothing written\./);
        assert.match(
          e.message,
          /a\.txt: line 2 no longer holds what h_1 wrote \("TWO"\)/,
        );
        assert.deepEqual(e.problems?.map((p) => [p.path, p.line]), [[
          "a.txt",
          2,
        ]]);
        return true;
      },
    );
    assert.equal(await bytesOf(t.root, "a.txt"), bytes);
    assert.equal((await ws.history()).length, count);
    await assert.rejects(ws.undo(r.entry!, { dryRun: true }), {
      code: "MOVED_ON",
    });
  });

  it("applies undo when only other lines changed, keeping them (also lines inserted above)", async () => {
    await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\nfour\n");
    const ws = t.open();
    let a = await anchors(ws, "a.txt");
    const r = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: a[2], lines: ["THREE"] }],
      }],
    });
    a = await anchors(ws, "a.txt");
    await ws.patch({
      files: [{
        path: "a.txt",
        ops: [
          { op: "replace", start: a[0], lines: ["ONE"] },
          { op: "insert_before", anchor: a[1], lines: ["one and a half"] },
          { op: "replace", start: a[3], lines: ["FOUR"] },
        ],
      }],
    });
    const dry = await ws.undo(r.entry!, { dryRun: true });
    assert.equal(dry.id, null);
    assert.match(dry.files[0].diff, /^-THREE\n\+three$/m);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "ONE\none and a half\ntwo\nTHREE\nFOUR\n",
    );
    await ws.undo(r.entry!);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "ONE\none and a half\ntwo\nthree\nFOUR\n",
    );
  });

  it("never undoes a copy by removing its source: an edited copy is MOVED_ON, a moved one is found", async () => {
    const ws = t.open();
    const copyTwoThree = async () => {
      await writeFile(join(t.root, "a.txt"), "one\ntwo\nthree\nfour\nfive\n");
      const a = await anchors(ws, "a.txt");
      return (await ws.patch({
        files: [{
          path: "a.txt",
          ops: [],
          moves: [{ op: "copy", start: a[1], end: a[2], after: a[4] }],
        }],
      } as never)).entry!;
    };
    // The copy's last line edited: its source, same text, stays put.
    let entry = await copyTwoThree();
    const edited = "one\ntwo\nthree\nfour\nfive\ntwo\nTHREE\n";
    await writeFile(join(t.root, "a.txt"), edited);
    const error = await ws.undo(entry).then(() => null, (e) => e);
    assert.equal(error?.code, "MOVED_ON", String(error));
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), edited);
    // A line put above everything: the copy is found where it now stands.
    entry = await copyTwoThree();
    await writeFile(
      join(t.root, "a.txt"),
      "zero\none\ntwo\nthree\nfour\nfive\ntwo\nthree\n",
    );
    await ws.undo(entry);
    assert.equal(
      await readFile(join(t.root, "a.txt"), "utf8"),
      "zero\none\ntwo\nthree\nfour\nfive\n",
    );
  });

  it("undo of a creation removes the file, only while it is unchanged", async () => {
    const ws = t.open();
    const made = await ws.patch({
      files: [{
        path: "sub/new.txt",
        ops: [{ op: "append", lines: ["hello"] }],
      }],
    });
    assert.deepEqual((await ws.history())[0].files, [{
      path: "sub/new.txt",
      added: 1,
      removed: 0,
      created: true,
    }]);
    const u = await ws.undo(made.entry!);
    assert.equal(await bytesOf(t.root, "sub/new.txt"), "absent");
    assert.deepEqual((await ws.history())[0].files, [{
      path: "sub/new.txt",
      added: 0,
      removed: 1,
      deleted: true,
    }]);
    await ws.undo(u.id!);
    assert.equal(
      await readFile(join(t.root, "sub/new.txt"), "utf8"),
      "hello\n",
    );
    const w = await ws.write("w.txt", "mine\n");
    await writeFile(join(t.root, "w.txt"), "mine\nand theirs\n");
    await assert.rejects(ws.undo(w.entry!), { code: "MOVED_ON" });
    assert.equal(
      await readFile(join(t.root, "w.txt"), "utf8"),
      "mine\nand theirs\n",
    );
  });

  it("undo of a whole-file write restores the old content, only while the file is as written", async () => {
    await writeFile(join(t.root, "a.txt"), "a\r\nb\r\nc");
    const ws = t.open();
    await ws.read("a.txt");
    const w = await ws.write("a.txt", "x\ny\n");
    assert.equal((await ws.history())[0].summary, "Wrote a.txt (+2 -3)");
    await ws.undo(w.entry!);
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "a\r\nb\r\nc");
    await ws.read("a.txt");
    const w2 = await ws.write("a.txt", "p\nq\nr\n");
    await appendFile(join(t.root, "a.txt"), "s\n");
    await assert.rejects(ws.undo(w2.entry!), (e: Error & { code?: string }) => {
      assert.equal(e.code, "MOVED_ON");
      assert.match(e.message, /changed since h_\d+ wrote it whole/);
      return true;
    });
    assert.equal(await readFile(join(t.root, "a.txt"), "utf8"), "p\nq\nr\ns\n");
  });

  it("a dry run writes no entry; a refused patch writes none", async () => {
    await writeFile(join(t.root, "a.txt"), "one\n");
    const ws = t.open();
    const a = await anchors(ws, "a.txt");
    await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: a[0], lines: ["x"] }],
      }],
    }, { dryRun: true });
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: "1:00", lines: ["x"] }],
        }],
      }),
    );
    assert.deepEqual(await ws.history(), []);
    await assert.rejects(ws.undo("h_1"), { code: "NOT_FOUND" });
    await assert.rejects(ws.entry("h_1"), { code: "NOT_FOUND" });
  });

  it("undo of a deletion after the file shrank past it is MOVED_ON, also over HTTP, and writes nothing", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, "a\nb\nc\n");
    const ws = t.open();
    const a = await anchors(ws, "a.txt");
    const r = await ws.patch({
      files: [{ path: "a.txt", ops: [{ op: "delete", start: a[1] }] }],
    });
    for (const now of ["", "a\n"]) {
      await writeFile(file, now);
      await assert.rejects(
        ws.undo(r.entry!),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, "MOVED_ON");
          assert.match(e.message, /cannot put them back/);
          return true;
        },
      );
      const app = createApp({ root: t.root, stateDir: t.state });
      const res = await app.request(`/v1/history/${r.entry}/undo`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(res.status, 409);
      assert.equal((await res.json()).error.code, "MOVED_ON");
      assert.equal(await readFile(file, "utf8"), now);
    }
  });

  it("an entry's summary is its result's first line, also for a file a patch creates", async () => {
    const ws = t.open();
    const r = await ws.patch({
      files: [{ path: "new.txt", ops: [{ op: "append", lines: ["x", "y"] }] }],
    });
    assert.equal(r.summary.split("\n")[0], "Created new.txt (+2)");
    const [top] = await ws.history();
    assert.equal(top.summary, "Created new.txt (+2)");
    assert.deepEqual(top.files, [
      { path: "new.txt", added: 2, removed: 0, created: true },
    ]);
  });

  it("a write of the bytes already there commits nothing and writes no entry, as a no-op patch", async () => {
    const file = join(t.root, "a.txt");
    await writeFile(file, "one\r\ntwo");
    const before = await stat(file);
    const ws = t.open();
    await ws.read("a.txt");
    const w = await ws.write("a.txt", "one\r\ntwo");
    assert.equal(w.entry, undefined);
    assert.equal(w.diff, "");
    const a = await anchors(ws, "a.txt");
    const p = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "replace", start: a[1], lines: ["two"] }],
      }],
    });
    assert.equal(p.entry, undefined);
    assert.deepEqual(await ws.history(), []);
    assert.equal(await readFile(file, "utf8"), "one\r\ntwo");
    assert.equal((await stat(file)).ino, before.ino);
  });

  it("filters by session, path and limit, newest first; ids only grow across reopenings", async () => {
    await writeFile(join(t.root, "a.txt"), "a\n");
    await writeFile(join(t.root, "b.txt"), "b\n");
    for (
      const [session, path, n] of [["s1", "a.txt", 1], ["s2", "b.txt", 2], [
        "s1",
        "b.txt",
        3,
      ]] as const
    ) {
      const ws = t.open({ session });
      const a = await anchors(ws, path);
      await ws.patch({
        files: [{
          path,
          ops: [{ op: "replace", start: a[0], lines: [`v${n}`] }],
        }],
      });
    }
    const ws = t.open();
    assert.deepEqual((await ws.history()).map((e) => e.id), [
      "h_3",
      "h_2",
      "h_1",
    ]);
    assert.deepEqual((await ws.history({ session: "s1" })).map((e) => e.id), [
      "h_3",
      "h_1",
    ]);
    assert.deepEqual((await ws.history({ path: "b.txt" })).map((e) => e.id), [
      "h_3",
      "h_2",
    ]);
    assert.deepEqual(
      (await ws.history({ path: "./b.txt", session: "s2" })).map((e) => e.id),
      ["h_2"],
    );
    assert.deepEqual((await ws.history({ limit: 1 })).map((e) => e.id), [
      "h_3",
    ]);
    await assert.rejects(ws.history({ limit: 0 }), TypeError);
    // Two workspaces on one state folder never hand out one id twice.
    const [x, y] = [t.open({ session: "x" }), t.open({ session: "y" })];
    const made = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) => (i % 2 ? x : y).write(`n${i}.txt`, `${i}\n`),
      ),
    );
    const ids = made.map((m) => Number(m.entry!.slice(2)));
    assert.equal(new Set(ids).size, 6);
    assert.ok(Math.min(...ids) > 3);
  });

  it("ignores a torn last record and appends after it", async () => {
    await writeFile(join(t.root, "a.txt"), "a\n");
    const ws = t.open();
    await ws.write("n.txt", "n\n");
    const log = join(t.state, "history", "log");
    const good = await readFile(log, "utf8");
    // A crash in the middle of writing a record.
    await appendFile(
      log,
      good.slice(0, Math.floor(good.length / 2)).replace("h_1", "h_2"),
    );
    assert.deepEqual((await t.open().history()).map((e) => e.id), ["h_1"]);
    const w = await t.open().write("m.txt", "m\n");
    assert.deepEqual((await t.open().history()).map((e) => e.id), [
      w.entry,
      "h_1",
    ]);
    // A record whose checksum does not match is skipped too.
    await appendFile(log, good.replace('"n.txt"', '"x.txt"'));
    assert.deepEqual((await t.open().history()).map((e) => e.id), [
      w.entry,
      "h_1",
    ]);
  });

  it("keeps the newest historyLimit entries, pruning the oldest first", async () => {
    const ws = t.open({ historyLimit: 5 });
    for (let i = 0; i < 40; i++) await ws.write(`f${i}.txt`, `${i}\n`);
    const all = await ws.history({ limit: 1000 });
    assert.deepEqual(all.map((e) => e.id), [
      "h_40",
      "h_39",
      "h_38",
      "h_37",
      "h_36",
    ]);
    await assert.rejects(ws.undo("h_1"), { code: "NOT_FOUND" });
    // Between prunes the log may hold a tenth more; a listing never shows them.
    const ten = t.open({ historyLimit: 10 });
    for (let i = 0; i < 15; i++) {
      await ten.write(`g${i}.txt`, `${i}\n`);
      const ids = (await ten.history({ limit: 1000 })).map((e) => e.id);
      assert.equal(ids.length, Math.min(10, 5 + i + 1), ids.join(","));
      assert.equal(ids[0], `h_${41 + i}`);
      // Nor can one past the newest ten be shown or undone.
      const past = `h_${41 + i - 10}`;
      await assert.rejects(ten.entry(past), { code: "NOT_FOUND" }, past);
      await assert.rejects(ten.undo(past), { code: "NOT_FOUND" });
      assert.equal((await ten.entry(ids[ids.length - 1])).id, ids.at(-1));
    }
  });

  it("an entry costs the size of the edit, not of the file", async () => {
    const big =
      Array.from({ length: 100_000 }, (_, i) => `line ${i} of a big file`).join(
        "\n",
      ) + "\n";
    await writeFile(join(t.root, "big.txt"), big);
    const ws = t.open();
    await ws.read("big.txt", { offset: 50_000, limit: 1 });
    const before = await stat(join(t.state, "history", "log")).then(
      (s) => s.size,
      () => 0,
    );
    await ws.patch({
      files: [{
        path: "big.txt",
        ops: [{
          op: "replace",
          start: `50000:${
            (await ws.read("big.txt", { offset: 50_000, limit: 1 })).text.slice(
              6,
              8,
            )
          }`,
          lines: ["changed"],
        }],
      }],
    });
    const grown = (await stat(join(t.state, "history", "log"))).size - before;
    assert.ok(
      grown < 1024,
      `a one-line patch of a ${big.length}-byte file grew the log by ${grown} bytes`,
    );
  });

  it("with history off, commits write no log", async () => {
    const ws = t.open({ history: false });
    const w = await ws.write("a.txt", "a\n");
    assert.equal(w.entry, undefined);
    assert.deepEqual(await ws.history(), []);
    await assert.rejects(stat(join(t.state, "history", "log")));
  });
});
