/**
 * The agent loop's per-call cost over MCP stdio, side by side with the
 * reference `@modelcontextprotocol/server-filesystem` in the same run: a
 * read of a 300-line file and a one-line edit of it, repeated, through the
 * SDK's own client. Then the same round trip after the session has read 40
 * files of 5,000 lines (its read records are then large), against the fresh
 * figure.
 *
 * Run: `deno task bench:mcp [rounds] [--json]` (default 100 rounds, after
 * 300 untimed ones, the two servers taking turns 50 rounds at a time, each
 * turn after 20 untimed rounds and with the disk flushed; `--json`
 * adds a last line `RESULT {json}` with the figures).
 *
 * A second setting follows, as an outside check measures it: two servers
 * started afresh, 10 untimed rounds each, then the same number of timed
 * rounds taking turns 10 at a time with nothing flushed between, on a
 * 309-line file. The limit (≤ 1.5× the reference) holds for both settings.
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { printSummary } from "./_summary.ts";
import {
  body,
  connect,
  DENO,
  hashlineRound,
  median,
  REFERENCE,
  referenceRound,
} from "./_mcp_rounds.ts";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const rounds = Number(positional[0] ?? 100);
const REPO = fileURLToPath(new URL("../", import.meta.url));
const LINES = 300;
/** The file of the second setting (see the module doc). */
const ALT_LINES = 309;
const ALT_WARMUP = 10;
const ALT_BLOCK = 10;

/** Rounds run before any is timed: both servers' code is compiled by then. */
const WARMUP = 300;
/** Rounds in one block; the two servers take turns a block at a time. */
const BLOCK = 50;
/**
 * Untimed rounds at the start of every block: a server left idle while the
 * other ran answers its first calls slower (caches, the scheduler), and
 * hashline more so; these rounds take that out of both.
 */
const REWARM = 20;

async function warm(round: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await round(-i - 1);
}

/**
 * Flushes the file system's dirty data (`sync`, untimed) before a block, so
 * that one server's flushes never carry writes the other left unflushed:
 * the reference server writes without flushing, and the next flush of any
 * process on the same file system would pay for its data.
 */
async function settleDisk(): Promise<void> {
  const { spawnSync } = await import("node:child_process");
  spawnSync("sync");
}

async function timeBlock(
  ms: number[],
  from: number,
  count: number,
  round: (i: number) => Promise<void>,
): Promise<void> {
  await settleDisk();
  for (let i = 0; i < REWARM; i++) await round(-WARMUP - i - 1);
  for (let i = from; i < from + count; i++) {
    const t0 = performance.now();
    await round(i);
    ms.push(performance.now() - t0);
  }
}

/**
 * Medians of `n` timed rounds of each, after both warmed up. The two take
 * turns a block at a time, so a drift in the machine's load falls on both
 * alike.
 */
async function timeSideBySide(
  n: number,
  a: (i: number) => Promise<void>,
  b: (i: number) => Promise<void>,
): Promise<[number, number]> {
  await warm(a);
  await warm(b);
  const msA: number[] = [];
  const msB: number[] = [];
  for (let from = 0; from < n; from += BLOCK) {
    const count = Math.min(BLOCK, n - from);
    await timeBlock(msA, from, count, a);
    await timeBlock(msB, from, count, b);
  }
  return [median(msA), median(msB)];
}

async function time(
  n: number,
  round: (i: number) => Promise<void>,
): Promise<number> {
  await warm(round);
  const ms: number[] = [];
  await timeBlock(ms, 0, n, round);
  return median(ms);
}

/**
 * The second setting: `n` timed rounds of each after {@link ALT_WARMUP}
 * untimed ones, the two taking turns {@link ALT_BLOCK} rounds at a time,
 * with no flush and no re-warming between turns.
 */
async function timeAlternating(
  n: number,
  a: (i: number) => Promise<void>,
  b: (i: number) => Promise<void>,
): Promise<[number, number]> {
  for (let i = 0; i < ALT_WARMUP; i++) await a(-i - 1);
  for (let i = 0; i < ALT_WARMUP; i++) await b(-i - 1);
  const msA: number[] = [];
  const msB: number[] = [];
  for (let from = 0; from < n; from += ALT_BLOCK) {
    for (const [ms, round] of [[msA, a], [msB, b]] as const) {
      for (let i = from; i < Math.min(from + ALT_BLOCK, n); i++) {
        const t0 = performance.now();
        await round(i);
        ms.push(performance.now() - t0);
      }
    }
  }
  return [median(msA), median(msB)];
}

