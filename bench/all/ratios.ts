/**
 * The headline ratios: each figure of this project against the baseline the
 * bench measured beside it in the same process, as one number — how many
 * times as fast as the baseline (above 1 faster, below 1 slower).
 *
 * @module
 */
import type { BenchName, Summaries } from "./parse.ts";

/** One comparison against a named baseline. */
export interface Ratio {
  /** Stable key. */
  id: string;
  /** The bench that measured it. */
  bench: BenchName;
  /** Short name for the chart, "X vs Y". */
  label: string;
  /** What was measured, and its figure. */
  subject: string;
  /** The figure of the subject, with its unit. */
  subjectValue: string;
  /** The baseline, and its figure. */
  baseline: string;
  /** The figure of the baseline, with its unit. */
  baselineValue: string;
  /** Times as fast as the baseline: above 1 faster, below 1 slower. */
  speed: number;
  /** The limit the ratio is held to, when it has one (docs/benchmarks.md). */
  limit?: Limit;
}

/** A limit on a ratio: the least speed allowed, and how the docs state it. */
export interface Limit {
  /** Least `speed` that meets the limit. */
  minSpeed: number;
  /** The limit as stated, such as "≤ 2× the slice floor's time". */
  text: string;
}

/**
 * The four limits `bench:all` checks, by ratio id: costs against a floor or
 * a reference (at most so many times its time) and a throughput (at least
 * so much of the bare app's rate).
 */
export const LIMITS: Readonly<Record<string, Limit>> = {
  "patch-ops": { minSpeed: 1 / 2, text: "≤ 2× the slice floor's time" },
  "cli-floor": {
    minSpeed: 1 / 1.5,
    text: "≤ 1.5× the node:fs floor's time",
  },
  "http-sequential": {
    minSpeed: 0.5,
    text: "≥ 0.5× the bare Hono app's req/s",
  },
  "http-concurrent": {
    minSpeed: 0.5,
    text: "≥ 0.5× the bare Hono app's req/s",
  },
  "mcp-reference": {
    minSpeed: 1 / 1.5,
    text: "≤ 1.5× server-filesystem's time (aim 1.2×)",
  },
  "mcp-alternating": {
    minSpeed: 1 / 1.5,
    text: "≤ 1.5× server-filesystem's time (aim 1.2×)",
  },
};

/**
 * Whether a ratio meets its limit (true when it has none).
 *
 * @param r The ratio.
 * @returns Whether it is within its limit.
 */
export function withinLimit(r: Ratio): boolean {
  return r.limit === undefined || r.speed >= r.limit.minSpeed;
}

/**
 * A ratio as a cost or a share, the way its limit is stated: "1.63× the
 * time" for a cost, "0.78× the rate" for a throughput.
 *
 * @param r The ratio.
 * @returns The text.
 */
export function limitText(r: Ratio): string {
  if (!r.limit) return speedText(r.speed);
  const rate = r.limit.text.startsWith("≥");
  const v = rate ? r.speed : 1 / r.speed;
  return `${v.toFixed(2)}× ${rate ? "the rate" : "the time"} (${
    withinLimit(r) ? "met" : "NOT met"
  }; limit ${r.limit.text})`;
}

/** What came out: the ratios, and any that could not be formed, with why. */
export interface RatioSet {
  ratios: Ratio[];
  notes: string[];
}

