/**
 * Several edits from one read (docs/reads.md#views-several-edits-from-one-read):
 * each edit of a chain, sent as its own call with anchors from the one read,
 * lands on the line the model meant, or is refused with the bytes on disk
 * unchanged — through the library and a real CLI process per call.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { PatchRefusedError } from "../../../src/errors.ts";
import { lineHash } from "../../../src/hash/fnv.ts";
import { openWorkspace } from "../../../src/workspace/mod.ts";
import { runTs } from "../../_spawn.ts";
import { makeTree, snapshot, type Tree } from "../../workspace/_helpers.ts";

const CLI = new URL("../../../src/cli/main.ts", import.meta.url).pathname;
const T = { timeout: 60_000 };

const LINES = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
const FILE = LINES.join("\n") + "\n";

/** The anchors a read printed, by line number (any header line is skipped). */
function anchorsIn(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of text.matchAll(/^(\d+):([0-9a-f]{2})\|/gm)) {
    out.set(Number(m[1]), `${m[1]}:${m[2]}`);
  }
  return out;
}

/** The lines as they stand after edits given by line number as read. */
function expected(
  edits: { at: number; kind: "replace" | "insert" | "delete" }[],
): string {
  const out: string[] = [];
  LINES.forEach((line, i) => {
    const e = edits.find((x) => x.at === i + 1);
    if (!e) return void out.push(line);
    if (e.kind === "replace") out.push(line.toUpperCase());
    else if (e.kind === "insert") out.push(line, `after ${i + 1}`);
  });
  return out.join("\n") + "\n";
}

function opText(
  a: string,
  kind: "replace" | "insert" | "delete",
  at: number,
): string {
  if (kind === "replace") return `= ${a}\n~${LINES[at - 1].toUpperCase()}`;
  if (kind === "insert") return `+ ${a}\n~after ${at}`;
  return `- ${a}`;
}

