import assert from "node:assert/strict";
import { open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { formatHashlines } from "../../src/anchor/format.ts";
import { splitLines } from "../../src/anchor/split.ts";
import { PatchRefusedError } from "../../src/errors.ts";
import { lineHash, lineHash32 } from "../../src/hash/fnv.ts";
import { editContent } from "../../src/patch/apply.ts";
import type { PatchOp } from "../../src/patch/types.ts";
import { memoryFromHashes } from "../../src/patch/memory.ts";
import { planOps, planPatch } from "../../src/patch/plan.ts";
import { Confinement } from "../../src/fs/confine.ts";
import { rewrite, scanForPatch } from "../../src/stream/patch.ts";
import { streamRead } from "../../src/stream/read.ts";
import { anchorOf, makeTree, type Tree } from "./_helpers.ts";

/** A few MiB of source-like text with CRLF lines, wide characters and one line longer than a chunk. */
function bigText(): string {
  const parts: string[] = [];
  for (let i = 1; i <= 60000; i++) {
    if (i === 30000) parts.push("L".repeat(1_200_000) + "é\r\n");
    else if (i % 7 === 0) parts.push(`    const v${i} = "ünï😀 ${i}";\r\n`);
    else parts.push(`function f${i}(x) { return x * ${i}; }\n`);
  }
  return "\uFEFF" + parts.join("") + "// last line without newline";
}

describe("streamed huge files match the in-memory path", () => {
  let t: Tree;
  let text: string;
  before(async () => {
    t = await makeTree();
    text = bigText();
    await writeFile(join(t.root, "big.ts"), text);
    await writeFile(join(t.root, "copy.ts"), text);
  });
  after(() => t.cleanup());

  it(
    "reads the same windows, totals and next offsets",
    { timeout: 60_000 },
    async () => {
      const streamed = t.open({ streamThreshold: 1024 });
      const inMemory = t.open();
      for (
        const window of [{}, { offset: 29998, limit: 5 }, { offset: 59990 }, {
          offset: 60001,
        }]
      ) {
        const a = await streamed.read("big.ts", window);
        const b = await inMemory.read("big.ts", window);
        assert.deepEqual(a, b);
        const view = formatHashlines(text, window);
        assert.deepEqual({ ...a, path: undefined }, {
          ...view,
          path: undefined,
        });
      }
      const a = await streamed.read("big.ts", { offset: 30000, limit: 1 });
      assert.match(a.text, /^30000:[0-9a-f]{2}\|L{2000}\[\+1198001 chars\]$/);
      await assert.rejects(
        streamed.read("big.ts", { offset: 60002 }),
        /has 60001 lines/,
      );
    },
  );

  it(
    "patches to the same bytes and the same result",
    { timeout: 60_000 },
    async () => {
      const streamed = t.open({ streamThreshold: 1024, session: "s" });
      const inMemory = t.open({ session: "m" });
      const v1 = await streamed.read("big.ts", { offset: 29998, limit: 4 });
      const v2 = await inMemory.read("copy.ts", { offset: 29998, limit: 4 });
      assert.equal(v1.text, v2.text);
      const ops = (path: string): object => ({
        files: [{
          path,
          ops: [
            {
              op: "replace",
              start: anchorOf(v1.text, 29999),
              lines: ["// replaced"],
            },
            { op: "delete", start: anchorOf(v1.text, 30000) },
            { op: "prepend", lines: ["// top"] },
            { op: "append", lines: ["// bottom"] },
          ],
        }],
      });
      const a = await streamed.patch(ops("big.ts") as never);
      const b = await inMemory.patch(ops("copy.ts") as never);
      assert.equal(a.summary, b.summary.replaceAll("copy.ts", "big.ts"));
      const bytes = await readFile(join(t.root, "big.ts"));
      assert.deepEqual(bytes, await readFile(join(t.root, "copy.ts")));
      const expected = editContent(
        text,
        (ops("x") as { files: { ops: PatchOp[] }[] }).files[0].ops,
      );
      assert.equal(
        new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes),
        expected.content,
      );
      const chained = await streamed.patch({
        files: [{
          path: "big.ts",
          ops: [{ op: "delete", start: anchorOf(a.files[0].anchors, 29999) }],
        }],
      });
      assert.equal(chained.files[0].removed, 1);
    },
  );

  it("refuses stale anchors in a streamed file with the same message", async () => {
    const streamed = t.open({ streamThreshold: 1024, session: "s2" });
    const inMemory = t.open({ session: "m2" });
    await streamed.read("big.ts", { offset: 10, limit: 3 });
    await inMemory.read("copy.ts", { offset: 10, limit: 3 });
    const bad = (path: string) => ({
      files: [{
        path,
        ops: [{
          op: "replace",
          start: "11:zz".replace("zz", "00"),
          lines: ["x"],
        }],
      }],
    });
    const messages: string[] = [];
    for (
      const [ws, path] of [[streamed, "big.ts"], [inMemory, "copy.ts"]] as const
    ) {
      await assert.rejects(ws.patch(bad(path) as never), (e: unknown) => {
        assert.ok(e instanceof PatchRefusedError);
        messages.push(e.message.replaceAll(path, "F"));
        return true;
      });
    }
    if (lineHash("function f11(x) { return x * 11; }") !== "00") {
      assert.equal(messages[0], messages[1]);
    }
  });

  it("says where a remembered line moved, streamed or not", async () => {
    const streamed = t.open({ streamThreshold: 1024, session: "mv1" });
    const inMemory = t.open({ session: "mv2" });
    const messages: string[] = [];
    for (
      const [ws, path] of [[streamed, "moved-a.ts"], [
        inMemory,
        "moved-b.ts",
      ]] as const
    ) {
      await writeFile(join(t.root, path), text);
      const view = await ws.read(path, { offset: 101, limit: 1 });
      // Someone else adds two lines at the top.
      await writeFile(join(t.root, path), "// one\n// two\n" + text);
      await assert.rejects(
        ws.patch({
          files: [{
            path,
            ops: [{
              op: "replace",
              start: anchorOf(view.text, 101),
              lines: ["x"],
            }],
          }],
        }),
        (e: unknown) => {
          assert.ok(e instanceof PatchRefusedError);
          messages.push(e.message.replaceAll(path, "F"));
          return true;
        },
      );
    }
    assert.match(
      messages[0],
      /the line you read moved to line 103 → 103:[0-9a-f]{2}/,
    );
    assert.equal(messages[0], messages[1]);
  });
});

