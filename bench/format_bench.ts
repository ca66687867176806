/**
 * `POST /v1/format` under load (not a test): autocannon, in its own Node
 * process, drives the real app and a bare Hono app that reads the same
 * request body and answers the same precomputed bytes. Both are served by
 * this runtime's own server on 127.0.0.1:0 in this process; rounds of the
 * two alternate (the one that goes first alternating too), so a busy moment
 * of a shared machine lands on both. The figure is requests per second;
 * the ratio is app / bare per round, and its median over the rounds, with
 * its quartiles and range (one round's ratio strays far on a shared
 * machine). Beside it, the CPU time this process spent per request in each
 * round (the servers' own cost, less swayed by other load than req/s).
 *
 *   deno task bench:format [--seconds S] [--connections C] [--rounds R] [--lines L] [--json]
 *   node_modules/.bin/deno run -A bench/format_bench.ts
 *
 * `--json` adds a last line `RESULT {json}` with the figures.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { parseArgs } from "node:util";
import { Hono } from "hono";
import { serveHttp } from "../src/_runtime/serve.ts";
import { createApp } from "../src/http/app.ts";
import { printSummary } from "./_summary.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "1" },
    connections: { type: "string", default: "10" },
    rounds: { type: "string", default: "20" },
    lines: { type: "string", default: "1000" },
    json: { type: "boolean", default: false },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const LINES = Number(values.lines);

const content = Array.from(
  { length: LINES },
  (_, i) => `  const value${i} = compute(${i}, "line ${i}");`,
).join("\n") + "\n";
const body = JSON.stringify({ content });
const headers = { "content-type": "application/json" };

const real = createApp({ root: "/nonexistent", stateDir: "/nonexistent" });
const expected = new Uint8Array(
  await (await real.request("/v1/format", { method: "POST", headers, body }))
    .arrayBuffer(),
);
const bare = new Hono().post("/v1/format", async (c) => {
  await c.req.arrayBuffer();
  return c.body(expected, 200, {
    "content-type": "application/json; charset=utf-8",
  });
});

const servers = {
  app: await serveHttp(real.fetch, { hostname: "127.0.0.1", port: 0 }),
  bare: await serveHttp(bare.fetch, { hostname: "127.0.0.1", port: 0 }),
};
const driverJs = fileURLToPath(
  new URL("./_autocannon_driver.mjs", import.meta.url),
);

interface Run {
  rps: number;
  /** CPU time this process spent per request, in microseconds. */
  cpuUs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

// autocannon runs in one long-lived Node process, so the load does not
// share this event loop and each round costs no process start.
const driver = spawn("node", [driverJs], {
  stdio: ["pipe", "pipe", "inherit"],
});
const answers = createInterface({ input: driver.stdout! })[
  Symbol.asyncIterator
]();

