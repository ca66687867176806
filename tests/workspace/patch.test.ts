import assert from "node:assert/strict";
import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../src/errors.ts";
import { foldHash, hex2, lineHash, lineHash32 } from "../../src/hash/fnv.ts";
import {
  anchorOf,
  leftovers,
  makeTree,
  snapshot,
  type Tree,
} from "./_helpers.ts";

const windows = process.platform === "win32";

function refused(
  codes: string[],
  check?: (e: PatchRefusedError) => void,
): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof PatchRefusedError, String(e));
    assert.match(e.message, /^Rejected — nothing written\./);
    assert.deepEqual(e.problems.map((p) => p.code), codes);
    check?.(e);
    return true;
  };
}

describe("workspace patches", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(() => t.cleanup());

  const put = (name: string, content: string | Uint8Array) =>
    writeFile(join(t.root, name), content);
  const get = (name: string) => readFile(join(t.root, name), "utf8");

  it("refuses to edit a file the session has not read, and names the fix", async () => {
    await put("a.txt", "one\ntwo\n");
    const ws = t.open();
    const other = t.open({ session: "other" });
    await other.read("a.txt");
    const before = await snapshot(t.root);
    await assert.rejects(
      ws.patch({
        files: [{ path: "a.txt", ops: [{ op: "append", lines: ["x"] }] }],
      }),
      refused(["NOT_READ"], (e) => assert.match(e.message, /read it first/)),
    );
    assert.deepEqual(await snapshot(t.root), before);
    await ws.read("a.txt");
    await ws.patch({
      files: [{ path: "a.txt", ops: [{ op: "append", lines: ["x"] }] }],
    });
    assert.equal(await get("a.txt"), "one\ntwo\nx\n");
  });

  it("creates a file with append/prepend and no read; other ops on a missing file are NOT_FOUND", async () => {
    const ws = t.open();
    const result = await ws.patch(
      "@@ src/new.ts\n+\n~export const a = 1;\n<\n~// head",
    );
    // On an empty file append and prepend share one gap: they land in op order (docs/patch-format.md, "Terminators").
    assert.equal(await get("src/new.ts"), "export const a = 1;\n// head\n");
    assert.equal(result.files[0].created, true);
    assert.match(result.summary, /^Created src\/new\.ts \(\+2\)/);
    await assert.rejects(
      ws.patch({
        files: [{ path: "missing.ts", ops: [{ op: "delete", start: "1:00" }] }],
      }),
      { code: "NOT_FOUND" },
    );
    assert.deepEqual((await readdir(t.root)).sort(), ["src"]);
  });

  it("re-hashes anchors from disk: a stale anchor is refused with fresh anchors around it", async () => {
    await put("a.txt", "l1\nl2\nl3\nl4\nl5\n");
    const ws = t.open();
    const view = await ws.read("a.txt");
    await put("a.txt", "l1\nl2\nCHANGED\nl4\nl5\n");
    const before = await snapshot(t.root);
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: anchorOf(view.text, 3), lines: ["x"] }],
        }],
      }),
      refused(["STALE_ANCHOR"], (e) => {
        assert.equal(e.problems[0].path, "a.txt");
        assert.match(
          e.message,
          new RegExp(`3:${lineHash("CHANGED")}\\|CHANGED`),
        );
        assert.match(e.message, new RegExp(`1:${lineHash("l1")}\\|l1`));
        assert.match(e.message, new RegExp(`5:${lineHash("l5")}\\|l5`));
      }),
    );
    assert.deepEqual(await snapshot(t.root), before);
  });

  it("says where a line moved when lines were inserted above it", async () => {
    await put("a.txt", "alpha\nbeta\ngamma\n");
    const ws = t.open();
    const view = await ws.read("a.txt");
    await put("a.txt", "new top\nalpha\nbeta\ngamma\n");
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [{ op: "delete", start: anchorOf(view.text, 3) }],
        }],
      }),
      refused(
        ["STALE_ANCHOR"],
        (e) =>
          assert.match(
            e.message,
            new RegExp(`moved to line 4 → 4:${lineHash("gamma")}`),
          ),
      ),
    );
    assert.equal(await get("a.txt"), "new top\nalpha\nbeta\ngamma\n");
  });

  it("catches drift the 2-hex fold misses through the full hash of the read record", async () => {
    const original = "target line";
    const fold = foldHash(lineHash32(original));
    let twin = "";
    for (let i = 0; !twin; i++) {
      const s = `other ${i}`;
      if (
        foldHash(lineHash32(s)) === fold &&
        lineHash32(s) !== lineHash32(original)
      ) twin = s;
    }
    await put("a.txt", `a\n${original}\nc\n`);
    const ws = t.open();
    await ws.read("a.txt");
    await put("a.txt", `a\n${twin}\nc\n`);
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [{ op: "replace", start: `2:${hex2(fold)}`, lines: ["x"] }],
        }],
      }),
      refused(
        ["STALE_ANCHOR"],
        (e) => assert.match(e.message, /changed since it was read/),
      ),
    );
    assert.equal(await get("a.txt"), `a\n${twin}\nc\n`);
  });

  it("gathers every problem across every file and writes none of them", async () => {
    await put("a.txt", "a1\na2\n");
    await put("b.txt", "b1\nb2\n");
    await put("c.txt", "c1\n");
    const ws = t.open();
    const a = await ws.read("a.txt");
    await ws.read("b.txt");
    await put("b.txt", "b1\nB2\n");
    const before = await snapshot(t.root);
    await assert.rejects(
      ws.patch({
        files: [
          {
            path: "a.txt",
            ops: [{ op: "replace", start: anchorOf(a.text, 1), lines: ["A1"] }],
          },
          {
            path: "b.txt",
            ops: [{
              op: "replace",
              start: `2:${lineHash("b2")}`,
              lines: ["x"],
            }],
          },
          { path: "c.txt", ops: [{ op: "append", lines: ["c2"] }] },
          { path: "d.txt", ops: [{ op: "append", lines: [] }] },
        ],
      }),
      refused(["STALE_ANCHOR", "NOT_READ", "EMPTY_INSERT"], (e) => {
        assert.deepEqual(e.problems.map((p) => p.path), [
          "b.txt",
          "c.txt",
          "d.txt",
        ]);
        assert.equal(e.code, "PATCH_REFUSED");
      }),
    );
    assert.deepEqual(await snapshot(t.root), before);
    assert.deepEqual(await leftovers(t.root), []);
  });

  it("commits a multi-file patch to every file", async () => {
    await put("a.txt", "a1\na2\n");
    await put("b.txt", "b1\nb2\n");
    const ws = t.open();
    const a = await ws.read("a.txt");
    const b = await ws.read("b.txt");
    const result = await ws.patch(
      `@@ a.txt\n= ${anchorOf(a.text, 2)}\n~A2\n@@ b.txt\n- ${
        anchorOf(b.text, 1)
      }\n@@ c.txt\n+\n~c1`,
    );
    assert.equal(await get("a.txt"), "a1\nA2\n");
    assert.equal(await get("b.txt"), "b2\n");
    assert.equal(await get("c.txt"), "c1\n");
    assert.deepEqual(
      result.files.map((f) => [f.path, f.added, f.removed, f.created]),
      [["a.txt", 1, 1, false], ["b.txt", 0, 1, false], ["c.txt", 1, 0, true]],
    );
    assert.deepEqual(
      result.summary.split("\n").filter((l) => /^(Edited|Created) /.test(l)),
      ["Edited a.txt (+1 -1)", "Edited b.txt (+0 -1)", "Created c.txt (+1)"],
    );
    assert.match(
      result.files[0].diff,
      /^--- a\.txt\n\+\+\+ a\.txt\n@@ -1,2 \+1,2 @@\n a1\n-a2\n\+A2$/,
    );
    assert.deepEqual(await leftovers(t.root), []);
    assert.deepEqual(await readdir(join(t.state, "journal")), []);
  });

  it("refreshes the read record so edits chain on the fresh anchors", async () => {
    await put(
      "a.txt",
      Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n",
    );
    const ws = t.open();
    const view = await ws.read("a.txt", { offset: 4, limit: 3 });
    const first = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{
          op: "insert_after",
          anchor: anchorOf(view.text, 5),
          lines: ["inserted"],
        }],
      }],
    });
    assert.equal(
      first.files[0].anchors,
      [4, 5, "inserted", 6, 7].map((n, i) => {
        const text = typeof n === "string" ? n : `line ${n}`;
        return `${4 + i}:${lineHash(text)}|${text}`;
      }).join("\n"),
    );
    const second = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{
          op: "replace",
          start: anchorOf(first.files[0].anchors, 6),
          lines: ["INSERTED"],
        }],
      }],
    });
    assert.equal(second.files[0].added, 1);
    const third = await ws.patch({
      files: [{
        path: "a.txt",
        ops: [{ op: "delete", start: anchorOf(view.text, 4) }],
      }],
    });
    assert.equal(third.files[0].removed, 1);
    assert.equal(
      await get("a.txt"),
      "line 1\nline 2\nline 3\nline 5\nINSERTED\nline 6\nline 7\nline 8\nline 9\nline 10\n",
    );
  });

  it("dryRun validates and returns the diff without writing anything", async () => {
    await put("a.txt", "x\ny\n");
    const ws = t.open();
    const view = await ws.read("a.txt");
    const before = await snapshot(t.base);
    const result = await ws.patch(
      `@@ a.txt\n= ${anchorOf(view.text, 2)}\n~Y\n@@ new.txt\n+\n~n`,
      { dryRun: true },
    );
    assert.equal(result.dryRun, true);
    assert.match(result.summary, /^Dry run: nothing was written\./);
    assert.match(result.files[0].diff, /-y\n\+Y$/);
    assert.deepEqual(await snapshot(t.base), before);
    await assert.rejects(
      ws.patch(`@@ a.txt\n= 2:00\n~Y`, { dryRun: true }),
      refused(["STALE_ANCHOR"]),
    );
    const real = await ws.patch(`@@ a.txt\n= ${anchorOf(view.text, 2)}\n~Y`);
    assert.equal(real.dryRun, false);
    assert.equal(await get("a.txt"), "x\nY\n");
  });

  it("keeps CRLF, the BOM and a missing final newline", async () => {
    await put("crlf.txt", "\uFEFFa\r\nb\r\nc");
    await put("lf.txt", "a\nb");
    const ws = t.open();
    const v = await ws.read("crlf.txt");
    assert.equal(v.text.split("\n")[0], `1:${lineHash("a")}|a`);
    await ws.patch({
      files: [{
        path: "crlf.txt",
        ops: [
          { op: "replace", start: anchorOf(v.text, 2), lines: ["B", "B2"] },
          { op: "append", lines: ["d"] },
        ],
      }],
    });
    assert.equal(await get("crlf.txt"), "\uFEFFa\r\nB\r\nB2\r\nc\r\nd");
    const w = await ws.read("lf.txt");
    await ws.patch({
      files: [{
        path: "lf.txt",
        ops: [{ op: "delete", start: anchorOf(w.text, 2) }],
      }],
    });
    assert.equal(await get("lf.txt"), "a");
    const all = await ws.read("crlf.txt");
    await ws.patch({
      files: [{
        path: "crlf.txt",
        ops: [{
          op: "delete",
          start: anchorOf(all.text, 1),
          end: anchorOf(all.text, 5),
        }],
      }],
    });
    assert.equal(await get("crlf.txt"), "\uFEFF");
  });

  it("keeps the file's mode", { skip: windows }, async () => {
    await put("run.sh", "#!/bin/sh\necho hi\n");
    await chmod(join(t.root, "run.sh"), 0o751);
    const ws = t.open();
    const v = await ws.read("run.sh");
    await ws.patch({
      files: [{
        path: "run.sh",
        ops: [{
          op: "replace",
          start: anchorOf(v.text, 2),
          lines: ["echo bye"],
        }],
      }],
    });
    assert.equal((await stat(join(t.root, "run.sh"))).mode & 0o777, 0o751);
    assert.equal(await get("run.sh"), "#!/bin/sh\necho bye\n");
  });

  it("refuses pasted read prefixes and overlapping ops with nothing written", async () => {
    await put("a.txt", "a\nb\nc\n");
    const ws = t.open();
    const v = await ws.read("a.txt");
    const before = await snapshot(t.root);
    await assert.rejects(
      ws.patch({
        files: [{
          path: "a.txt",
          ops: [
            {
              op: "replace",
              start: anchorOf(v.text, 1),
              end: anchorOf(v.text, 2),
              lines: ["x"],
            },
            { op: "insert_after", anchor: anchorOf(v.text, 2), lines: ["y"] },
            { op: "append", lines: [`3:${lineHash("c")}|c`] },
          ],
        }],
      }),
      (e: unknown) => {
        assert.ok(e instanceof PatchRefusedError);
        assert.deepEqual(e.problems.map((p) => p.code).sort(), [
          "OVERLAP",
          "PASTED_PREFIX",
        ]);
        return true;
      },
    );
    assert.deepEqual(await snapshot(t.root), before);
  });

  it("writes whole files: create freely, overwrite only what the session read and is unchanged", async () => {
    const ws = t.open();
    const created = await ws.write("dir/w.txt", "a\nb\n");
    assert.equal(created.created, true);
    assert.match(created.summary, /^Created dir\/w\.txt \(2 lines\)/);
    const over = await ws.write("dir/w.txt", "a\nc\n");
    assert.deepEqual([over.created, over.added, over.removed], [false, 1, 1]);
    assert.equal(await get("dir/w.txt"), "a\nc\n");
    await put("other.txt", "o\n");
    await assert.rejects(ws.write("other.txt", "x\n"), refused(["NOT_READ"]));
    await ws.read("other.txt");
    await put("other.txt", "changed\n");
    await assert.rejects(ws.write("other.txt", "x\n"), refused(["CHANGED"]));
    assert.equal(await get("other.txt"), "changed\n");
    const v = await ws.read("other.txt");
    await ws.write("other.txt", "x\n");
    assert.equal(await get("other.txt"), "x\n");
    await ws.patch({
      files: [{
        path: "other.txt",
        ops: [{ op: "append", lines: ["after write"] }],
      }],
    });
    assert.equal(v.totalLines, 1);
    assert.equal(await get("other.txt"), "x\nafter write\n");
    await assert.rejects(ws.write("bin.txt", "a\0b"), TypeError);
  });

  it("forgets remembered lines past the end when a fresh read shows the file shrank", async () => {
    await put("s.txt", "1\n2\n3\n4\n5\n");
    const ws = t.open();
    await ws.read("s.txt");
    await put("s.txt", "1\n2\n3\n");
    assert.equal((await ws.read("s.txt")).totalLines, 3);
    await ws.write("s.txt", "x\n");
    assert.equal(await get("s.txt"), "x\n");
  });

  it("rejects malformed patches and options as bad input", async () => {
    const ws = t.open();
    await assert.rejects(ws.patch("@@ a.txt\n- 1:zz\n~x"), SyntaxError);
    await assert.rejects(ws.patch({ files: [] }), TypeError);
    await assert.rejects(
      ws.patch([{ op: "append", lines: ["x"] }] as never),
      TypeError,
    );
    await assert.rejects(ws.read("a.txt", { session: "../evil" }), TypeError);
    assert.throws(() => t.open({ session: "a/b" }), TypeError);
    await put("a.txt", "a\n");
    await assert.rejects(ws.read("a.txt", { offset: 3 }), /has 1 line/);
    assert.deepEqual(await ws.read("a.txt", { offset: 1, limit: 1 }), {
      path: "a.txt",
      text: `1:${lineHash("a")}|a`,
      totalLines: 1,
      startLine: 1,
      endLine: 1,
      nextOffset: null,
    });
  });
});