const dir = await mkdtemp(join(tmpdir(), "hashline-mcp-bench-"));
try {
  const root = join(dir, "root");
  await mkdir(root);
  await writeFile(join(root, "a.ts"), body("start", LINES));
  await writeFile(join(root, "b.ts"), body("start", LINES));
  const big = Array.from({ length: 5000 }, (_, i) => `row ${i} of a big file`)
    .join("\n") + "\n";
  for (let k = 0; k < 40; k++) await writeFile(join(root, `big${k}.txt`), big);

  const underNode = process.argv.includes("--node");
  const startOurs = () =>
    connect(
      underNode ? "node" : DENO,
      underNode
        ? [
          "--import",
          "tsx",
          join(REPO, "src/cli/main.ts"),
          "mcp",
          "--root",
          root,
        ]
        : ["run", "-A", join(REPO, "src/cli/main.ts"), "mcp", "--root", root],
      { HASHLINE_STORE: join(dir, "state") },
    );
  const startReference = () => connect("node", [REFERENCE, root]);
  const ours = await startOurs();
  const reference = await startReference();
  const [refMs, freshMs] = await timeSideBySide(
    rounds,
    (i) => referenceRound(reference, "a.ts", i),
    (i) => hashlineRound(ours, "b.ts", i),
  );
  for (let k = 0; k < 40; k++) {
    await ours.callTool({
      name: "read_file",
      arguments: { path: `big${k}.txt`, limit: 5000 },
    });
  }
  const loadedMs = await time(rounds, (i) => hashlineRound(ours, "b.ts", i));
  await ours.close();
  await reference.close();

  await writeFile(join(root, "c.ts"), body("start", ALT_LINES));
  await writeFile(join(root, "d.ts"), body("start", ALT_LINES));
  const ours2 = await startOurs();
  const reference2 = await startReference();
  const [altRefMs, altMs] = await timeAlternating(
    rounds,
    (i) => referenceRound(reference2, "c.ts", i),
    (i) => hashlineRound(ours2, "d.ts", i),
  );
  await ours2.close();
  await reference2.close();

  console.log(
    `MCP stdio read + one-line edit of a ${LINES}-line file, median of ${rounds} rounds each (after ${WARMUP} untimed; the servers take turns ${BLOCK} rounds at a time)`,
  );
  console.log(
    `reference server-filesystem: ${
      refMs.toFixed(2)
    } ms; hashline fresh session: ${freshMs.toFixed(2)} ms (${
      (freshMs / refMs).toFixed(2)
    }× the reference); after 40 reads of 5,000 lines: ${
      loadedMs.toFixed(2)
    } ms (${(loadedMs / freshMs).toFixed(2)}× fresh)`,
  );
  console.log(
    `second setting (fresh servers, ${ALT_WARMUP} untimed rounds, turns of ${ALT_BLOCK} with nothing flushed, ${ALT_LINES} lines): reference ${
      altRefMs.toFixed(2)
    } ms; hashline ${altMs.toFixed(2)} ms (${
      (altMs / altRefMs).toFixed(2)
    }× the reference)`,
  );
  for (
    const [name, ratio] of [
      ["flushed blocks", freshMs / refMs],
      ["alternating, unflushed", altMs / altRefMs],
    ] as const
  ) {
    console.log(
      `${name}: ${
        ratio.toFixed(2)
      }× the reference server (limit ≤ 1.50×, aim 1.20×; ${
        ratio <= 1.5 ? "met" : "NOT met"
      })`,
    );
  }
  printSummary("mcp", {
    runtime: underNode ? "node" : "deno",
    lines: LINES,
    rounds,
    referenceMs: refMs,
    freshMs,
    loadedMs,
    alternating: {
      lines: ALT_LINES,
      warmup: ALT_WARMUP,
      block: ALT_BLOCK,
      referenceMs: altRefMs,
      hashlineMs: altMs,
    },
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
