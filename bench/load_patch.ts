/**
 * Load check of concurrent patches: autocannon drives `POST /v1/files/patch`
 * (appends of one unique line each) against a real server on loopback, then
 * the file is read back: every 200 must be exactly one line in the file, and
 * no refused request may have left a line. Prints req/s, latency and the
 * refusal count.
 *
 * Run: `node --import tsx bench/load_patch.ts [--seconds 20] [--connections 20] [--history on|off|both] [--json]`
 * (`--json` adds a last line `RESULT {json}` with the figures). With
 * `--history both`, the same load runs with the edit history off, then on,
 * and the answers per second of the two are compared (the history's cost).
 *
 * @module
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startServer } from "../src/http/server.ts";
import { openWorkspace } from "../src/workspace/mod.ts";
import { printSummary } from "./_summary.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    connections: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
    history: { type: "string", default: "on" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

interface Run {
  history: boolean;
  total: number;
  acked: number;
  refused: Map<number, number>;
  reqPerSec: number;
  p50: number;
  p99: number;
  lines: number;
  missing: number;
  unacked: number;
}

async function load(history: boolean): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-load-"));
  const root = join(dir, "root");
  await mkdir(root);
  await writeFile(join(root, "log.txt"), "start\n");
  const stateDir = join(dir, "state");
  const server = await startServer({
    root,
    stateDir,
    workspace: openWorkspace(root, { stateDir, history }),
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
  return {
    history,
    total: result.requests.total,
    acked: acked.size,
    refused,
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    lines: lines.length,
    missing: missing.length,
    unacked: unacked.length,
  };
}

const modes = values.history === "both"
  ? [false, true]
  : [values.history !== "off"];
const runs: Run[] = [];
for (const history of modes) runs.push(await load(history));

let ok = true;
for (const r of runs) {
  console.log(
    `autocannon ${connections} connections × ${seconds} s against /v1/files/patch (appends), history ${
      r.history ? "on" : "off"
    }, ${process.release.name} ${process.version}`,
  );
  console.log(
    `requests ${r.total}, 200 ${r.acked}, refused ${
      [...r.refused].map(([s, n]) => `${s}×${n}`).join(" ") || "0"
    }, req/s ${
      r.reqPerSec.toFixed(0)
    }, latency p50 ${r.p50} ms p99 ${r.p99} ms`,
  );
  console.log(
    `lines in file ${r.lines}; acknowledged but absent or doubled ${r.missing}; refused but written ${r.unacked}`,
  );
  ok &&= r.missing === 0 && r.unacked === 0;
}
const on = runs.find((r) => r.history);
const off = runs.find((r) => !r.history);
const ratio = on && off ? on.reqPerSec / off.reqPerSec : undefined;
if (ratio !== undefined) {
  console.log(
    `history on / off: ${
      ratio.toFixed(2)
    }× the answers per second (target ≥ 0.90×)`,
  );
}
console.log(ok ? "PASS: every 200 is exactly one line in the file" : "FAIL");
const main = on ?? off!;
printSummary("load", {
  runtime: `${process.release.name} ${process.version}`,
  connections,
  seconds,
  requests: main.total,
  acknowledged: main.acked,
  refused: Object.fromEntries(main.refused),
  reqPerSec: main.reqPerSec,
  p50Ms: main.p50,
  p99Ms: main.p99,
  linesInFile: main.lines,
  missing: main.missing,
  refusedButWritten: main.unacked,
  ...(off && on
    ? { historyOffReqPerSec: off.reqPerSec, historyRatio: ratio }
    : {}),
  pass: ok,
});
process.exitCode = ok ? 0 : 1;
