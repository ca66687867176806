/**
 * A file swapped for a FIFO (a renameat2 exchange loop with a FIFO beside
 * it) while reads, patches and writes run: no operation blocks, and each is
 * either done or refused with a typed code.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Workspace } from "../../src/workspace/mod.ts";
import { makeTree, snapshot, type Tree } from "../workspace/_helpers.ts";
import { buildSwapper } from "./_swapper.ts";
import { anchorAt, finishesWithin, tally, typedCode } from "./_util.ts";

const binDir = await mkdtemp(join(tmpdir(), "hashline-fifo-"));
const swapper = await buildSwapper(binDir);
let skip = typeof swapper === "string"
  ? `no path swapper here (${swapper})`
  : undefined;
if (!skip) {
  try {
    execFileSync("mkfifo", [join(binDir, "probe.fifo")]);
  } catch (error) {
    skip = `mkfifo does not work here (${(error as Error).message})`;
  }
}
const SKIP = skip;
if (SKIP) console.warn(`FIFO race tests skipped: ${SKIP}.`);
after(() => rm(binDir, { recursive: true, force: true }));

const SWAP_MS = 1500;
const LANES = 4;
const MAX_OPS_PER_LANE = 3000;
/** An operation still running after this long is blocked: a failure detector, never a wait. */
const BLOCKED_MS = 15_000;

const CODES = ["NOT_A_FILE", "CHANGED", "STALE_ANCHOR", "NOT_READ"];

describe("a file swapped for a FIFO", () => {
  let t: Tree;
  const outcomes: string[] = [];
  const failures: string[] = [];
  let exchanges = 0;
  let last: string | undefined;
  before(async () => {
    t = await makeTree();
    if (SKIP) return;
    const s = swapper as Exclude<typeof swapper, string>;
    await writeFile(join(t.root, "f.txt"), "one\ntwo\nthree\n");
    execFileSync("mkfifo", [join(t.root, "f.fifo")]);
    await mkdir(t.state, { recursive: true });
    let stop = false;
    const swapping = s.run(
      join(t.root, "f.txt"),
      join(t.root, "f.fifo"),
      SWAP_MS,
    )
      .finally(() => (stop = true));
    const run = async <T>(what: string, op: () => Promise<T>) => {
      const r = await finishesWithin(op(), BLOCKED_MS, what);
      if (r.status === "fulfilled") {
        outcomes.push(`${what.split(" ")[0]} ok`);
        return r.value;
      }
      try {
        outcomes.push(typedCode(r.reason, CODES, what));
      } catch (error) {
        outcomes.push("untyped");
        failures.push(
          (error as Error).message.split("\n").slice(0, 6).join("\n"),
        );
      }
      return undefined;
    };
    const lane = async (ws: Workspace, i: number) => {
      for (let n = 0; n < MAX_OPS_PER_LANE && !stop; n++) {
        switch (n % 10) {
          case 0:
            await run("read f.txt", () => ws.read("f.txt"));
            break;
          case 1:
            await run("stat f.txt", () => ws.stat("f.txt"));
            break;
          case 2: {
            const v = await run("read f.txt", () => ws.read("f.txt"));
            if (!v) break;
            const line = `two ${i}.${n}`;
            const ok = await run("patch f.txt", () =>
              ws.patch({
                files: [{
                  path: "f.txt",
                  ops: [{
                    op: "replace",
                    start: anchorAt(v.text, 2),
                    lines: [line],
                  }],
                }],
              }));
            if (ok) last = `one\n${line}\nthree\n`;
            break;
          }
          case 3: {
            const v = await run("readText f.txt", () => ws.readText("f.txt"));
            if (!v) break;
            const content = `one\nwhole ${i}.${n}\nthree\n`;
            const ok = await run(
              "write f.txt",
              () => ws.write("f.txt", content),
            );
            if (ok) last = content;
            break;
          }
          case 4:
          case 5:
            await run("readText f.txt", () => ws.readText("f.txt"));
            break;
          default:
            // The FIFO itself, under whichever name it has now.
            await run("read f.fifo", () => ws.read("f.fifo"));
        }
      }
    };
    await Promise.all(
      Array.from({ length: LANES }, (_, i) => lane(t.open(), i)),
    );
    exchanges = await swapping;
  }, { timeout: 60_000 });
  after(() => t?.cleanup());

  it("no operation blocks, and each refusal is typed", { skip: SKIP }, () => {
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} untyped`);
    assert.ok(
      outcomes.includes("NOT_A_FILE") &&
        outcomes.some((o) => o.endsWith(" ok")),
      `the race never bit: ${JSON.stringify(tally(outcomes))}`,
    );
    console.log(
      `FIFO swap: ${exchanges} exchanges, ${outcomes.length} operations`,
      tally(outcomes),
    );
  });

  it("the last acknowledged edit is in a regular file", {
    skip: SKIP,
  }, async () => {
    // A write's rename may replace the FIFO when it was swapped in after the
    // last check (the one-rename window): then both names hold files.
    const names = ["f.txt", "f.fifo"];
    const kinds = await Promise.all(
      names.map(async (n) => (await lstat(join(t.root, n))).isFIFO()),
    );
    assert.ok(kinds.filter(Boolean).length <= 1);
    if (last !== undefined) {
      const texts = await Promise.all(
        names.filter((_, i) => !kinds[i]).map((n) =>
          readFile(join(t.root, n), "utf8")
        ),
      );
      assert.ok(texts.includes(last), `${JSON.stringify(texts)} lacks ${last}`);
    }
    const tree = await snapshot(t.root);
    const temps = [...tree.keys()].filter((k) =>
      /\.hashline-(new|old|one)\.tmp$/.test(k)
    );
    assert.deepEqual(temps, []);
  });
});