describe("first reads of huge files count every line and check every byte", () => {
  let t: Tree;
  before(async () => {
    t = await makeTree();
  });
  after(() => t.cleanup());

  /** About 3 MiB of lines, with multi-byte characters cut by the 1 MiB and 2 MiB chunk boundaries. */
  function straddling(): Uint8Array {
    const enc = new TextEncoder();
    const out = new Uint8Array(3 << 20);
    let at = 0;
    let n = 0;
    while (at < out.length - 64) {
      const boundary = [1 << 20, 2 << 20].find((b) => b > at && b - at < 48);
      const text = boundary
        ? "x".repeat(boundary - at - 2) + "😀\r\n"
        : `line ${n} ünï\n`;
      const bytes = enc.encode(text);
      out.set(bytes, at);
      at += bytes.length;
      n++;
    }
    return out.subarray(0, at);
  }

  for (const engine of ["wasm", "ts"] as const) {
    it(`counts lines across chunk boundaries (${engine})`, async () => {
      const bytes = straddling();
      await writeFile(join(t.root, `cut-${engine}.txt`), bytes);
      const text = new TextDecoder().decode(bytes);
      const streamed = t.open({ streamThreshold: 1024, engine });
      for (const window of [{ offset: 1, limit: 2 }, { offset: 90000 }]) {
        const view = await streamed.read(`cut-${engine}.txt`, window);
        const expected = formatHashlines(text, window);
        assert.equal(view.totalLines, expected.totalLines);
        assert.equal(view.text, expected.text);
      }
    });

    it(`refuses a file with an ill-formed byte far past the window (${engine})`, async () => {
      const bytes = straddling().slice();
      const bad = (2 << 20) + 777;
      bytes[bad] = 0xff;
      const path = join(t.root, `late-${engine}.txt`);
      await writeFile(path, bytes);
      const streamed = t.open({ streamThreshold: 1024, engine });
      await assert.rejects(streamed.read(`late-${engine}.txt`, { limit: 3 }), {
        code: "NOT_TEXT",
        offset: bad,
      });
      assert.deepEqual(new Uint8Array(await readFile(path)), bytes);
    });
  }

  it("serves two first reads of huge files at once", async () => {
    // Over 32 MiB each, so each count gives the event loop a turn and the
    // two counts interleave on the one Wasm instance.
    const lineA = "const answer = 42; // ünï ✓";
    await writeFile(join(t.root, "a.txt"), `${lineA}\n`.repeat(1_400_000));
    await writeFile(
      join(t.root, "b.txt"),
      "x\r\n".repeat(12_000_000) + "tail",
    );
    const ws = t.open({ streamThreshold: 1024 });
    const [a, b] = await Promise.all([
      ws.read("a.txt", { offset: 1_399_999 }),
      ws.read("b.txt", { offset: 12_000_000 }),
    ]);
    const h = lineHash(lineA);
    assert.equal(a.totalLines, 1_400_000);
    assert.equal(
      a.text,
      `1399999:${h}|${lineA}\n1400000:${h}|${lineA}`,
    );
    assert.equal(b.totalLines, 12_000_001);
    assert.equal(
      b.text,
      `12000000:${lineHash("x")}|x\n12000001:${lineHash("tail")}|tail`,
    );
  });

  it("counts a file that is only a BOM as empty", async () => {
    await writeFile(
      join(t.root, "bom.txt"),
      new Uint8Array([0xef, 0xbb, 0xbf]),
    );
    const view = await t.open({ streamThreshold: 0 }).read("bom.txt");
    assert.equal(view.totalLines, 0);
    assert.equal(view.text, "");
  });
});

