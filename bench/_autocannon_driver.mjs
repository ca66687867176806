// Load driver for bench/format_bench.ts (run by Node): reads one JSON job
// per line on stdin ({ url, seconds, connections, body }), runs autocannon,
// and writes one JSON line of figures per job. One long-lived process, so
// rounds can be short without paying a process start each.
import { createInterface } from "node:readline";
import autocannon from "autocannon";

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === "") continue;
  const job = JSON.parse(line);
  const r = await autocannon({
    url: job.url,
    method: "POST",
    connections: job.connections,
    duration: job.seconds,
    headers: { "content-type": "application/json" },
    body: job.body,
  });
  process.stdout.write(
    JSON.stringify({
      requests: r.requests.total,
      duration: r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx,
      errors: r.errors,
    }) + "\n",
  );
}