/** One round against one server: requests per second and this process's CPU per request. */
async function drive(port: number, seconds: number): Promise<Run> {
  driver.stdin!.write(
    JSON.stringify({
      url: `http://127.0.0.1:${port}/v1/format`,
      seconds,
      connections: CONNECTIONS,
      body,
    }) + "\n",
  );
  const cpu = process.cpuUsage();
  const next = await answers.next();
  const used = process.cpuUsage(cpu);
  if (next.done) throw new Error("the autocannon driver stopped");
  const r = JSON.parse(next.value);
  return {
    rps: r.requests / (r.duration || seconds),
    cpuUs: (used.user + used.system) / Math.max(1, r.requests),
    p50: r.p50,
    p99: r.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** The q-quantile of `values`, interpolated between the two nearest ranks. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

/** `q1–q3 (min–max)` of `values`, to show how far one round's figure strays. */
function spread(values: number[], digits: number, unit = ""): string {
  const f = (v: number): string => v.toFixed(digits) + unit;
  return `quartiles ${f(quantile(values, 0.25))}–${
    f(quantile(values, 0.75))
  }, range ${f(Math.min(...values))}–${f(Math.max(...values))}`;
}

// The answers must be the same bytes, or the comparison means nothing.
for (const name of ["app", "bare"] as const) {
  const res = await fetch(
    `http://127.0.0.1:${servers[name].port}/v1/format`,
    { method: "POST", headers, body },
  );
  const got = new Uint8Array(await res.arrayBuffer());
  if (res.status !== 200 || got.length !== expected.length) {
    throw new Error(`${name} answered ${res.status} with ${got.length} bytes`);
  }
}

const runtime = (globalThis as { Deno?: unknown }).Deno
  ? "deno"
  : (globalThis as { Bun?: unknown }).Bun
  ? "bun"
  : "node";
console.log(
  `POST /v1/format, ${LINES} lines (${body.length} bytes in, ${expected.length} out), ${runtime} server, autocannon ${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${SECONDS} s each`,
);
try {
  await drive(servers.app.port, 2); // warm-up
  await drive(servers.bare.port, 2);
  const rounds: { app: Run; bare: Run; ratio: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0
      ? (["app", "bare"] as const)
      : (["bare", "app"] as const);
    const got: Partial<Record<"app" | "bare", Run>> = {};
    for (const name of order) {
      got[name] = await drive(servers[name].port, SECONDS);
    }
    const app = got.app!;
    const bareRun = got.bare!;
    if (app.non2xx || app.errors || bareRun.non2xx || bareRun.errors) {
      throw new Error(`round ${r + 1}: failed requests ${JSON.stringify(got)}`);
    }
    const ratio = app.rps / bareRun.rps;
    rounds.push({ app, bare: bareRun, ratio });
    console.log(
      `round ${r + 1} (${order[0]} first): app ${app.rps.toFixed(0)} req/s (${
        app.cpuUs.toFixed(0)
      } µs CPU/req, p50 ${app.p50} ms), bare ${bareRun.rps.toFixed(0)} req/s (${
        bareRun.cpuUs.toFixed(0)
      } µs CPU/req, p50 ${bareRun.p50} ms), ratio ${ratio.toFixed(2)}×`,
    );
  }
  const appMed = median(rounds.map((r) => r.app.rps));
  const bareMed = median(rounds.map((r) => r.bare.rps));
  const ratioMed = median(rounds.map((r) => r.ratio));
  const ratios = rounds.map((r) => r.ratio);
  console.log(
    `median: app ${appMed.toFixed(0)} req/s, bare ${
      bareMed.toFixed(0)
    } req/s, ratio ${ratioMed.toFixed(2)}× (per-round ratios ${
      ratios.map((r) => r.toFixed(2)).join(", ")
    })`,
  );
  console.log(`per-round ratio: ${spread(ratios, 2, "×")}`);
  // Less swayed by other load on the machine than req/s: the servers' own
  // CPU time per request, bare / app (1.0 would be as cheap as bare).
  const cpuRatio = median(rounds.map((r) => r.bare.cpuUs / r.app.cpuUs));
  const appCpu = rounds.map((r) => r.app.cpuUs);
  const bareCpu = rounds.map((r) => r.bare.cpuUs);
  console.log(
    `server CPU per request (median): app ${
      median(appCpu).toFixed(0)
    } µs, bare ${median(bareCpu).toFixed(0)} µs, bare/app ${
      cpuRatio.toFixed(2)
    }×`,
  );
  console.log(`  app CPU per request: ${spread(appCpu, 0, " µs")}`);
  console.log(`  bare CPU per request: ${spread(bareCpu, 0, " µs")}`);
  printSummary("format", {
    runtime,
    lines: LINES,
    bytesIn: body.length,
    bytesOut: expected.length,
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    app: appMed,
    bare: bareMed,
    ratio: ratioMed,
    ratioQ1: quantile(ratios, 0.25),
    ratioQ3: quantile(ratios, 0.75),
    cpuRatio,
    appCpuUs: median(appCpu),
    bareCpuUs: median(bareCpu),
    ratios,
  });
} finally {
  driver.stdin!.end();
  await servers.app.close();
  await servers.bare.close();
}
process.exit(0);
