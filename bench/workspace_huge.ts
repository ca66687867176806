/**
 * Benchmark (not a test): the workspace on a 1 GiB source-like file.
 *
 *   node_modules/.bin/deno run -A bench/workspace_huge.ts [--size=MiB] [--json]
 *
 * Generates `bench/.data/huge.ts` (1 GiB, reused when present; with
 * `--size=N` a file of N MiB, `huge-Nm.ts`, read at line 4,000,000 or, in a
 * file too short for that, at the middle), then, each
 * in its own process so peak memory is its own: reads lines
 * 4,000,000–4,000,200 through the workspace API and through the CLI
 * (`deno run -A src/cli/main.ts read …`), patches one line there, and runs
 * a naive read-everything-and-split baseline and `wc -l` over the same file,
 * and three floors: a Deno process that does nothing, one that only reads
 * every byte of the file, and the write floor of any one-line patch there:
 * copying the file beside itself and flushing the copy to disk.
 * Wall time and peak memory (max RSS from `/usr/bin/time`, or VmHWM) are
 * printed with the ratios the targets are stated in. `--json` adds a last
 * line `RESULT {json}` with every measure.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { foldHash, hex2, lineHash32 } from "../src/hash/fnv.ts";
import { openWorkspace } from "../src/workspace/mod.ts";
import { printSummary } from "./_summary.ts";

const SIZE_ARG = process.argv.find((a) => a.startsWith("--size="));
const SIZE_MIB = SIZE_ARG === undefined ? 1024 : Number(SIZE_ARG.slice(7));
if (!(SIZE_MIB >= 16)) {
  throw new RangeError(
    `--size must be a number of MiB, at least 16, got ${SIZE_ARG}.`,
  );
}
const SIZE = Math.round(SIZE_MIB * 1024 ** 2);
// The generated lines average 37.8 bytes; a smaller file is read at its middle.
const OFFSET = Math.min(4_000_000, Math.floor(SIZE / 37.8 / 2));
const LIMIT = 201;
const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..");
const DATA = join(HERE, ".data");
const NAME = SIZE_MIB === 1024 ? "huge.ts" : `huge-${SIZE_MIB}m.ts`;
const FILE = join(DATA, NAME);
const DENO = process.execPath;

function sourceChunk(from: number, count: number): string {
  const out: string[] = [];
  for (let i = from; i < from + count; i++) {
    switch (i % 6) {
      case 0:
        out.push(`export function handler${i}(request: Request): Response {`);
        break;
      case 1:
        out.push(
          `  const value${i} = compute(request, ${i}); // step ${i % 97}`,
        );
        break;
      case 2:
        out.push(`  if (value${i} > ${i % 1000}) return new Response("big");`);
        break;
      case 3:
        out.push(`  return new Response(String(value${i}));`);
        break;
      case 4:
        out.push("}");
        break;
      default:
        out.push("");
    }
  }
  return out.join("\n") + "\n";
}

async function generate(): Promise<void> {
  if (existsSync(FILE) && statSync(FILE).size > SIZE * 0.99) return;
  console.log(`generating ${FILE} (${SIZE_MIB} MiB)…`);
  await rm(FILE, { force: true });
  const { mkdir } = await import("node:fs/promises");
  await mkdir(DATA, { recursive: true });
  const h = await open(FILE + ".part", "w");
  const enc = new TextEncoder();
  let written = 0;
  let line = 0;
  while (written < SIZE) {
    const bytes = enc.encode(sourceChunk(line, 100_000));
    const room = SIZE - written;
    const part = bytes.length <= room
      ? bytes
      : bytes.subarray(0, bytes.lastIndexOf(10, room - 1) + 1);
    if (part.length === 0) break;
    await h.write(part);
    written += part.length;
    line += 100_000;
  }
  await h.close();
  const { rename } = await import("node:fs/promises");
  await rename(FILE + ".part", FILE);
}

/** Peak RSS of this process in KiB (VmHWM). */
async function peakKiB(): Promise<number> {
  try {
    const status = await readFile("/proc/self/status", "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function child(mode: string, state: string): Promise<void> {
  const t0 = performance.now();
  let detail = "";
  // The timed operation alone, where the process does more than that.
  let opMs: number | undefined;
  if (mode === "read") {
    const ws = openWorkspace(DATA, { stateDir: state });
    const view = await ws.read(NAME, { offset: OFFSET, limit: LIMIT });
    detail = `lines ${view.startLine}–${view.endLine} of ${view.totalLines}`;
  } else if (mode === "patch") {
    const ws = openWorkspace(DATA, { stateDir: state });
    const target = OFFSET + 100;
    const view = await ws.read(NAME, { offset: target, limit: 1 });
    const bar = view.text.indexOf("|");
    const anchor = view.text.slice(0, bar);
    const text = view.text.slice(bar + 1);
    const next = text.endsWith(" // patched")
      ? text.slice(0, -11)
      : `${text} // patched`;
    const t1 = performance.now();
    const result = await ws.patch({
      files: [{
        path: NAME,
        ops: [{ op: "replace", start: anchor, lines: [next] }],
      }],
    });
    opMs = performance.now() - t1;
    detail = `${result.summary.split("\n")[0]}; patch alone ${
      opMs.toFixed(0)
    } ms`;
  } else if (mode === "start") {
    detail = "a Deno process that does nothing";
  } else if (mode === "bytes") {
    // The I/O floor of any first read: every byte once, nothing else.
    const buf = new Uint8Array(1 << 20);
    const fd = openSync(FILE, "r");
    let pos = 0;
    for (let n; (n = readSync(fd, buf, 0, buf.length, pos)) > 0;) pos += n;
    closeSync(fd);
    detail = `${pos} bytes read in 1 MiB chunks, nothing else`;
  } else if (mode === "floor") {
    // What any one-line edit of this file must at least do to be durable:
    // write every byte again beside it and flush that to disk.
    const copy = `${FILE}.floor`;
    const t1 = performance.now();
    const buf = new Uint8Array(1 << 20);
    const from = openSync(FILE, "r");
    const to = openSync(copy, "w");
    let pos = 0;
    for (let n; (n = readSync(from, buf, 0, buf.length, pos)) > 0;) {
      for (let at = 0; at < n;) at += writeSync(to, buf, at, n - at);
      pos += n;
    }
    fsyncSync(to);
    closeSync(to);
    closeSync(from);
    opMs = performance.now() - t1;
    unlinkSync(copy);
    detail = `${pos} bytes copied beside the file and flushed`;
  } else if (mode === "naive") {
    const bytes = await readFile(FILE);
    const dec = new TextDecoder();
    const lines: string[] = [];
    let start = 0;
    const piece = 256 * 1024 ** 2;
    // One string cannot hold 1 GiB, so the text is decoded in pieces cut at newlines.
    while (start < bytes.length) {
      let end = Math.min(bytes.length, start + piece);
      if (end < bytes.length) end = bytes.lastIndexOf(10, end) + 1;
      const part = dec.decode(bytes.subarray(start, end)).split("\n");
      if (end === bytes.length && part[part.length - 1] === "") part.pop();
      for (const l of part.slice(0, end < bytes.length ? -1 : undefined)) {
        lines.push(l);
      }
      start = end;
    }
    const shown = lines.slice(OFFSET - 1, OFFSET - 1 + LIMIT).map((l, i) =>
      `${OFFSET + i}:${hex2(foldHash(lineHash32(l)))}|${l}`
    );
    detail = `lines ${OFFSET}–${OFFSET + shown.length - 1} of ${lines.length}`;
  }
  console.log(
    JSON.stringify({
      ms: performance.now() - t0,
      peakKiB: await peakKiB(),
      detail,
      ...(opMs === undefined ? {} : { opMs }),
    }),
  );
}

interface Measure {
  name: string;
  wallMs: number;
  innerMs?: number;
  /** The timed operation alone (patch, copy), where the process does more. */
  opMs?: number;
  peakMiB: number;
  detail: string;
}

function timed(
  name: string,
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Measure {
  const time = existsSync("/usr/bin/time");
  const argv = time ? ["-f", "@@TIME %e %M", cmd, ...args] : args;
  const t0 = performance.now();
  const run = spawnSync(time ? "/usr/bin/time" : cmd, argv, {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 ** 2,
  });
  const wallMs = performance.now() - t0;
  if (run.status !== 0) throw new Error(`${name} failed: ${run.stderr}`);
  const tm = /@@TIME ([\d.]+) (\d+)/.exec(run.stderr);
  let inner: {
    ms?: number;
    opMs?: number;
    peakKiB?: number;
    detail?: string;
  } = {};
  const last = run.stdout.trim().split("\n").pop() ?? "";
  if (last.startsWith("{")) inner = JSON.parse(last);
  const peakKiB = tm ? Number(tm[2]) : inner.peakKiB ?? 0;
  return {
    name,
    wallMs: tm ? Number(tm[1]) * 1000 : wallMs,
    innerMs: inner.ms,
    ...(inner.opMs === undefined ? {} : { opMs: inner.opMs }),
    peakMiB: peakKiB / 1024,
    detail: inner.detail ??
      run.stdout.trim().split("\n").slice(-1)[0].slice(0, 60),
  };
}

function best(runs: Measure[]): Measure {
  return runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

function row(r: Measure): string {
  return `${r.name.padEnd(34)} ${r.wallMs.toFixed(0).padStart(8)} ${
    (r.innerMs === undefined ? "-" : r.innerMs.toFixed(0)).padStart(14)
  } ${r.peakMiB.toFixed(1).padStart(9)}   ${r.detail}`;
}

async function main(): Promise<void> {
  const [flag, mode, childState] = process.argv.slice(2);
  if (flag === "--child") return child(mode, childState);
  await generate();
  const self = fileURLToPath(import.meta.url);
  const cold = await mkdtemp(join(tmpdir(), "hashline-bench-"));
  const warm = await mkdtemp(join(tmpdir(), "hashline-bench-"));
  const cliArgs = [
    "run",
    "-A",
    "src/cli/main.ts",
    "read",
    FILE,
    "--root",
    DATA,
    "--offset",
    String(OFFSET),
    "--limit",
    String(LIMIT),
  ];
  try {
    // A previous run's patch leaves 1 GiB of dirty pages; write them back
    // first, so no run below competes with the write-back.
    spawnSync("sync");
    timed("warm the page cache", "wc", ["-l", FILE]);
    /** One mode of this script in its own Deno process. */
    const inChild = (name: string, mode: string, state: string) =>
      timed(name, DENO, [
        "run",
        "-A",
        self,
        "--child",
        mode,
        state,
        `--size=${SIZE_MIB}`,
      ]);
    const bestOf3 = (run: () => Measure) => best([1, 2, 3].map(run));
    const wc = bestOf3(() => timed("wc -l (whole file)", "wc", ["-l", FILE]));
    // A fresh state folder each time: no line index yet, every line is counted.
    const apiCold = inChild("workspace.read, first read", "read", warm);
    const apiWarm = bestOf3(() =>
      inChild("workspace.read, indexed", "read", warm)
    );
    const cliCold = best(
      [0, 1].map((i) =>
        timed("CLI read process, first read", DENO, cliArgs, {
          HASHLINE_STORE: join(cold, String(i)),
        })
      ),
    );
    const cliWarm = bestOf3(() =>
      timed("CLI read process, indexed", DENO, cliArgs, {
        HASHLINE_STORE: warm,
      })
    );
    const patch = inChild("workspace.patch one line", "patch", cold);
    spawnSync("sync");
    const floor = inChild("write floor: copy + flush", "floor", cold);
    spawnSync("sync");
    const start = bestOf3(() => inChild("Deno start-up alone", "start", cold));
    const bytes = bestOf3(() =>
      inChild("Deno reading every byte alone", "bytes", cold)
    );
    const naive = inChild("naive read-all + split", "naive", cold);
    console.log(
      `\nfile: ${FILE} (${
        (statSync(FILE).size / 1024 ** 3).toFixed(2)
      } GiB), lines ${OFFSET}–${OFFSET + LIMIT - 1}`,
    );
    console.log(
      `${"operation".padEnd(34)}  wall ms  in-process ms  peak MiB   detail`,
    );
    // One list for the table and the summary, in the order printed.
    const measures = {
      wc,
      start,
      bytes,
      apiCold,
      apiWarm,
      cliCold,
      cliWarm,
      patch,
      floor,
      naive,
    };
    for (const r of Object.values(measures)) console.log(row(r));
    const inner = (m: Measure) => m.innerMs ?? m.wallMs;
    const ratio = (a: number, b: number) => (a / b).toFixed(1);
    console.log(
      `\nread vs naive (in-process): first read ${
        ratio(inner(naive), inner(apiCold))
      }×, indexed ${
        ratio(inner(naive), inner(apiWarm))
      }× faster (target ≥ 50×)`,
    );
    console.log(
      `CLI read process vs wc -l: first read ${
        ratio(cliCold.wallMs, wc.wallMs)
      }×, indexed ${
        ratio(cliWarm.wallMs, wc.wallMs)
      }× the time of wc -l (target ≤ 1×)`,
    );
    console.log(
      `a first read reads every byte (totalLines, UTF-8 check): a Deno process doing only that takes ${
        ratio(bytes.wallMs, wc.wallMs)
      }× the time of wc -l (start-up alone ${ratio(start.wallMs, wc.wallMs)}×)`,
    );
    console.log(
      `one-line patch vs the write floor (copy + flush): ${
        ratio(patch.opMs ?? patch.wallMs, floor.opMs ?? floor.wallMs)
      }× the floor's time (patch alone ${
        (patch.opMs ?? 0).toFixed(0)
      } ms, floor ${(floor.opMs ?? 0).toFixed(0)} ms)`,
    );
    const peak = Math.max(
      apiCold.peakMiB,
      apiWarm.peakMiB,
      cliCold.peakMiB,
      cliWarm.peakMiB,
      patch.peakMiB,
    );
    console.log(
      `peak memory of read and patch: ${peak.toFixed(1)} MiB (target < 100)`,
    );
    printSummary("huge", {
      fileBytes: statSync(FILE).size,
      offset: OFFSET,
      limit: LIMIT,
      measures,
    });
  } finally {
    await rm(cold, { recursive: true, force: true });
    await rm(warm, { recursive: true, force: true });
  }
}

await main();
