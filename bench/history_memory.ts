/**
 * Benchmark (not a test): the server's memory across delete-then-undo
 * cycles of a big file. Starts the real `hashline serve` (file store in a
 * temp state folder, 127.0.0.1, a free port) as a child process with a SIZE
 * MB text file of many lines in its root, then over HTTP, CYCLES times:
 * reads the file (its first window and its last line), deletes every line
 * in one patch, and undoes that through `POST /v1/history/{id}/undo`.
 * Afterwards it times each history door (`GET /v1/history`,
 * `GET /v1/history/{id}`, the review page `/` and `/history/{id}`), undoes
 * the last deletion and checks the bytes, and prints the child's peak
 * resident memory (`VmHWM` from `/proc/PID/status`, Linux only), the
 * history state's size against the file's, and the times.
 *
 *   node_modules/.bin/deno run -A bench/history_memory.ts [--size=20] [--cycles=8] [--runtime=deno|node|bun] [--crlf] [--no-final-newline] [--json]
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { type ChildProcess, spawn } from "node:child_process";
import {
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
import { fileURLToPath } from "node:url";

function arg(name: string, fallback: string): string {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a === undefined ? fallback : a.slice(name.length + 3);
}

function positive(name: string, fallback: number): number {
  const v = Number(arg(name, String(fallback)));
  if (!(v > 0)) throw new RangeError(`--${name} must be a positive number.`);
  return v;
}

const SIZE_MB = positive("size", 20);
const CYCLES = positive("cycles", 8);
const RUNTIME = arg("runtime", "deno");
const CRLF = process.argv.includes("--crlf");
const NO_FINAL = process.argv.includes("--no-final-newline");
const JSON_OUT = process.argv.includes("--json");
const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO, "src", "cli", "main.ts");
const BIN = join(REPO, "node_modules", ".bin");

function command(): [string, string[]] {
  if (RUNTIME === "deno") return [join(BIN, "deno"), ["run", "-A", "-q", CLI]];
  if (RUNTIME === "bun") return [join(BIN, "bun"), ["run", CLI]];
  if (RUNTIME === "node") {
    const tsx = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url);
    return ["node", ["--import", tsx.href, CLI]];
  }
  throw new RangeError(
    `--runtime must be deno, node or bun, got "${RUNTIME}".`,
  );
}

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? await sizeOf(p) : (await stat(p)).size;
  }
  return total;
}

async function peakMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)\s*kB/.exec(status)?.[1]);
  return kb / 1024;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (d: string) => {
      seen += d;
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(seen)?.[1];
      if (url) resolve(url);
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (d: string) => process.stderr.write(d));
    child.once(
      "exit",
      (code) => reject(new Error(`serve ended (${code}): ${seen}`)),
    );
  });
}

const dir = await mkdtemp(join(tmpdir(), "hashline-history-memory-"));
const root = join(dir, "root");
const state = join(dir, "state");
let child: ChildProcess | undefined;
try {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(root);
  const lineCount = Math.ceil(SIZE_MB * 1_000_000 / 50);
  const eol = CRLF ? "\r\n" : "\n";
  const text = Array.from(
    { length: lineCount },
    (_, i) => `line ${i} of a big file, padded to fifty bytes ${i % 7}`,
  ).join(eol) + (NO_FINAL ? "" : eol);
  const bytes = new TextEncoder().encode(text);
  await writeFile(join(root, "big.txt"), bytes);

  const [cmd, lead] = command();
  child = spawn(cmd, [
    ...lead,
    "serve",
    "--json",
    "--port",
    "0",
    "--root",
    root,
  ], {
    env: { ...process.env, HASHLINE_STORE: state, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid!;
  const url = await listening(child);
  const startMiB = await peakMiB(pid);

  const post = async (path: string, body: unknown) => {
    const r = await fetch(url + path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await r.json();
    if (!r.ok) {
      throw new Error(`${path}: ${r.status} ${JSON.stringify(answer)}`);
    }
    return answer;
  };
  const anchorOf = (t: string) => t.slice(0, t.indexOf("|"));

  let lastDelete = "";
  const cycleMs: number[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const t0 = performance.now();
    const first = await post("/v1/files/read", { path: "big.txt" });
    const last = await post("/v1/files/read", {
      path: "big.txt",
      offset: lineCount,
      limit: 1,
    });
    const done = await post("/v1/files/patch", {
      path: "big.txt",
      ops: [{
        op: "delete",
        start: anchorOf(first.text),
        end: anchorOf(last.text),
      }],
    });
    lastDelete = done.entry;
    if (cycle < CYCLES - 1) await post(`/v1/history/${lastDelete}/undo`, {});
    cycleMs.push(performance.now() - t0);
  }
  const cyclesMiB = await peakMiB(pid);

  const doors: Record<string, number> = {};
  const door = async (name: string, path: string) => {
    const t0 = performance.now();
    const r = await fetch(url + path);
    const body = await r.text();
    doors[name] = performance.now() - t0;
    if (r.status !== 200) {
      throw new Error(`${path}: ${r.status} ${body.slice(0, 300)}`);
    }
  };
  await door("GET /v1/history", "/v1/history?limit=20");
  await door("GET /v1/history/{id}", `/v1/history/${lastDelete}`);
  await door("GET /", "/");
  await door("GET /history/{id}", `/history/${lastDelete}`);
  const historyBytes = await sizeOf(join(state, "history"));

  const t0 = performance.now();
  await post(`/v1/history/${lastDelete}/undo`, {});
  const undoMs = performance.now() - t0;
  const back = await readFile(join(root, "big.txt"));
  const exact = back.length === bytes.length &&
    Buffer.from(bytes).equals(back);
  const peak = await peakMiB(pid);

  const figures = {
    runtime: RUNTIME,
    fileBytes: bytes.length,
    lines: lineCount,
    eol: CRLF ? "crlf" : "lf",
    cycles: CYCLES,
    startMiB: Math.round(startMiB),
    afterCyclesMiB: Math.round(cyclesMiB),
    peakMiB: Math.round(peak),
    historyBytes,
    historyTimesFile: Number((historyBytes / bytes.length).toFixed(2)),
    cycleMs: cycleMs.map(Math.round),
    doorsMs: Object.fromEntries(
      Object.entries(doors).map(([k, v]) => [k, Math.round(v)]),
    ),
    lastUndoMs: Math.round(undoMs),
    byteExact: exact,
  };
  if (JSON_OUT) console.log(JSON.stringify(figures));
  else {
    console.log(
      `${RUNTIME}: ${CYCLES} delete/undo cycles of a ${
        (bytes.length / 1e6).toFixed(1)
      } MB file (${lineCount} lines, ${figures.eol}${
        NO_FINAL ? ", no final newline" : ""
      })`,
    );
    console.log(
      `  server peak RSS (VmHWM): ${figures.peakMiB} MiB (at start ${figures.startMiB}, after the cycles ${figures.afterCyclesMiB})`,
    );
    console.log(
      `  history state: ${historyBytes} bytes (${figures.historyTimesFile}× the file)`,
    );
    console.log(`  cycle times: ${figures.cycleMs.join(", ")} ms`);
    for (const [k, v] of Object.entries(figures.doorsMs)) {
      console.log(`  ${k}: ${v} ms${v >= 2000 ? "  (over 2 s)" : ""}`);
    }
    console.log(
      `  last undo: ${figures.lastUndoMs} ms, byte for byte: ${exact}`,
    );
  }
  if (!exact) process.exitCode = 1;
} finally {
  if (child && child.exitCode === null) {
    const gone = new Promise((r) => child!.once("exit", r));
    child.kill("SIGTERM");
    await gone;
  }
  await rm(dir, { recursive: true, force: true });
}
