/**
 * Two versions of hashline's MCP server side by side with the reference
 * `@modelcontextprotocol/server-filesystem`, as an outside check times the
 * round trip (see `mcp_roundtrip.ts`, second setting): the three servers
 * started afresh, 10 untimed rounds each, then turns of 10 read+edit rounds
 * of a 309-line file with nothing flushed between. Each run starts its
 * servers again; the two versions swap their places in the turns from one
 * run to the next.
 *
 * Run: `deno run -A bench/mcp_compare.ts A B [rounds] [runs] [--warmup=N]`,
 * where A and B are checkouts of the repository (default 100 rounds, 3 runs,
 * 10 untimed rounds; more untimed rounds compare the versions once V8 has
 * optimized them). It prints each run's medians and ratios, and the medians
 * of the runs: B/A below 1 means B is faster.
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import {
  body,
  connect,
  DENO,
  hashlineRound,
  median,
  REFERENCE,
  referenceRound,
} from "./_mcp_rounds.ts";

const LINES = 309;
const WARMUP = Number(
  process.argv.find((a) => a.startsWith("--warmup="))?.slice(9) ?? 10,
);
const TURN = 10;

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (args.length < 2) {
  console.error(
    "Usage: deno run -A bench/mcp_compare.ts A B [rounds] [runs] [--warmup=N] (A and B: checkouts of hashline)",
  );
  process.exit(2);
}
const [a, b] = args.slice(0, 2).map((p) => resolve(p));
const rounds = Number(args[2] ?? 100);
const runs = Number(args[3] ?? 3);

type Medians = { reference: number; a: number; b: number };

async function run(k: number): Promise<Medians> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-mcp-compare-"));
  try {
    const root = join(dir, "root");
    await mkdir(root);
    for (const f of ["r.ts", "a.ts", "b.ts"]) {
      await writeFile(join(root, f), body("start", LINES));
    }
    const server = (repo: string, state: string) =>
      connect(
        DENO,
        ["run", "-A", join(repo, "src/cli/main.ts"), "mcp", "--root", root],
        { HASHLINE_STORE: join(dir, state) },
      );
    const clients = {
      reference: await connect("node", [REFERENCE, root]),
      a: await server(a, "state-a"),
      b: await server(b, "state-b"),
    };
    const rounds_: [keyof Medians, (i: number) => Promise<void>][] = [
      ["reference", (i) => referenceRound(clients.reference, "r.ts", i)],
      ["a", (i) => hashlineRound(clients.a, "a.ts", i)],
      ["b", (i) => hashlineRound(clients.b, "b.ts", i)],
    ];
    if (k % 2 === 1) [rounds_[1], rounds_[2]] = [rounds_[2], rounds_[1]];
    for (const [, round] of rounds_) {
      for (let i = 0; i < WARMUP; i++) await round(-i - 1);
    }
    const ms: Record<keyof Medians, number[]> = { reference: [], a: [], b: [] };
    for (let from = 0; from < rounds; from += TURN) {
      for (const [name, round] of rounds_) {
        for (let i = from; i < Math.min(from + TURN, rounds); i++) {
          const t0 = performance.now();
          await round(i);
          ms[name].push(performance.now() - t0);
        }
      }
    }
    for (const c of Object.values(clients)) await c.close();
    return {
      reference: median(ms.reference),
      a: median(ms.a),
      b: median(ms.b),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function line(label: string, m: Medians): string {
  return `${label}: reference ${m.reference.toFixed(2)} ms; A ${
    m.a.toFixed(2)
  } ms (${(m.a / m.reference).toFixed(2)}× the reference); B ${
    m.b.toFixed(2)
  } ms (${(m.b / m.reference).toFixed(2)}× the reference); B/A ${
    (m.b / m.a).toFixed(3)
  }`;
}

console.log(`A: ${a}\nB: ${b}`);
console.log(
  `MCP stdio read + one-line edit of a ${LINES}-line file, three fresh servers, ${WARMUP} untimed rounds each, turns of ${TURN}, median of ${rounds} rounds`,
);
const all: Medians[] = [];
for (let k = 0; k < runs; k++) {
  const m = await run(k);
  all.push(m);
  console.log(line(`run ${k + 1}`, m));
}
console.log(line(`median of ${runs} runs`, {
  reference: median(all.map((m) => m.reference)),
  a: median(all.map((m) => m.a)),
  b: median(all.map((m) => m.b)),
}));
