/**
 * Reading the `RESULT {json}` line each bench prints with `--json`, checked
 * against the shape that bench writes, so a change to a bench's summary
 * fails here by name instead of leaving a blank on the results page.
 *
 * @module
 */
import { z } from "zod";
import { RESULT_PREFIX } from "../_summary.ts";

const num = z.number().finite();
const rate = z.object({ best: num, median: num });

/** GB/s of one contender: the best and the median run. */
export interface Rate {
  /** Fastest run, GB/s. */
  best: number;
  /** Median run, GB/s. */
  median: number;
}

/** `bench/hash_compare.ts`. */
export interface HashSummary {
  bench: "hash";
  runtime: string;
  sizeMiB: number;
  md5MiB: number;
  lines: number;
  reps: number;
  wasm: Rate;
  ts: Rate;
  md5: Rate;
  copyMs: number;
}

/** `bench/native/compare.ts` when it ran. */
export interface NativeRan {
  bench: "native";
  runtime: string;
  sizeMiB: number;
  lines: number;
  reps: number;
  kernel: Rate;
  endToEnd: Rate;
  wasm: Rate;
}

/** `bench/native/compare.ts` when it could not run here. */
export interface NativeSkipped {
  bench: "native";
  skipped: string;
}

/** `bench/native/compare.ts`. */
export type NativeSummary = NativeRan | NativeSkipped;

/** One process of `bench/workspace_huge.ts`. */
export interface HugeMeasure {
  name: string;
  wallMs: number;
  innerMs?: number;
  /** The timed operation alone (the patch, the copy). */
  opMs?: number;
  peakMiB: number;
  detail: string;
}

/** The measures `bench/workspace_huge.ts` takes. */
export const HUGE_MEASURES = [
  "wc",
  "start",
  "bytes",
  "apiCold",
  "apiWarm",
  "cliCold",
  "cliWarm",
  "patch",
  "floor",
  "naive",
] as const;

/** One measure's key. */
export type HugeKey = (typeof HUGE_MEASURES)[number];

/** `bench/workspace_huge.ts`. */
export interface HugeSummary {
  bench: "huge";
  fileBytes: number;
  offset: number;
  limit: number;
  measures: Record<HugeKey, HugeMeasure>;
}

