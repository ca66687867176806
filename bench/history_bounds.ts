/**
 * Benchmark (not a test): the edit history's bounds. First, `log --limit 1`
 * through the CLI on logs of 2,000 and 200,000 entries (median time of a
 * few runs each; it reads from the log's end, so the two should match).
 * Then CYCLES delete-then-undo pairs of a SIZE MB file (a patch deleting
 * every line, then its undo): the history state's size against the file,
 * the process's peak resident memory, the time of each door's answer
 * (library list and show, CLI `log`, HTTP list and show) afterwards, and
 * whether the last deletion undoes byte for byte.
 *
 *   node_modules/.bin/deno run -A bench/history_bounds.ts [--size=20] [--cycles=8] [--runs=5] [--json]
 *
 * @module
 */
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { main } from "../src/cli/main.ts";
import { createApp } from "../src/http/app.ts";
import { type EntryRecord, frameRecord } from "../src/history/mod.ts";
import { openWorkspace, type Workspace } from "../src/workspace/mod.ts";
import { printSummary } from "./_summary.ts";

function arg(name: string, fallback: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  const v = a === undefined ? fallback : Number(a.slice(name.length + 3));
  if (!(v > 0)) throw new RangeError(`--${name} must be a positive number.`);
  return v;
}

const SIZE_MB = arg("size", 20);
const CYCLES = arg("cycles", 8);
const RUNS = arg("runs", 5);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await sizeOf(p) : (await stat(p)).size;
  }
  return total;
}

let peak = 0;
function sample(): void {
  peak = Math.max(peak, process.memoryUsage().rss);
}

async function cli(root: string, state: string, args: string[]) {
  let out = "";
  const code = await main([...args, "--root", root], {
    cwd: root,
    env: (name) => name === "HASHLINE_STORE" ? state : undefined,
    stdin: () => Promise.resolve(new Uint8Array()),
    stdout: (s) => Promise.resolve(void (out += s)),
    stderr: () => Promise.resolve(),
  });
  if (code !== 0) throw new Error(`hashline ${args.join(" ")}: exit ${code}`);
  return out;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  sample();
  return performance.now() - t0;
}

const dir = await mkdtemp(join(tmpdir(), "hashline-history-bounds-"));
try {
  // 1. log --limit 1 on a small and a large log.
  const tail: Record<number, number> = {};
  for (const n of [2_000, 200_000]) {
    const root = join(dir, `tail${n}`);
    const state = join(root, ".state");
    await mkdir(join(state, "history"), { recursive: true });
    const lines: string[] = [];
    for (let i = 1; i <= n; i++) {
      const r: EntryRecord = {
        id: `h_${i}`,
        time: "2026-01-01T00:00:00.000Z",
        session: "bench",
        door: "cli",
        summary: `Edited f${i % 10}.txt (+1 -1)`,
        files: [{
          path: `f${i % 10}.txt`,
          added: 1,
          removed: 1,
          hunks: [{
            at: 3,
            newAt: 3,
            old: "old line\n",
            new: `new line ${i}\n`,
            hashes: [i],
            before: "two\n",
            after: "four\n",
          }],
        }],
      };
      lines.push(frameRecord(r));
    }
    await writeFile(join(state, "history", "log"), lines.join(""));
    const ms: number[] = [];
    for (let k = 0; k < RUNS + 1; k++) {
      const t = await timed(() => cli(root, state, ["log", "--limit", "1"]));
      if (k > 0) ms.push(t);
    }
    tail[n] = median(ms);
  }
  console.log(
    `log --limit 1, median of ${RUNS}: 2,000 entries ${
      tail[2_000].toFixed(2)
    } ms; 200,000 entries ${tail[200_000].toFixed(2)} ms (${
      (tail[200_000] / tail[2_000]).toFixed(2)
    }×)`,
  );

  // 2. Delete-then-undo cycles of a big file.
  const root = join(dir, "big");
  const state = join(root, ".state");
  await mkdir(root);
  const lineCount = Math.ceil(SIZE_MB * 1_000_000 / 50);
  const text = Array.from(
    { length: lineCount },
    (_, i) => `line ${i} of a big file, padded to fifty bytes ${i % 7}`,
  ).join("\n") + "\n";
  const bytes = new TextEncoder().encode(text);
  await writeFile(join(root, "big.txt"), bytes);
  const ws: Workspace = openWorkspace(root, {
    stateDir: state,
    maxFileBytes: 4 * bytes.length,
  });
  const anchor = async (n: number) => {
    const v = await ws.read("big.txt", { offset: n, limit: 1 });
    return v.text.slice(0, v.text.indexOf("|"));
  };
  let last = "";
  const t0 = performance.now();
  for (let c = 0; c < CYCLES; c++) {
    const r = await ws.patch({
      files: [{
        path: "big.txt",
        ops: [{
          op: "delete",
          start: await anchor(1),
          end: await anchor(lineCount),
        }],
      }],
    });
    sample();
    last = r.entry!;
    if (c < CYCLES - 1) await ws.undo(last);
    sample();
  }
  const cyclesMs = performance.now() - t0;
  const stateBytes = await sizeOf(join(state, "history"));
  const doors = {
    libraryList: await timed(() => ws.history({ limit: 50 })),
    libraryShow: await timed(() => ws.entry(last)),
    cliLog: await timed(() => cli(root, state, ["log", "--limit", "50"])),
    httpList: 0,
    httpShow: 0,
  };
  const app = createApp({ root, stateDir: state });
  doors.httpList = await timed(async () =>
    await (await app.request("/v1/history?limit=50")).text()
  );
  doors.httpShow = await timed(async () =>
    await (await app.request(`/v1/history/${last}`)).text()
  );
  await ws.undo(last);
  sample();
  const back = await readFile(join(root, "big.txt"));
  const exact = back.length === bytes.length &&
    back.every((b, i) => b === bytes[i]);
  console.log(
    `${CYCLES} delete-then-undo cycles of a ${
      (bytes.length / 1e6).toFixed(1)
    } MB file in ${(cyclesMs / 1000).toFixed(1)} s: history state ${
      (stateBytes / 1e6).toFixed(1)
    } MB (${(stateBytes / bytes.length).toFixed(2)}× the file), peak RSS ${
      (peak / 2 ** 20).toFixed(0)
    } MiB; last deletion undone byte for byte: ${exact}`,
  );
  console.log(
    `doors afterwards (ms): ${
      Object.entries(doors).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")
    }`,
  );
  printSummary("history-bounds", {
    tailMs: tail,
    fileBytes: bytes.length,
    stateBytes,
    peakRssBytes: peak,
    doorsMs: doors,
    exact,
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
