/**
 * HTTP benchmark (not a test): `POST /v1/format` of a 1,000-line file served
 * by the real app, against a bare Hono app that reads the same request body
 * and answers the same bytes, both under this runtime's own server on
 * 127.0.0.1:0. Each is driven by sequential requests, then by concurrent
 * ones; the figure is requests per second, and the ratio real / bare. The
 * two servers take turns round after round, so the noise of a shared
 * machine falls on both.
 *
 *   node_modules/.bin/deno run -A bench/http_bench.ts [--requests N] [--concurrency C] [--lines L] [--rounds R] [--json]
 *   node_modules/.bin/bun run bench/http_bench.ts
 *   node --import tsx bench/http_bench.ts
 *
 * `--json` adds a last line `RESULT {json}` with the figures.
 */
import process from "node:process";
import { Hono } from "hono";
import { type FetchHandler, serveHttp } from "../src/_runtime/serve.ts";
import { createApp } from "../src/http/app.ts";
import { printSummary } from "./_summary.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const REQUESTS = flag("requests", 2000);
const CONCURRENCY = flag("concurrency", 16);
const LINES = flag("lines", 1000);
const ROUNDS = flag("rounds", 5);

const content = Array.from(
  { length: LINES },
  (_, i) => `  const value${i} = compute(${i}, "line ${i}");`,
).join("\n") + "\n";
const body = JSON.stringify({ content });
const headers = { "content-type": "application/json" };

const real = createApp({ root: "/nonexistent", stateDir: "/nonexistent" });
const expected = await (await real.request("/v1/format", {
  method: "POST",
  headers,
  body,
})).text();
const answer = new TextEncoder().encode(expected);
const bare = new Hono().post("/v1/format", async (c) => {
  await c.req.arrayBuffer();
  return c.body(answer, 200, {
    "content-type": "application/json; charset=utf-8",
  });
});

async function drive(
  url: string,
  count: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(url, { method: "POST", headers, body });
      const text = await res.text();
      if (res.status !== 200 || text.length !== expected.length) {
        throw new Error(
          `unexpected answer ${res.status}: ${text.slice(0, 200)}`,
        );
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return count / ((performance.now() - start) / 1000);
}

interface Rates {
  sequential: number;
  concurrent: number;
}

/**
 * Both servers run side by side and take turns, round after round (the one
 * that goes first alternating), so a busy moment of a shared machine lands
 * on both rather than on one.
 */
async function measure(
  handlers: { app: FetchHandler; bare: FetchHandler },
): Promise<{ app: Rates; bare: Rates; ratios: Rates[] }> {
  const servers = {
    app: await serveHttp(handlers.app, { hostname: "127.0.0.1", port: 0 }),
    bare: await serveHttp(handlers.bare, { hostname: "127.0.0.1", port: 0 }),
  };
  const url = (name: "app" | "bare") =>
    `http://127.0.0.1:${servers[name].port}/v1/format`;
  try {
    for (const name of ["app", "bare"] as const) {
      await drive(url(name), 200, 4); // warm-up
    }
    const best = {
      app: { sequential: 0, concurrent: 0 },
      bare: { sequential: 0, concurrent: 0 },
    };
    const ratios: Rates[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0
        ? (["app", "bare"] as const)
        : (["bare", "app"] as const);
      const round = {
        app: { sequential: 0, concurrent: 0 },
        bare: { sequential: 0, concurrent: 0 },
      };
      for (const name of order) {
        round[name].sequential = await drive(url(name), REQUESTS / 4, 1);
      }
      for (const name of order) {
        round[name].concurrent = await drive(url(name), REQUESTS, CONCURRENCY);
      }
      for (const name of order) {
        best[name].sequential = Math.max(
          best[name].sequential,
          round[name].sequential,
        );
        best[name].concurrent = Math.max(
          best[name].concurrent,
          round[name].concurrent,
        );
      }
      ratios.push({
        sequential: round.app.sequential / round.bare.sequential,
        concurrent: round.app.concurrent / round.bare.concurrent,
      });
    }
    return { ...best, ratios };
  } finally {
    await servers.app.close();
    await servers.bare.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const runtime = (globalThis as { Deno?: unknown; Bun?: unknown }).Deno
  ? "deno"
  : (globalThis as { Bun?: unknown }).Bun
  ? "bun"
  : "node";
const { app, bare: baseline, ratios } = await measure({
  app: real.fetch,
  bare: bare.fetch,
});
const row = (name: string, a: number, b: number, mid: number) =>
  `${name.padEnd(34)} ${a.toFixed(0).padStart(8)} ${b.toFixed(0).padStart(8)} ${
    (a / b).toFixed(2).padStart(6)
  }× ${mid.toFixed(2).padStart(6)}×`;
console.log(
  `POST /v1/format, ${LINES} lines (${body.length} bytes in, ${answer.length} out), ${runtime}, best of ${ROUNDS} interleaved rounds (and the median of each round's ratio)`,
);
console.log(
  `${"".padEnd(34)} ${"app".padStart(8)} ${"bare".padStart(8)}  ratio median`,
);
console.log(
  row(
    `sequential req/s (${REQUESTS / 4})`,
    app.sequential,
    baseline.sequential,
    median(ratios.map((r) => r.sequential)),
  ),
);
console.log(
  row(
    `concurrent req/s (${REQUESTS}, ${CONCURRENCY} at once)`,
    app.concurrent,
    baseline.concurrent,
    median(ratios.map((r) => r.concurrent)),
  ),
);
printSummary("http", {
  runtime,
  lines: LINES,
  bytesIn: body.length,
  bytesOut: answer.length,
  requests: REQUESTS,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  app,
  bare: baseline,
});
