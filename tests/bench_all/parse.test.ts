/**
 * The results page generator on recorded bench output: each bench's
 * `RESULT {json}` line is read, a changed or missing summary is refused by
 * name, the ratios come out against the right baseline, and a skipped or
 * failed step is written down with its reason.
 *
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  afterFirstParagraph,
  BEGIN,
  END,
  markers,
  replaceBetween,
} from "../../bench/all/_blocks.ts";
import { ratioChart } from "../../bench/all/chart.ts";
import {
  cpuModel,
  type Machine,
  memTotalGiB,
} from "../../bench/all/machine.ts";
import {
  type BenchName,
  parseSummary,
  type Summaries,
} from "../../bench/all/parse.ts";
import { computeRatios } from "../../bench/all/ratios.ts";
import {
  type AllRun,
  HEADLINE,
  renderHeadline,
  renderThroughputReadme,
  renderThroughputResults,
  type StepOutcome,
} from "../../bench/all/render.ts";
import { STEPS } from "../../bench/all/steps.ts";
import * as samples from "./_samples.ts";

const RECORDED: Record<BenchName, string> = {
  hash: samples.HASH,
  native: samples.NATIVE,
  huge: samples.HUGE,
  store: samples.STORE,
  load: samples.LOAD,
  http: samples.HTTP,
  mcp: samples.MCP,
  cli: samples.CLI,
  patch: samples.PATCH,
};

function all(): Summaries {
  const out: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(RECORDED)) {
    out[name] = parseSummary(name as BenchName, text);
  }
  return out as unknown as Summaries;
}

const MACHINE: Machine = {
  date: "2026-12-01",
  nproc: 2,
  cpu: "AMD EPYC",
  memoryGiB: 23.5,
  os: "Linux x64",
  load: 1.5,
  deno: "2.9.6",
  bun: "1.4.5",
  node: "20.20.2",
};

describe("bench summaries", () => {
  it("reads every bench's recorded summary line, past its human output", () => {
    const s = all();
    assert.equal(s.hash.lines, 244357);
    assert.equal(s.hash.wasm.median, 1.06228478515238);
    assert.ok("kernel" in s.native);
    assert.equal(s.native.kernel.median, 1.4931938932297786);
    assert.equal(s.huge.measures.naive.innerMs, 134.157576);
    assert.equal(s.huge.measures.floor.opMs, 47.998949999999994);
    assert.equal(s.huge.measures.cliWarm.innerMs, undefined);
    assert.equal(s.store.rows.length, 16);
    assert.equal(s.store.postgresSkipped, undefined);
    assert.equal(s.load.pass, true);
    assert.equal(s.http.bare.sequential, 2889.8564449361797);
    assert.equal(s.mcp.referenceMs, 12.22005799999988);
    assert.deepEqual(s.cli.cases.map((c) => c.id), [
      "empty",
      "version",
      "read",
      "bin",
      "task",
    ]);
    assert.equal(s.patch.cases[0].name, "slice floor");
  });

  it("reads a native run that could not build as skipped, with its reason", () => {
    const s = parseSummary("native", samples.NATIVE_SKIPPED);
    assert.deepEqual(s, {
      bench: "native",
      skipped: "no C compiler (`cc`) found",
    });
    assert.deepEqual(computeRatios({ native: s }).ratios, []);
  });

  it("refuses output without a summary line, saying to pass --json", () => {
    const human = samples.HASH.split("\n").filter((l) =>
      !l.startsWith("RESULT ")
    ).join("\n");
    assert.throws(() => parseSummary("hash", human), {
      name: "SyntaxError",
      message: /printed no "RESULT \{json\}" line; run it with --json/,
    });
  });

  it("refuses a summary line that is not JSON", () => {
    assert.throws(() => parseSummary("mcp", 'RESULT {"bench":"mcp",'), {
      name: "SyntaxError",
      message: /mcp bench's summary line is not JSON/,
    });
  });

  it("names the figure a changed summary lacks", () => {
    const broken = samples.HASH.replace('"median":1.06228478515238', '"mid":1');
    assert.throws(() => parseSummary("hash", broken), {
      name: "SyntaxError",
      message: /hash bench's summary lacks .*wasm\.median/,
    });
    const noRead = samples.CLI.replace('"id":"read"', '"id":"reed"');
    assert.throws(() => parseSummary("cli", noRead), {
      message: /no case with id "read"/,
    });
    const renamed = samples.PATCH.replace(
      '"name":"slice floor"',
      '"name":"floor"',
    );
    assert.throws(() => parseSummary("patch", renamed), {
      message: /no case with name "slice floor"/,
    });
  });

  it("refuses one bench's summary read as another's", () => {
    assert.throws(() => parseSummary("http", samples.MCP), {
      message: /http bench's summary lacks .*bench/,
    });
  });

  it("takes the last summary line when a bench printed two", () => {
    const twice = samples.MCP + samples.MCP.replace(
      '"freshMs":21.59357699999987',
      '"freshMs":30',
    );
    assert.equal(parseSummary("mcp", twice).freshMs, 30);
  });
});

describe("ratios against named baselines", () => {
  it("puts each figure against its baseline, above 1 when hashline is faster", () => {
    const s = all();
    const { ratios } = computeRatios(s);
    const by = new Map(ratios.map((r) => [r.id, r]));
    const close = (id: string, want: number) => {
      const r = by.get(id);
      assert.ok(r, `ratio ${id} is missing`);
      assert.ok(
        Math.abs(r.speed - want) < 1e-9,
        `${id}: ${r.speed} is not ${want}`,
      );
    };
    close("hash-wasm-ts", s.hash.wasm.median / s.hash.ts.median);
    assert.ok("kernel" in s.native);
    close("native-kernel", s.native.wasm.median / s.native.kernel.median);
    close("huge-read-naive", 134.157576 / 154.32526000000001);
    close("huge-patch-floor", 47.998949999999994 / 257.67086);
    close("http-sequential", s.http.app.sequential / s.http.bare.sequential);
    close("mcp-reference", s.mcp.referenceMs / s.mcp.freshMs);
    close("cli-read", 36.797953000000234 / 186.68352600000003);
    close("cli-documented", 186.68352600000003 / 190.3125);
    close("patch-ops", 22.859372000000118 / 38.50208800000007);
    assert.equal(by.get("hash-wasm-ts")!.label, "Wasm vs TS twin");
    assert.equal(by.get("native-kernel")!.label, "Wasm vs native AVX2");
    assert.equal(
      by.get("mcp-reference")!.label,
      "MCP round trip vs server-filesystem",
    );
    assert.equal(by.get("patch-ops")!.label, "applyPatch vs slice floor");
    assert.equal(by.get("http-sequential")!.label, "/v1/format vs bare Hono");
    assert.equal(by.get("cli-read")!.label, "CLI read vs empty Deno");
    assert.equal(by.get("huge-read-naive")!.label, "read vs naive split");
  });

  it("leaves out a ratio whose baseline read 0 ms, and says why", () => {
    // The recorded 16 MiB run timed `wc -l` at 0 ms (below /usr/bin/time's resolution).
    const { ratios, notes } = computeRatios({ huge: all().huge });
    assert.ok(!ratios.some((r) => r.id === "huge-cli-wc"));
    assert.ok(ratios.every((r) => Number.isFinite(r.speed)));
    assert.deepEqual(notes, [
      "CLI read vs wc -l: not computed, a figure is zero (below the timer's resolution at this size).",
    ]);
  });

  it("draws one bar per ratio, green faster and red slower", () => {
    const { ratios } = computeRatios(all());
    const svg = ratioChart(ratios, "test machine");
    assert.equal(svg.match(/<rect /g)?.length, ratios.length);
    const faster = ratios.filter((r) => r.speed >= 1).length;
    assert.equal(svg.match(/fill="#2e7d32"\/>/g)?.length, faster);
    assert.equal(
      svg.match(/fill="#c62828"\/>/g)?.length,
      ratios.length - faster,
    );
    assert.ok(svg.includes(">Wasm vs native AVX2<"));
    assert.ok(!svg.includes("NaN") && !svg.includes("Infinity"));
  });
});

describe("the results page", () => {
  const outcome = (
    id: string,
    status: StepOutcome["status"],
    reason?: string,
  ): StepOutcome => ({
    step: STEPS.find((s) => s.id === id)!,
    status,
    reason,
    seconds: 3,
  });

  it("names every step, with the reason of each one skipped or failed", () => {
    const s = all();
    const run: AllRun = {
      machine: MACHINE,
      summaries: { hash: s.hash, cli: s.cli },
      seconds: 12,
      outcomes: STEPS.map((st) =>
        st.id === "native"
          ? outcome("native", "skipped", "no C compiler (`cc`) found")
          : st.id === "store"
          ? outcome("store", "failed", "exit status 1: connection refused")
          : st.id === "hash" || st.id === "cli"
          ? outcome(st.id, "ok")
          : outcome(st.id, "skipped", "not selected (--only)")
      ),
    };
    const page = renderThroughputResults(run, "charts");
    for (const st of STEPS) assert.ok(page.includes(st.title), st.title);
    assert.match(page, /\*\*skipped\*\*: no C compiler \(`cc`\) found/);
    assert.match(
      page,
      /_Not measured in this run \(failed\): exit status 1: connection refused\._/,
    );
    assert.match(page, /`nproc` 2, AMD EPYC, 23\.5 GiB memory/);
    assert.match(page, /Deno 2\.9\.6, Bun 1\.4\.5, Node 20\.20\.2/);
    assert.match(page, /\| Wasm vs TS twin \|/);
    assert.match(page, /!\[[^\]]*\]\(charts\/throughput-ratios\.svg\)/);

    const readme = renderThroughputReadme(
      run,
      "bench/charts",
      "bench/RESULTS.md",
    );
    assert.match(readme, /`deno task bench:all`/);
    assert.match(readme, /native, skipped: no C compiler/);
    assert.match(readme, /store, failed: exit status 1: connection refused/);
    assert.match(readme, /\(bench\/charts\/throughput-ratios\.svg\)/);
  });

  it("says when PostgreSQL was skipped and leaves its column out", () => {
    const file = all().store;
    const store = {
      ...file,
      rows: file.rows.filter((r) => r.backend === "file"),
      postgresSkipped: "no server",
    };
    const run: AllRun = {
      machine: MACHINE,
      summaries: { store },
      seconds: 1,
      outcomes: [outcome("store", "ok", "PostgreSQL skipped: no server")],
    };
    const page = renderThroughputResults(run, "charts");
    assert.match(page, /PostgreSQL skipped: no server\./);
    assert.match(page, /\| operation \| file p50 \/ p99 \|\n/);
    assert.ok(!page.includes("postgres p50"));
  });
});

describe("the generated block", () => {
  it("replaces only what lies between its markers", () => {
    const doc = `# T\n\nkeep 1\n\n${BEGIN}\n\nold\n\n${END}\n\nkeep 2\n`;
    const out = replaceBetween(doc, "new", () => 0);
    assert.equal(out, `# T\n\nkeep 1\n\n${BEGIN}\n\nnew\n\n${END}\n\nkeep 2\n`);
  });

  it("adds the block after the section's first paragraph when it has none", () => {
    const doc = "# T\n\n## Benchmarks\n\nLead text.\nMore.\n\n**Hash** rest.\n";
    const out = replaceBetween(
      doc,
      "block",
      afterFirstParagraph("## Benchmarks"),
    );
    assert.equal(
      out,
      `# T\n\n## Benchmarks\n\nLead text.\nMore.\n\n${BEGIN}\n\nblock\n\n${END}\n\n**Hash** rest.\n`,
    );
  });

  it("refuses a document with one marker, or with the end first", () => {
    for (const doc of [`a\n${BEGIN}\nb\n`, `a\n${END}\nb\n${BEGIN}\n`]) {
      assert.throws(() => replaceBetween(doc, "x", () => 0), {
        name: "SyntaxError",
        message: /without its partner/,
      });
    }
  });
});

describe("the README's headline", () => {
  const run = (summaries: Partial<Summaries>): AllRun => ({
    machine: MACHINE,
    summaries,
    seconds: 1,
    outcomes: [],
  });

  it(
    "shows four ratios from the run, each against its baseline, and links the full results",
    {
      timeout: 10_000,
    },
    () => {
      const s = all();
      const { ratios } = computeRatios(s);
      const text = renderHeadline(run(s), "bench/RESULTS.md");
      const rows = text.split("\n").filter((l) =>
        l.startsWith("| ") && !/^\| (comparison|-)/.test(l)
      );
      assert.equal(rows.length, 4);
      HEADLINE.forEach((id, i) => {
        const r = ratios.find((x) => x.id === id)!;
        assert.ok(rows[i].includes(r.subject), r.subject);
        assert.ok(rows[i].includes(r.subjectValue), r.subjectValue);
        assert.ok(rows[i].includes(`${r.baseline}: ${r.baselineValue}`));
      });
      assert.match(text, /`deno task bench:all` \(2026-12-01; 2 × AMD EPYC/);
      assert.match(text, /\[bench\/RESULTS\.md\]\(bench\/RESULTS\.md\)/);
    },
  );

  it(
    "says how many rows a partial run could not measure",
    { timeout: 10_000 },
    () => {
      const text = renderHeadline(run({ hash: all().hash }), "RESULTS.md");
      assert.match(text, /3 of the 4 rows not measured in this run/);
      assert.equal(
        text.split("\n").filter((l) => l.startsWith("| `hashLines`")).length,
        1,
      );
      assert.match(
        renderHeadline(run({}), "RESULTS.md"),
        /_No headline figure in this run\._/,
      );
    },
  );

  it("is written between its own markers, leaving another block alone", {
    timeout: 10_000,
  }, () => {
    const { begin, end } = markers("headline");
    const doc =
      `# T\n\n## Performance\n\nLead.\n\n## Docs\n\n${BEGIN}\n\nkept\n\n${END}\n`;
    const once = replaceBetween(
      doc,
      "rows",
      afterFirstParagraph("## Performance"),
      "headline",
    );
    assert.equal(
      once,
      `# T\n\n## Performance\n\nLead.\n\n${begin}\n\nrows\n\n${end}\n\n## Docs\n\n${BEGIN}\n\nkept\n\n${END}\n`,
    );
    assert.equal(
      replaceBetween(once, "new", () => 0, "headline"),
      once.replace("rows", "new"),
    );
  });
});

describe("machine description", () => {
  it("reads the CPU model and memory from /proc text", () => {
    assert.equal(
      cpuModel("processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: x\n"),
      "AMD EPYC 7B13",
    );
    assert.equal(cpuModel("processor : 0\n"), "unknown CPU");
    assert.equal(
      memTotalGiB("MemTotal:       24684120 kB\nMemFree: 1 kB\n"),
      24684120 / 1024 ** 2,
    );
    assert.equal(memTotalGiB(""), 0);
  });
});