/** One operation on one backend of `bench/store_bench.ts`, in ms. */
export interface StoreRow {
  backend: string;
  op: string;
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

/** `bench/store_bench.ts`. */
export interface StoreSummary {
  bench: "store";
  revisions: number;
  samples: number;
  rows: StoreRow[];
  /** Why PostgreSQL was not measured, when it was not. */
  postgresSkipped?: string;
}

/** `bench/load_patch.ts`. */
export interface LoadSummary {
  bench: "load";
  runtime: string;
  connections: number;
  seconds: number;
  requests: number;
  acknowledged: number;
  refused: Record<string, number>;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  linesInFile: number;
  missing: number;
  refusedButWritten: number;
  /** With `--history both`: answers per second with the edit history off. */
  historyOffReqPerSec?: number;
  /** With `--history both`: on / off. */
  historyRatio?: number;
  pass: boolean;
}

/** Requests per second, one request at a time and many at once. */
export interface HttpRates {
  sequential: number;
  concurrent: number;
}

/** `bench/http_bench.ts`. */
export interface HttpSummary {
  bench: "http";
  runtime: string;
  lines: number;
  bytesIn: number;
  bytesOut: number;
  requests: number;
  concurrency: number;
  rounds: number;
  app: HttpRates;
  bare: HttpRates;
}

/** `bench/mcp_roundtrip.ts`, medians in ms. */
export interface McpSummary {
  bench: "mcp";
  runtime: string;
  lines: number;
  rounds: number;
  referenceMs: number;
  freshMs: number;
  loadedMs: number;
  /** The second setting: fresh servers, short warm-up, turns of a few rounds, nothing flushed. */
  alternating?: {
    lines: number;
    warmup: number;
    block: number;
    referenceMs: number;
    hashlineMs: number;
  };
}

/** The cases `bench/cli_startup.ts` spawns. */
export const CLI_CASES = ["empty", "version", "read", "bin", "task"] as const;

/** `bench/cli_startup.ts`, medians in ms. */
export interface CliSummary {
  bench: "cli";
  runs: number;
  cases: { id: string; name: string; medianMs: number }[];
}

/** The calls `bench/patch_bench.ts` times, by the names it prints. */
export const PATCH_CASES = [
  "slice floor",
  "applyPatch (ops)",
  "applyPatch (text form)",
  "editContent",
  "applyHashlineEdit",
  "split + join (whole content)",
] as const;

/** `bench/patch_bench.ts`, medians in µs per call. */
export interface PatchSummary {
  bench: "patch";
  lines: number;
  line: number;
  chars: number;
  rounds: number;
  calls: number;
  cases: { name: string; usPerCall: number }[];
}

/** Every summary, by bench name. */
export interface Summaries {
  hash: HashSummary;
  native: NativeSummary;
  huge: HugeSummary;
  store: StoreSummary;
  load: LoadSummary;
  http: HttpSummary;
  mcp: McpSummary;
  cli: CliSummary;
  patch: PatchSummary;
}

/** A bench that prints a summary. */
export type BenchName = keyof Summaries;

const hugeMeasure = z.object({
  name: z.string(),
  wallMs: num,
  innerMs: num.optional(),
  opMs: num.optional(),
  peakMiB: num,
  detail: z.string(),
});

const named = <T extends string>(names: readonly T[], key: "id" | "name") =>
(
  cases: { [k: string]: unknown }[],
  ctx: z.RefinementCtx,
): void => {
  for (const want of names) {
    if (!cases.some((c) => c[key] === want)) {
      ctx.addIssue({
        code: "custom",
        message: `no case with ${key} "${want}"`,
        path: ["cases"],
      });
    }
  }
};

const SCHEMAS: { [K in BenchName]: z.ZodType<Summaries[K]> } = {
  hash: z.object({
    bench: z.literal("hash"),
    runtime: z.string(),
    sizeMiB: num,
    md5MiB: num,
    lines: num,
    reps: num,
    wasm: rate,
    ts: rate,
    md5: rate,
    copyMs: num,
  }),
  native: z.union([
    z.object({ bench: z.literal("native"), skipped: z.string() }),
    z.object({
      bench: z.literal("native"),
      runtime: z.string(),
      sizeMiB: num,
      lines: num,
      reps: num,
      kernel: rate,
      endToEnd: rate,
      wasm: rate,
    }),
  ]),
  huge: z.object({
    bench: z.literal("huge"),
    fileBytes: num,
    offset: num,
    limit: num,
    measures: z.object(
      Object.fromEntries(HUGE_MEASURES.map((k) => [k, hugeMeasure])) as Record<
        HugeKey,
        typeof hugeMeasure
      >,
    ),
  }),
  store: z.object({
    bench: z.literal("store"),
    revisions: num,
    samples: num,
    rows: z.array(z.object({
      backend: z.string(),
      op: z.string(),
      n: num,
      p50: num,
      p99: num,
      mean: num,
    })).min(1),
    postgresSkipped: z.string().optional(),
  }),
  load: z.object({
    bench: z.literal("load"),
    runtime: z.string(),
    connections: num,
    seconds: num,
    requests: num,
    acknowledged: num,
    refused: z.record(z.string(), num),
    reqPerSec: num,
    p50Ms: num,
    p99Ms: num,
    linesInFile: num,
    missing: num,
    refusedButWritten: num,
    historyOffReqPerSec: num.optional(),
    historyRatio: num.optional(),
    pass: z.boolean(),
  }),
  http: z.object({
    bench: z.literal("http"),
    runtime: z.string(),
    lines: num,
    bytesIn: num,
    bytesOut: num,
    requests: num,
    concurrency: num,
    rounds: num,
    app: z.object({ sequential: num, concurrent: num }),
    bare: z.object({ sequential: num, concurrent: num }),
  }),
  mcp: z.object({
    bench: z.literal("mcp"),
    runtime: z.string(),
    lines: num,
    rounds: num,
    referenceMs: num,
    freshMs: num,
    loadedMs: num,
    alternating: z.object({
      lines: num,
      warmup: num,
      block: num,
      referenceMs: num,
      hashlineMs: num,
    }).optional(),
  }),
  cli: z.object({
    bench: z.literal("cli"),
    runs: num,
    cases: z.array(
      z.object({ id: z.string(), name: z.string(), medianMs: num }),
    ).superRefine(named(CLI_CASES, "id")),
  }),
  patch: z.object({
    bench: z.literal("patch"),
    lines: num,
    line: num,
    chars: num,
    rounds: num,
    calls: num,
    cases: z.array(z.object({ name: z.string(), usPerCall: num }))
      .superRefine(named(PATCH_CASES, "name")),
  }),
};

/**
 * The summary a bench printed: its last `RESULT {json}` line, checked
 * against that bench's shape.
 *
 * @param bench Which bench printed `stdout`.
 * @param stdout Everything it printed on standard output.
 * @returns The summary.
 * @throws {SyntaxError} When there is no summary line, it is not JSON, or
 *   it lacks a figure the results page needs.
 */
export function parseSummary<K extends BenchName>(
  bench: K,
  stdout: string,
): Summaries[K] {
  const line = stdout.split("\n").map((l) => l.trim()).filter((l) =>
    l.startsWith(RESULT_PREFIX)
  ).pop();
  if (line === undefined) {
    throw new SyntaxError(
      `The ${bench} bench printed no "${RESULT_PREFIX.trim()} {json}" line; run it with --json (or it stopped before the end).`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(line.slice(RESULT_PREFIX.length));
  } catch (e) {
    throw new SyntaxError(
      `The ${bench} bench's summary line is not JSON (${
        (e as Error).message
      }): ${line.slice(0, 120)}`,
    );
  }
  const parsed = SCHEMAS[bench].safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) =>
      `${i.path.join(".") || "(top)"}: ${i.message}`
    ).join("; ");
    throw new SyntaxError(
      `The ${bench} bench's summary lacks what the results page needs: ${issues}.`,
    );
  }
  return parsed.data;
}