const pieces = ["a", "bc", "é", "😀", "\n", "\r\n", "\r", " ", "\n"];
const contentArb = fc.tuple(
  fc.boolean(),
  fc.array(fc.constantFrom(...pieces), { maxLength: 24 }),
).map(([bom, parts]) => (bom ? "\uFEFF" : "") + parts.join(""));
const newLineArb = fc.constantFrom("x", "", "y\r", "é😀", "z z");

/** Ops addressed at content: mostly right anchors, some wrong hashes, ranges that may overlap. */
function opsFor(
  content: string,
  seeds: number[][],
  lines: string[][],
): PatchOp[] {
  const split = splitLines(content).lines;
  const n = split.length;
  const anchor = (seed: number): string => {
    const line = n === 0 ? 1 : (seed % (n + 1)) + 1;
    const hash = line <= n && seed % 11 !== 0
      ? lineHash(split[line - 1])
      : "00";
    return `${line}:${hash}`;
  };
  return seeds.map(([kind, a, b], i): PatchOp => {
    const ls = lines[i] ?? [];
    switch (kind % 6) {
      case 0:
        return {
          op: "replace",
          start: anchor(a),
          end: anchor(a + (b % 3)),
          lines: ls,
        };
      case 1:
        return { op: "delete", start: anchor(a) };
      case 2:
        return { op: "insert_after", anchor: anchor(a), lines: ls };
      case 3:
        return { op: "insert_before", anchor: anchor(a), lines: ls };
      case 4:
        return { op: "append", lines: ls };
      default:
        return { op: "prepend", lines: ls };
    }
  });
}

describe("streamed reads and rewrites agree with the in-memory editor (property)", () => {
  let t: Tree;
  let conf: Confinement;
  before(async () => {
    t = await makeTree();
    conf = new Confinement(t.root, t.root, t.state, 2 ** 32);
  });
  after(() => t.cleanup());

  it("gives the same windows, problems and bytes for random content and ops", {
    timeout: 60_000,
  }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        contentArb,
        fc.array(fc.tuple(fc.nat(50), fc.nat(50), fc.nat(50)), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.array(fc.array(newLineArb, { maxLength: 2 }), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.tuple(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 1, max: 4 }),
        ),
        fc.constantFrom(0, 1, 2),
        async (content, seeds, lines, [offset, limit], remember) => {
          const name = `f${run++}.txt`;
          await writeFile(join(t.root, name), content);
          const target = await conf.resolve(name);

          let view: unknown;
          try {
            view = formatHashlines(content, { offset, limit });
          } catch (e) {
            view = String(e);
          }
          let streamed: unknown;
          try {
            streamed =
              (await streamRead(target, { offset, limit }, undefined)).view;
          } catch (e) {
            streamed = String(e);
          }
          assert.deepEqual(streamed, view);

          // The same window through a line index with a checkpoint every 2 lines.
          const bytes = new TextEncoder().encode(content);
          const lineStarts = [
            bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0,
          ];
          bytes.forEach((b, i) => {
            if (b === 10 && i + 1 < bytes.length) lineStarts.push(i + 1);
          });
          const every = 2;
          const totalLines = splitLines(content).lines.length;
          const indexed = {
            get: () =>
              Promise.resolve({
                version: 1 as const,
                id: target.stat!,
                every,
                totalLines,
                starts: lineStarts.filter((_, k) => k % every === 0),
              }),
            put: () => Promise.resolve(),
          };
          let warm: unknown;
          try {
            warm =
              (await streamRead(target, { offset, limit }, undefined, indexed))
                .view;
          } catch (e) {
            warm = String(e);
          }
          assert.deepEqual(warm, view);

          const ops = opsFor(content, seeds, lines);
          // The session remembers nothing, this content, or a version
          // without the first line (so its lines seem to have moved down).
          const seen = splitLines(content).lines.map(lineHash32);
          const memory = remember === 0
            ? undefined
            : memoryFromHashes(remember === 1 ? seen : seen.slice(1));
          let expected: { content: string } | PatchRefusedError | TypeError;
          try {
            expected = editContent(content, ops, { memory, path: name });
          } catch (e) {
            expected = e as PatchRefusedError;
          }
          const scanned = await scanForPatch(target, ops, memory, undefined);
          const problems = planPatch(scanned.lookup, ops, {
            memory,
            path: name,
          }).problems;
          if (expected instanceof PatchRefusedError) {
            assert.deepEqual(problems, expected.problems);
            return;
          }
          assert.ok(!(expected instanceof Error), String(expected));
          assert.deepEqual(problems, []);
          const outPath = join(t.root, `${name}.out`);
          const out = await open(outPath, "w");
          try {
            await rewrite(
              out,
              target,
              scanned,
              planOps(ops, scanned.lineCount),
            );
          } finally {
            await out.close();
          }
          assert.equal(await readFile(outPath, "utf8"), expected.content);
        },
      ),
      { numRuns: 150 },
    );
  });
});
