/**
 * The throughput sections of `bench/RESULTS.md` and the README's headline
 * block, as pure functions of one run: what each step gave (or why it gave
 * nothing), the machine, and the ratios.
 *
 * @module
 */
import { COMMAND } from "./chart.ts";
import { type Machine, machineLine } from "./machine.ts";
import type { Summaries } from "./parse.ts";
import {
  computeRatios,
  limitText,
  type Ratio,
  speedText,
  withinLimit,
} from "./ratios.ts";
import { commandLine, type Step, type StepId } from "./steps.ts";

/** What one step came to. */
export interface StepOutcome {
  step: Step;
  status: "ok" | "skipped" | "failed";
  /** Why it was skipped or failed; for a step that ran, a caveat. */
  reason?: string;
  seconds: number;
}

/** The whole run. */
export interface AllRun {
  machine: Machine;
  outcomes: StepOutcome[];
  summaries: Partial<Summaries>;
  seconds: number;
}

/** File name of the chart in the charts folder. */
export const CHART = "throughput-ratios.svg";

function table(head: string[], rows: string[][], right: number[]): string {
  const align = head.map((_, i) => (right.includes(i) ? "---:" : "---"));
  return [head, align, ...rows].map((r) => `| ${r.join(" | ")} |`).join(
    "\n",
  );
}

const f = (v: number, d = 1): string =>
  v.toLocaleString("en-US", {
    minimumFractionDigits: d,
    maximumFractionDigits: d,
  });

/** The ratios; `full` names what each side is and the step that measured it. */
function ratioTable(ratios: readonly Ratio[], full: boolean): string {
  return table(
    [
      "comparison",
      "hashline",
      "baseline",
      "times as fast",
      ...(full ? ["step"] : []),
    ],
    ratios.map((r) => [
      r.label,
      full ? `${r.subject}: ${r.subjectValue}` : r.subjectValue,
      full ? `${r.baseline}: ${r.baselineValue}` : r.baselineValue,
      speedText(r.speed),
      ...(full ? [r.bench] : []),
    ]),
    full ? [3] : [1, 2, 3],
  );
}

