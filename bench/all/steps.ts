/**
 * The steps of `deno task bench:all`: each bench as its own process, at
 * sizes that keep the whole run under ten minutes on 2 cores, with the
 * command a reader can paste to run it alone.
 *
 * @module
 */
import type { BenchName } from "./parse.ts";

/** A step's key: a bench with a summary, or one that writes its own block (formats, tools). */
export type StepId = BenchName | "formats" | "tools";

/** Steps that write their own block of `bench/RESULTS.md` (no summary parsed). */
export const SELF_WRITING: ReadonlySet<StepId> = new Set<StepId>([
  "formats",
  "tools",
]);

/** One bench to run. */
export interface Step {
  id: StepId;
  /** Section title on the page. */
  title: string;
  /** Program and arguments, the program as `deno` or `node`. */
  argv: string[];
  /** The same bench at its full size, as docs/benchmarks.md names it. */
  full: string;
  /** Give up (and record a failure) after this many seconds. */
  timeoutS: number;
}

/** Every step, in the order they run (formats first: it writes files too). */
export const STEPS: readonly Step[] = [
  {
    id: "formats",
    title: "Edit formats (drift safety, tokens)",
    argv: ["deno", "run", "-A", "bench/formats/main.ts"],
    full: "deno task bench:formats",
    timeoutS: 900,
  },
  {
    id: "tools",
    title: "Tool definitions and read forms (lean-read ratio)",
    argv: ["deno", "run", "-A", "bench/tools_tokens.ts", "--results"],
    full: "deno task bench:tools",
    timeoutS: 300,
  },
  {
    id: "hash",
    title: "Line hashing",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/hash_compare.ts",
      "--size=256",
      "--md5-size=16",
      "--reps=5",
      "--json",
    ],
    full: "deno task bench",
    timeoutS: 300,
  },
  {
    id: "native",
    title: "Line hashing against the native AVX2 kernel",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/native/compare.ts",
      "--size=128",
      "--reps=5",
      "--json",
    ],
    full: "deno task bench:native",
    timeoutS: 300,
  },
  {
    id: "huge",
    title: "Huge file",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/workspace_huge.ts",
      "--size=512",
      "--json",
    ],
    full: "deno task bench:workspace",
    timeoutS: 600,
  },
  {
    id: "store",
    title: "Revision store",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/store_bench.ts",
      "--revisions",
      "20000",
      "--samples",
      "1000",
      "--json",
    ],
    full: "deno task bench:store",
    timeoutS: 600,
  },
  {
    id: "load",
    title: "Concurrent patches over HTTP (autocannon, Node)",
    argv: [
      "node",
      "--import",
      "tsx",
      "bench/load_patch.ts",
      "--seconds",
      "10",
      "--connections",
      "20",
      "--history",
      "both",
      "--json",
    ],
    full: "npm run bench:load",
    timeoutS: 300,
  },
  {
    id: "http",
    title: "POST /v1/format against a bare Hono app",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/http_bench.ts",
      "--requests",
      "2000",
      "--concurrency",
      "16",
      "--json",
    ],
    full: "deno run -A bench/http_bench.ts",
    timeoutS: 300,
  },
  {
    id: "mcp",
    title: "MCP round trip against server-filesystem",
    argv: ["deno", "run", "-A", "bench/mcp_roundtrip.ts", "100", "--json"],
    full: "deno task bench:mcp",
    timeoutS: 300,
  },
  {
    id: "cli",
    title: "CLI start-up",
    argv: ["deno", "run", "-A", "bench/cli_startup.ts", "15", "--json"],
    full: "deno task bench:cli",
    timeoutS: 300,
  },
  {
    id: "patch",
    title: "Patch in memory",
    argv: [
      "deno",
      "run",
      "-A",
      "bench/patch_bench.ts",
      "--lines",
      "10000",
      "--rounds",
      "9",
      "--json",
    ],
    full: "deno task bench:patch",
    timeoutS: 300,
  },
];

/**
 * A step's command as a reader would type it from the repository root.
 *
 * @param step The step.
 * @returns The command line.
 */
export function commandLine(step: Step): string {
  return step.argv.join(" ");
}