const gbps = (v: number): string => `${v.toFixed(v < 0.1 ? 4 : 2)} GB/s`;
const ms = (v: number): string =>
  v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(1)} ms`;
const us = (v: number): string => `${v.toFixed(1)} µs`;
const rps = (v: number): string => `${v.toFixed(0)} req/s`;

/**
 * Every ratio the summaries at hand allow, in the order of the page.
 *
 * @param s The summaries of the benches that ran (any may be missing).
 * @returns The ratios, and notes on those left out.
 */
export function computeRatios(s: Partial<Summaries>): RatioSet {
  const ratios: Ratio[] = [];
  const notes: string[] = [];
  /** Adds a ratio unless either figure is zero (below the timer's resolution). */
  const add = (
    r: Omit<Ratio, "speed">,
    subject: number,
    baseline: number,
    higherIsFaster: boolean,
  ): void => {
    if (!(subject > 0) || !(baseline > 0)) {
      notes.push(
        `${r.label}: not computed, a figure is zero (below the timer's resolution at this size).`,
      );
      return;
    }
    const limit = LIMITS[r.id];
    ratios.push({
      ...r,
      speed: higherIsFaster ? subject / baseline : baseline / subject,
      ...(limit ? { limit } : {}),
    });
  };

  if (s.hash) {
    const h = s.hash;
    add(
      {
        id: "hash-wasm-ts",
        bench: "hash",
        label: "Wasm vs TS twin",
        subject: "`hashLines`, Wasm (median)",
        subjectValue: gbps(h.wasm.median),
        baseline: "`hashLines`, TypeScript twin",
        baselineValue: gbps(h.ts.median),
      },
      h.wasm.median,
      h.ts.median,
      true,
    );
    add(
      {
        id: "hash-wasm-md5",
        bench: "hash",
        label: "Wasm vs MD5 per line",
        subject: "`hashLines`, Wasm (median)",
        subjectValue: gbps(h.wasm.median),
        baseline: "MD5 per line, `node:crypto`",
        baselineValue: gbps(h.md5.median),
      },
      h.wasm.median,
      h.md5.median,
      true,
    );
  }
  if (s.native && "kernel" in s.native) {
    const n = s.native;
    add(
      {
        id: "native-kernel",
        bench: "native",
        label: "Wasm vs native AVX2",
        subject: "`hashLines`, Wasm (median)",
        subjectValue: gbps(n.wasm.median),
        baseline: "native AVX2 kernel alone",
        baselineValue: gbps(n.kernel.median),
      },
      n.wasm.median,
      n.kernel.median,
      true,
    );
    add(
      {
        id: "native-e2e",
        bench: "native",
        label: "Wasm vs native AVX2, copies included",
        subject: "`hashLines`, Wasm (median)",
        subjectValue: gbps(n.wasm.median),
        baseline: "native: copy in + kernel + fresh result",
        baselineValue: gbps(n.endToEnd.median),
      },
      n.wasm.median,
      n.endToEnd.median,
      true,
    );
  }
  if (s.huge) {
    const m = s.huge.measures;
    const inner = (k: keyof typeof m): number => m[k].innerMs ?? m[k].wallMs;
    add(
      {
        id: "huge-read-naive",
        bench: "huge",
        label: "read vs naive split",
        subject: "`workspace.read`, first read (in-process)",
        subjectValue: ms(inner("apiCold")),
        baseline: "read everything and split (in-process)",
        baselineValue: ms(inner("naive")),
      },
      inner("apiCold"),
      inner("naive"),
      false,
    );
    add(
      {
        id: "huge-read-naive-indexed",
        bench: "huge",
        label: "indexed read vs naive split",
        subject: "`workspace.read`, later read (in-process)",
        subjectValue: ms(inner("apiWarm")),
        baseline: "read everything and split (in-process)",
        baselineValue: ms(inner("naive")),
      },
      inner("apiWarm"),
      inner("naive"),
      false,
    );
    if (m.patch.opMs !== undefined && m.floor.opMs !== undefined) {
      add(
        {
          id: "huge-patch-floor",
          bench: "huge",
          label: "huge patch vs write floor",
          subject: "one-line `workspace.patch` (patch alone)",
          subjectValue: ms(m.patch.opMs),
          baseline: "copy the file and flush the copy",
          baselineValue: ms(m.floor.opMs),
        },
        m.patch.opMs,
        m.floor.opMs,
        false,
      );
    }
    add(
      {
        id: "huge-cli-wc",
        bench: "huge",
        label: "CLI read vs wc -l",
        subject: "`hashline read` process, later read",
        subjectValue: ms(m.cliWarm.wallMs),
        baseline: "`wc -l` over the whole file",
        baselineValue: ms(m.wc.wallMs),
      },
      m.cliWarm.wallMs,
      m.wc.wallMs,
      false,
    );
  }
  if (s.http) {
    const h = s.http;
    add(
      {
        id: "http-sequential",
        bench: "http",
        label: "/v1/format vs bare Hono",
        subject: "`POST /v1/format`, one at a time",
        subjectValue: rps(h.app.sequential),
        baseline: "bare Hono app, same bytes",
        baselineValue: rps(h.bare.sequential),
      },
      h.app.sequential,
      h.bare.sequential,
      true,
    );
    add(
      {
        id: "http-concurrent",
        bench: "http",
        label: `/v1/format vs bare Hono, ${h.concurrency} at once`,
        subject: `\`POST /v1/format\`, ${h.concurrency} at once`,
        subjectValue: rps(h.app.concurrent),
        baseline: "bare Hono app, same bytes",
        baselineValue: rps(h.bare.concurrent),
      },
      h.app.concurrent,
      h.bare.concurrent,
      true,
    );
  }
  const off = s.load?.historyOffReqPerSec;
  if (s.load && off !== undefined) {
    const l = s.load;
    add(
      {
        id: "load-history",
        bench: "load",
        label: "Appends over HTTP, history on vs off",
        subject: `appends over HTTP, ${l.connections} at once, history on`,
        subjectValue: rps(l.reqPerSec),
        baseline: "the same, history off",
        baselineValue: rps(off),
      },
      l.reqPerSec,
      off,
      true,
    );
  }
  if (s.mcp) {
    const m = s.mcp;
    add(
      {
        id: "mcp-reference",
        bench: "mcp",
        label: "MCP round trip vs server-filesystem",
        subject: "read + one-line edit over MCP stdio",
        subjectValue: ms(m.freshMs),
        baseline: "`@modelcontextprotocol/server-filesystem`",
        baselineValue: ms(m.referenceMs),
      },
      m.freshMs,
      m.referenceMs,
      false,
    );
    if (m.alternating) {
      const a = m.alternating;
      add(
        {
          id: "mcp-alternating",
          bench: "mcp",
          label: "MCP round trip vs server-filesystem, unflushed turns",
          subject:
            `the same, fresh servers, turns of ${a.block}, ${a.lines} lines`,
          subjectValue: ms(a.hashlineMs),
          baseline: "`@modelcontextprotocol/server-filesystem`",
          baselineValue: ms(a.referenceMs),
        },
        a.hashlineMs,
        a.referenceMs,
        false,
      );
    }
    add(
      {
        id: "mcp-loaded",
        bench: "mcp",
        label: "MCP round trip, loaded vs fresh session",
        subject: "the same after 40 reads of 5,000 lines",
        subjectValue: ms(m.loadedMs),
        baseline: "fresh session",
        baselineValue: ms(m.freshMs),
      },
      m.loadedMs,
      m.freshMs,
      false,
    );
  }
  if (s.cli) {
    const c = new Map(s.cli.cases.map((x) => [x.id, x.medianMs]));
    const empty = c.get("empty")!;
    add(
      {
        id: "cli-read",
        bench: "cli",
        label: "CLI read vs empty Deno",
        subject: "`hashline read` of 300 lines (process)",
        subjectValue: ms(c.get("read")!),
        baseline: "an empty Deno script",
        baselineValue: ms(empty),
      },
      c.get("read")!,
      empty,
      false,
    );
    const floor = c.get("floor");
    if (floor !== undefined) {
      add(
        {
          id: "cli-floor",
          bench: "cli",
          label: "CLI read vs node:fs read-and-print",
          subject:
            "`bin/hashline read` of 300 lines (process; runs the bundle)",
          subjectValue: ms(c.get("bin")!),
          baseline:
            "a Deno script that reads the file with `node:fs` and prints it",
          baselineValue: ms(floor),
        },
        c.get("bin")!,
        floor,
        false,
      );
    }
    add(
      {
        id: "cli-documented",
        bench: "cli",
        label: "documented CLI invocation vs direct",
        subject: "`bin/hashline read` (the README's invocation)",
        subjectValue: ms(c.get("bin")!),
        baseline: "`deno run -A src/cli/main.ts read`",
        baselineValue: ms(c.get("read")!),
      },
      c.get("bin")!,
      c.get("read")!,
      false,
    );
    add(
      {
        id: "cli-version",
        bench: "cli",
        label: "CLI --version vs empty Deno",
        subject: "`hashline --version` (process)",
        subjectValue: ms(c.get("version")!),
        baseline: "an empty Deno script",
        baselineValue: ms(empty),
      },
      c.get("version")!,
      empty,
      false,
    );
  }
  if (s.patch) {
    const p = new Map(s.patch.cases.map((x) => [x.name, x.usPerCall]));
    const floor = p.get("slice floor")!;
    for (
      const [id, name, subject, label] of [
        [
          "patch-ops",
          "applyPatch (ops)",
          "`applyPatch` (ops)",
          "applyPatch vs slice floor",
        ],
        [
          "patch-text",
          "applyPatch (text form)",
          "`applyPatch` (text form)",
          "applyPatch text vs slice floor",
        ],
        [
          "patch-edit-content",
          "editContent",
          "`editContent`",
          "editContent vs slice floor",
        ],
      ] as const
    ) {
      add(
        {
          id,
          bench: "patch",
          label,
          subject: `${subject}, one line of ${
            s.patch.lines.toLocaleString("en-US")
          }`,
          subjectValue: us(p.get(name)!),
          baseline: "slice floor (`indexOf` loop + two slices)",
          baselineValue: us(floor),
        },
        p.get(name)!,
        floor,
        false,
      );
    }
  }
  return { ratios, notes };
}

/**
 * A ratio as the table shows it: "2.63× (faster)" or "0.45× (2.2× slower)".
 *
 * @param speed Times as fast as the baseline.
 * @returns The text.
 */
export function speedText(speed: number): string {
  const x = (v: number): string =>
    v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return speed >= 1
    ? `${x(speed)}× (faster)`
    : `${x(speed)}× (${x(1 / speed)}× slower)`;
}