describe("views: several edits from one read", () => {
  let t: Tree;
  beforeEach(async () => {
    t = await makeTree();
    await writeFile(join(t.root, "f.txt"), FILE);
  });
  afterEach(() => t.cleanup());

  const orders: [
    string,
    { at: number; kind: "replace" | "insert" | "delete" }[],
  ][] = [
    ["top-down", [{ at: 5, kind: "insert" }, { at: 12, kind: "delete" }, {
      at: 30,
      kind: "replace",
    }]],
    ["bottom-up", [{ at: 30, kind: "insert" }, { at: 20, kind: "delete" }, {
      at: 3,
      kind: "replace",
    }]],
    ["shuffled, each beside the last", [
      { at: 10, kind: "delete" },
      { at: 11, kind: "insert" },
      { at: 9, kind: "replace" },
      { at: 12, kind: "delete" },
      { at: 8, kind: "insert" },
    ]],
  ];

  for (const [name, edits] of orders) {
    it(
      `library, L:HH: ${name}, each as its own patch, all land as if sent at once`,
      T,
      async () => {
        const ws = openWorkspace(t.root, { stateDir: t.state });
        const anchors = anchorsIn((await ws.read("f.txt")).text);
        for (const e of edits) {
          await ws.patch(
            `@@ f.txt\n${opText(anchors.get(e.at)!, e.kind, e.at)}`,
          );
        }
        assert.equal(
          await readFile(join(t.root, "f.txt"), "utf8"),
          expected(edits),
        );
      },
    );
  }

  // Bare numbers that stand within an earlier result's lines name two
  // lines (see the ambiguity test below): these chains keep apart.
  for (const [name, edits] of orders.slice(0, 2)) {
    it(
      `library, lean numbers: ${name}, all land as if sent at once`,
      T,
      async () => {
        const ws = openWorkspace(t.root, { stateDir: t.state });
        await ws.read("f.txt", { anchors: "lean" });
        for (const e of edits) {
          await ws.patch(`@@ f.txt\n${opText(String(e.at), e.kind, e.at)}`);
        }
        assert.equal(
          await readFile(join(t.root, "f.txt"), "utf8"),
          expected(edits),
        );
      },
    );
  }

  it(
    "CLI: read, then three patch processes built from that read, top-down, all exit 0",
    T,
    async () => {
      const env = { HASHLINE_STORE: t.state };
      const read = await runTs(CLI, ["read", "f.txt", "--root", t.root], {
        env,
        cwd: t.root,
      });
      assert.equal(read.code, 0, read.stderr);
      const anchors = anchorsIn(read.stdout);
      const edits = orders[0][1];
      for (const e of edits) {
        const run = await runTs(CLI, ["patch", "-", "--root", t.root], {
          env,
          cwd: t.root,
          input: `@@ f.txt\n${opText(anchors.get(e.at)!, e.kind, e.at)}\n`,
        });
        assert.equal(run.code, 0, run.stdout + run.stderr);
      }
      assert.equal(
        await readFile(join(t.root, "f.txt"), "utf8"),
        expected(edits),
      );
    },
  );

  it(
    "a second edit naming a line the first removed is refused, naming the first's entry; the first stands",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      const anchors = anchorsIn((await ws.read("f.txt")).text);
      const first = await ws.patch(
        `@@ f.txt\n- ${anchors.get(10)}..${anchors.get(12)}`,
      );
      const after = await readFile(join(t.root, "f.txt"), "utf8");
      const refused = await ws.patch(`@@ f.txt\n= ${anchors.get(11)}\n~X`)
        .then(() => null, (e) => e);
      assert.ok(refused instanceof PatchRefusedError, String(refused));
      assert.equal(refused.problems[0].code, "STALE_ANCHOR");
      assert.match(refused.message, new RegExp(`its own edit ${first.entry}`));
      assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), after);
      // The refusal showed lines 8–12 as they are now; an older anchor in
      // that window is judged against them, and refused too.
      const again = await ws.patch(`@@ f.txt\n- ${anchors.get(12)}`).then(
        () => null,
        (e) => e,
      );
      assert.ok(again instanceof PatchRefusedError, String(again));
      assert.equal(await readFile(join(t.root, "f.txt"), "utf8"), after);
      // The same by number after a lean read.
      await ws.read("f.txt", { anchors: "lean" });
      const lean = await ws.patch("@@ f.txt\n- 5").then(() => null, (e) => e);
      assert.equal(lean, null);
    },
  );

  it(
    "a line the session's own edit moved, then changed by another party, is refused naming its new number",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      const anchors = anchorsIn((await ws.read("f.txt")).text);
      await ws.patch(`@@ f.txt\n+ ${anchors.get(2)}\n~new a\n~new b`);
      const mine = await readFile(join(t.root, "f.txt"), "utf8");
      // Line 20 as read is line 22 now; someone else changes it.
      const theirs = mine.replace("line 20\n", "line twenty\n");
      await writeFile(join(t.root, "f.txt"), theirs);
      const before = await snapshot(t.root);
      const refused = await ws.patch(`@@ f.txt\n= ${anchors.get(20)}\n~TWENTY`)
        .then(() => null, (e) => e);
      assert.ok(refused instanceof PatchRefusedError, String(refused));
      assert.equal(refused.problems[0].code, "STALE_ANCHOR");
      assert.match(
        refused.message,
        /Line 20 as this session read it is line 22 now/,
      );
      assert.match(refused.message, /^22:[0-9a-f]{2}\|line twenty$/m);
      assert.deepEqual(await snapshot(t.root), before);
    },
  );

  it(
    "after a lean edit whose result showed line 14 anew, a bare 14 from the first read is refused as ambiguous",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      await ws.read("f.txt", { anchors: "lean" });
      const done = await ws.patch("@@ f.txt\n+ 12\n~inserted");
      assert.match(done.files[0].anchors, /^14\|line 13$/m);
      const before = await snapshot(t.root);
      const refused = await ws.patch("@@ f.txt\n= 14\n~X").then(
        () => null,
        (e) => e,
      );
      assert.ok(refused instanceof PatchRefusedError, String(refused));
      assert.match(refused.message, /ambiguous/);
      // Both candidates are shown where they stand now, in the lean form.
      assert.match(refused.message, /^15\|line 14$/m);
      assert.match(refused.message, /^14\|line 13$/m);
      assert.doesNotMatch(refused.message, /^\d+:[0-9a-f]{2}\|/m);
      assert.deepEqual(await snapshot(t.root), before);
      // The resend names one line with its hash, and lands there.
      await ws.patch(`@@ f.txt\n= 15:${lineHash("line 14")}\n~X`);
      assert.match(
        await readFile(join(t.root, "f.txt"), "utf8"),
        /\nline 13\nX\nline 15\n/,
      );
    },
  );

  it(
    "another party's insert between two edits is rebased onto the lines as read",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      const anchors = anchorsIn((await ws.read("f.txt")).text);
      await ws.patch(`@@ f.txt\n= ${anchors.get(5)}\n~FIVE`);
      const now = await readFile(join(t.root, "f.txt"), "utf8");
      await writeFile(join(t.root, "f.txt"), "theirs\n" + now);
      await ws.patch(`@@ f.txt\n= ${anchors.get(30)}\n~THIRTY`, {
        rebase: true,
      });
      const lines = (await readFile(join(t.root, "f.txt"), "utf8")).split("\n");
      assert.equal(lines[0], "theirs");
      assert.equal(lines[5], "FIVE");
      assert.equal(lines[30], "THIRTY");
    },
  );

  it(
    "views are bounded: an anchor only a dropped view could resolve is refused, never guessed",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      const first = anchorsIn(
        (await ws.read("f.txt", { offset: 1, limit: 3 })).text,
      );
      await ws.patch(`@@ f.txt\n+ ${first.get(1)}\n~top`);
      // 64 later windows that never show line 3 push the first read out.
      for (let k = 0; k < 64; k++) {
        await ws.read("f.txt", {
          offset: 10 + (k % 30),
          limit: 1 + Math.floor(k / 30),
        });
      }
      const before = await snapshot(t.root);
      const refused = await ws.patch(`@@ f.txt\n= ${first.get(3)}\n~X`).then(
        () => null,
        (e) => e,
      );
      assert.ok(refused instanceof PatchRefusedError, String(refused));
      assert.equal(refused.problems[0].code, "STALE_ANCHOR");
      assert.deepEqual(await snapshot(t.root), before);
    },
  );
  it(
    "a unified diff after the session's own edit is located in what it knows now, once",
    T,
    async () => {
      const ws = openWorkspace(t.root, { stateDir: t.state });
      const anchors = anchorsIn((await ws.read("f.txt")).text);
      await ws.patch(`@@ f.txt\n+ ${anchors.get(5)}\n~a\n~b`);
      const diff =
        "--- a/f.txt\n+++ b/f.txt\n@@ -19,3 +19,3 @@\n line 19\n-line 20\n+TWENTY\n line 21\n";
      const done = await ws.patch(diff);
      assert.match(done.summary, /\(unified diff\)/);
      const lines = (await readFile(join(t.root, "f.txt"), "utf8")).split("\n");
      assert.deepEqual(lines.slice(20, 23), ["line 19", "TWENTY", "line 21"]);
    },
  );
});
