/**
 * Load check of concurrent patches: autocannon drives `POST /v1/files/patch`
 * (appends of one unique line each) against a real server on loopback, then
 * the file is read back: every 200 must be exactly one line in the file, and
 * no refused request may have left a line. Prints req/s, latency and the
 * refusal count.
 *
 * Run: `node --import tsx bench/load_patch.ts [--seconds 20] [--connections 20] [--json]`
 * (`--json` adds a last line `RESULT {json}` with the figures).
 *
 * @module
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startServer } from "../src/http/server.ts";
import { printSummary } from "./_summary.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    connections: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const dir = await mkdtemp(join(tmpdir(), "hashline-load-"));
const root = join(dir, "root");
await writeFile(join(dir, "placeholder"), "");
await (await import("node:fs/promises")).mkdir(root);
await writeFile(join(root, "log.txt"), "start\n");
const server = await startServer({
  root,
  stateDir: join(dir, "state"),
  host: "127.0.0.1",
  port: 0,
});
const headers = {
  "content-type": "application/json",
  "hashline-session": "load",
};
const first = await fetch(`${server.url}/v1/files/read`, {
  method: "POST",
  headers,
  body: JSON.stringify({ path: "log.txt" }),
});
if (!first.ok) throw new Error(`read failed: ${await first.text()}`);

let next = 0;
const acked = new Set<string>();
const refusedIds = new Set<string>();
const refused = new Map<number, number>();
const result = await autocannon({
  url: `${server.url}/v1/files/patch`,
  connections,
  duration: seconds,
  requests: [{
    method: "POST",
    headers,
    setupRequest: (req, context) => {
      const id = `line-${next++}`;
      (context as { id?: string }).id = id;
      return {
        ...req,
        body: JSON.stringify({ patch: `@@ log.txt\n+\n~${id}` }),
      };
    },
    onResponse: (status, _body, context) => {
      const id = (context as { id?: string }).id!;
      if (status === 200) acked.add(id);
      else {
        refusedIds.add(id);
        refused.set(status, (refused.get(status) ?? 0) + 1);
      }
    },
  }],
});
await server.close();
const lines = (await readFile(join(root, "log.txt"), "utf8")).split("\n")
  .filter((l) => l.startsWith("line-"));
const inFile = new Map<string, number>();
for (const l of lines) inFile.set(l, (inFile.get(l) ?? 0) + 1);
const missing = [...acked].filter((id) => inFile.get(id) !== 1);
// A request still in flight when the run ends may land without its answer
// being seen; only a line whose request was answered with a refusal is wrong.
const unacked = [...inFile.keys()].filter((id) => refusedIds.has(id));
await rm(dir, { recursive: true, force: true, maxRetries: 5 });

const total = result.requests.total;
console.log(
  `autocannon ${connections} connections × ${seconds} s against /v1/files/patch (appends), ${process.release.name} ${process.version}`,
);
console.log(
  `requests ${total}, 200 ${acked.size}, refused ${
    [...refused].map(([s, n]) => `${s}×${n}`).join(" ") || "0"
  }, req/s ${
    result.requests.average.toFixed(0)
  }, latency p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms`,
);
console.log(
  `lines in file ${lines.length}; acknowledged but absent or doubled ${missing.length}; refused but written ${unacked.length}`,
);
const ok = missing.length === 0 && unacked.length === 0;
console.log(ok ? "PASS: every 200 is exactly one line in the file" : "FAIL");
printSummary("load", {
  runtime: `${process.release.name} ${process.version}`,
  connections,
  seconds,
  requests: total,
  acknowledged: acked.size,
  refused: Object.fromEntries(refused),
  reqPerSec: result.requests.average,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  linesInFile: lines.length,
  missing: missing.length,
  refusedButWritten: unacked.length,
  pass: ok,
});
process.exitCode = ok ? 0 : 1;