/** The ratios held to a limit: each as a cost or a share, its limit, and whether it is met. */
function limitTable(ratios: readonly Ratio[]): string {
  const held = ratios.filter((r) => r.limit !== undefined);
  if (held.length === 0) return "_No limited ratio in this run._";
  return table(
    ["ratio", "hashline", "baseline", "measured", "limit", "met"],
    held.map((r) => [
      r.label,
      r.subjectValue,
      `${r.baseline}: ${r.baselineValue}`,
      limitText(r).replace(/ \(.*$/, ""),
      r.limit!.text,
      withinLimit(r) ? "yes" : "**no**",
    ]),
    [1, 2, 3],
  );
}

function outcomeText(o: StepOutcome): string {
  if (o.status === "ok") return o.reason ? `ran; ${o.reason}` : "ran";
  return `**${o.status}**: ${o.reason ?? "no reason given"}`;
}

function notRun(o: StepOutcome | undefined): string {
  if (o === undefined) return "_Not part of this run._";
  return `_Not measured in this run (${o.status}): ${
    o.reason ?? "no reason given"
  }._`;
}

/** The per-bench detail, or why it is missing. */
function sections(run: AllRun): string[] {
  const s = run.summaries;
  const by = new Map<StepId, StepOutcome>(
    run.outcomes.map((o) => [o.step.id, o]),
  );
  const head = (id: StepId): string => {
    const o = by.get(id);
    if (o === undefined) return `### ${id}`;
    return `### ${o.step.title}\n\nThis run: \`${
      commandLine(o.step)
    }\`; at full size alone: \`${o.step.full}\`.`;
  };
  const out: string[] = [];

  out.push(head("hash"));
  if (s.hash) {
    const h = s.hash;
    out.push(
      `${f(h.sizeMiB, 0)} MiB of generated source-like text, ${
        h.lines.toLocaleString("en-US")
      } lines, ${h.runtime}; MD5 on the first ${f(h.md5MiB, 0)} MiB.`,
      table(["contender", "best GB/s", "median GB/s", "Wasm is (median)"], [
        ["`hashLines`, Wasm", f(h.wasm.best, 3), f(h.wasm.median, 3), "–"],
        ...([["`hashLines`, TypeScript twin", h.ts], [
          "MD5 per line, `node:crypto`",
          h.md5,
        ]] as const).map(([n, t]) => [
          n,
          f(t.best, 3),
          f(t.median, 3),
          speedText(h.wasm.median / t.median),
        ]),
      ], [1, 2, 3]),
    );
  } else out.push(notRun(by.get("hash")));

  out.push(head("native"));
  if (s.native && "kernel" in s.native) {
    const n = s.native;
    out.push(
      `${f(n.sizeMiB, 0)} MiB, ${
        n.lines.toLocaleString("en-US")
      } lines, ${n.runtime}; the kernel's anchors equal \`hashLines\` byte for byte.`,
      table(
        ["contender", "best GB/s", "median GB/s", "Wasm is (median)"],
        [
          ["native AVX2 kernel alone", n.kernel, true],
          ["native, copy in + kernel + fresh result", n.endToEnd, true],
          ["`hashLines`, Wasm", n.wasm, false],
        ].map(([name, t, cmp]) => {
          const r = t as { best: number; median: number };
          return [
            name as string,
            f(r.best, 3),
            f(r.median, 3),
            cmp ? speedText(n.wasm.median / r.median) : "–",
          ];
        }),
        [1, 2, 3],
      ),
    );
  } else if (s.native && "skipped" in s.native) {
    out.push(`_Skipped: ${s.native.skipped}._`);
  } else out.push(notRun(by.get("native")));

  out.push(head("huge"));
  if (s.huge) {
    const h = s.huge;
    const m = h.measures;
    out.push(
      `A generated file of ${f(h.fileBytes / 1024 ** 2, 0)} MiB, lines ${
        h.offset.toLocaleString("en-US")
      }–${
        (h.offset + h.limit - 1).toLocaleString("en-US")
      }, each measure in its own process (best of 3 where repeated).`,
      table(
        ["measure", "wall ms", "in-process ms", "peak MiB"],
        ([
          "wc",
          "naive",
          "start",
          "bytes",
          "apiCold",
          "apiWarm",
          "cliCold",
          "cliWarm",
          "patch",
        ] as const).map((k) => [
          m[k].name,
          f(m[k].wallMs, 0),
          m[k].innerMs === undefined ? "–" : f(m[k].innerMs!, 0),
          f(m[k].peakMiB, 1),
        ]),
        [1, 2, 3],
      ),
    );
  } else out.push(notRun(by.get("huge")));

  out.push(head("store"));
  if (s.store) {
    const st = s.store;
    const backends = [...new Set(st.rows.map((r) => r.backend))];
    const ops = [...new Set(st.rows.map((r) => r.op))];
    const cell = (b: string, op: string): string => {
      const r = st.rows.find((x) => x.backend === b && x.op === op);
      return r ? `${f(r.p50, 2)} / ${f(r.p99, 2)}` : "–";
    };
    out.push(
      `${
        st.revisions.toLocaleString("en-US")
      } revisions of about 1 KiB, ${st.samples} samples per operation; p50 / p99 in ms.${
        st.postgresSkipped
          ? ` PostgreSQL skipped: ${st.postgresSkipped}.`
          : " PostgreSQL is a throwaway cluster with `fsync=off` unless `HASHLINE_TEST_PG_URL` names one."
      }`,
      table(
        ["operation", ...backends.map((b) => `${b} p50 / p99`)],
        ops.map((op) => [op, ...backends.map((b) => cell(b, op))]),
        backends.map((_, i) => i + 1),
      ),
    );
  } else out.push(notRun(by.get("store")));

  out.push(head("load"));
  if (s.load) {
    const l = s.load;
    const refused = Object.entries(l.refused).map(([k, v]) => `${k}×${v}`)
      .join(" ") || "0";
    out.push(
      `autocannon, ${l.connections} connections × ${l.seconds} s of one-line appends to \`POST /v1/files/patch\`, ${l.runtime}. Every 200 must be exactly one line in the file.`,
      table(
        ["requests", "200", "refused", "req/s", "p50 ms", "p99 ms", "check"],
        [[
          String(l.requests),
          String(l.acknowledged),
          refused,
          f(l.reqPerSec, 0),
          String(l.p50Ms),
          String(l.p99Ms),
          l.pass
            ? "pass"
            : `FAIL (${l.missing} acknowledged but absent, ${l.refusedButWritten} refused but written)`,
        ]],
        [0, 1, 3, 4, 5],
      ),
    );
  } else out.push(notRun(by.get("load")));

  out.push(head("http"));
  if (s.http) {
    const h = s.http;
    out.push(
      `A ${h.lines}-line file (${h.bytesIn} bytes in, ${h.bytesOut} out), ${h.runtime}, best of ${h.rounds} rounds.`,
      table(["req/s", "app", "bare Hono", "app is"], [
        [
          `one at a time (${h.requests / 4})`,
          f(h.app.sequential, 0),
          f(h.bare.sequential, 0),
          speedText(h.app.sequential / h.bare.sequential),
        ],
        [
          `${h.concurrency} at once (${h.requests})`,
          f(h.app.concurrent, 0),
          f(h.bare.concurrent, 0),
          speedText(h.app.concurrent / h.bare.concurrent),
        ],
      ], [1, 2, 3]),
    );
  } else out.push(notRun(by.get("http")));

  out.push(head("mcp"));
  if (s.mcp) {
    const m = s.mcp;
    out.push(
      `Read + one-line edit of a ${m.lines}-line file over MCP stdio, median of ${m.rounds} rounds each after 50 untimed ones, the two servers taking turns 50 rounds at a time (the disk flushed before each turn), hashline under ${m.runtime}.`,
      table(["server", "median ms", "times as fast"], [
        ["`@modelcontextprotocol/server-filesystem`", f(m.referenceMs, 2), "–"],
        [
          "hashline, fresh session",
          f(m.freshMs, 2),
          speedText(m.referenceMs / m.freshMs),
        ],
        [
          "hashline, after 40 reads of 5,000 lines",
          f(m.loadedMs, 2),
          `${speedText(m.freshMs / m.loadedMs)} vs fresh`,
        ],
      ], [1, 2]),
    );
  } else out.push(notRun(by.get("mcp")));

  out.push(head("cli"));
  if (s.cli) {
    const c = s.cli;
    const empty = c.cases.find((x) => x.id === "empty")!.medianMs;
    out.push(
      `Median of ${c.runs} spawns each, interleaved.`,
      table(
        ["process", "median ms", "× the empty script"],
        c.cases.map((x) => [
          x.name,
          f(x.medianMs, 1),
          `${f(x.medianMs / empty, 2)}×`,
        ]),
        [1, 2],
      ),
    );
  } else out.push(notRun(by.get("cli")));

  out.push(head("patch"));
  if (s.patch) {
    const p = s.patch;
    const floor = p.cases.find((x) => x.name === "slice floor")!.usPerCall;
    out.push(
      `One replaced line (line ${p.line.toLocaleString("en-US")}) of ${
        p.lines.toLocaleString("en-US")
      }, median of ${p.rounds} rounds × ${p.calls} calls.`,
      table(
        ["call", "µs per call", "× slice floor"],
        p.cases.map((x) => [
          x.name,
          f(x.usPerCall, 1),
          `${f(x.usPerCall / floor, 2)}×`,
        ]),
        [1, 2],
      ),
    );
  } else out.push(notRun(by.get("patch")));
  return out;
}

/**
 * The throughput block of `bench/RESULTS.md`.
 *
 * @param run The run.
 * @param chartDir The charts folder, relative to RESULTS.md.
 * @returns Markdown.
 */
export function renderThroughputResults(run: AllRun, chartDir: string): string {
  const { ratios, notes } = computeRatios(run.summaries);
  return [
    "## Throughput",
    `_Last run ${machineLine(run.machine)}. ${
      f(run.seconds, 0)
    } s for the whole run._`,
    `Regenerate with \`${COMMAND}\` (\`bench/all.ts\`): it runs each bench as its own process at the reduced sizes named below (under ten minutes on 2 cores), reads the \`RESULT {json}\` line each prints with \`--json\`, and writes this section, \`${chartDir}/${CHART}\`, the README's four-row headline and the ratio block of \`docs/benchmarks.md\`; the formats bench writes its own section. The machine is shared, so figures move from run to run; each ratio is taken in one process against the baseline measured beside it, where the noise hits both.`,
    `![Times as fast as the named baseline](${chartDir}/${CHART})`,
    "### Limits",
    limitTable(ratios),
    "### Headline ratios",
    ratios.length ? ratioTable(ratios, true) : "_No ratio in this run._",
    ...(notes.length ? [notes.map((n) => `- ${n}`).join("\n")] : []),
    "### Steps",
    table(
      ["step", "command", "outcome", "seconds"],
      run.outcomes.map((o) => [
        o.step.title,
        `\`${commandLine(o.step)}\``,
        outcomeText(o),
        f(o.seconds, 0),
      ]),
      [3],
    ),
    ...sections(run),
  ].join("\n\n");
}

/**
 * The README's throughput block: the chart and the headline table, with the
 * command that made them.
 *
 * @param run The run.
 * @param chartDir The charts folder, relative to the README.
 * @param resultsPath RESULTS.md, relative to the README.
 * @returns Markdown.
 */
export function renderThroughputReadme(
  run: AllRun,
  chartDir: string,
  resultsPath: string,
): string {
  const { ratios } = computeRatios(run.summaries);
  const m = run.machine;
  return [
    `**Every throughput bench at once** — \`${COMMAND}\` (${m.date}; ${m.nproc} × ${m.cpu}, Deno ${m.deno}, Node ${m.node}; reduced sizes, so smaller inputs than the sections below; sizes, full tables and every step's command in \`${resultsPath}\`). Each bar and row is one figure against the baseline measured beside it in the same process.`,
    `![Times as fast as the named baseline](${chartDir}/${CHART})`,
    "The four cost ratios held to a limit (the MCP round trip in both of its settings, the `POST /v1/format` rate one at a time and 16 at once):",
    limitTable(ratios),
    ratios.length ? ratioTable(ratios, false) : "_No ratio in this run._",
    `Skipped, failed or partial in this run: ${
      run.outcomes.filter((o) => o.status !== "ok" || o.reason).map((o) =>
        `${o.step.id}, ${o.status === "ok" ? "ran" : o.status}: ${
          o.reason ?? "no reason given"
        }`
      ).join("; ") || "nothing"
    }.`,
  ].join("\n\n");
}

/** The ratios the README's headline shows, in its order. */
export const HEADLINE: readonly string[] = [
  "hash-wasm-ts",
  "huge-read-naive-indexed",
  "mcp-reference",
  "load-history",
];

/**
 * The README's four-row performance headline: line hashing, a window of a
 * huge file, the MCP round trip, and concurrent appends with the edit
 * history on, each against its baseline, from the same run as the full page.
 *
 * @param run The run.
 * @param resultsPath RESULTS.md, relative to the README.
 * @returns Markdown.
 */
export function renderHeadline(run: AllRun, resultsPath: string): string {
  const { ratios } = computeRatios(run.summaries);
  const rows = HEADLINE.map((id) => ratios.find((r) => r.id === id)).filter(
    (r): r is Ratio => r !== undefined,
  );
  const m = run.machine;
  const missing = HEADLINE.length - rows.length;
  return [
    rows.length
      ? table(
        ["comparison", "hashline", "baseline", "times as fast"],
        rows.map((r) => [
          r.subject,
          r.subjectValue,
          `${r.baseline}: ${r.baselineValue}`,
          speedText(r.speed),
        ]),
        [1, 3],
      )
      : "_No headline figure in this run._",
    `From \`${COMMAND}\` (${m.date}; ${m.nproc} × ${m.cpu}, Deno ${m.deno}; reduced sizes)${
      missing
        ? `; ${missing} of the ${HEADLINE.length} rows not measured in this run`
        : ""
    }. Every figure, its command and its machine: [${resultsPath}](${resultsPath}).`,
  ].join("\n\n");
}
