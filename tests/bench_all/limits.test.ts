/**
 * The four limits `bench:all` holds ratios to: each limited ratio carries
 * its limit, is judged met or not from recorded bench output, and the page
 * shows them in a table of their own.
 *
 * @module
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSummary, type Summaries } from "../../bench/all/parse.ts";
import {
  computeRatios,
  limitText,
  withinLimit,
} from "../../bench/all/ratios.ts";
import { renderThroughputResults } from "../../bench/all/render.ts";
import * as samples from "./_samples.ts";

const CLI_WITH_FLOOR =
  `RESULT {"bench":"cli","runs":3,"cases":[{"id":"empty","name":"empty Deno script","medianMs":40},{"id":"floor","name":"node:fs read-and-print floor","medianMs":100},{"id":"version","name":"hashline --version","medianMs":110},{"id":"read","name":"hashline read (300 lines)","medianMs":170},{"id":"bin","name":"bin/hashline read","medianMs":160},{"id":"task","name":"deno task hashline read","medianMs":400}]}\n`;
const MCP_BOTH =
  `RESULT {"bench":"mcp","runtime":"deno","lines":300,"rounds":20,"referenceMs":3,"freshMs":4,"loadedMs":5,"alternating":{"lines":309,"warmup":10,"block":10,"referenceMs":3,"hashlineMs":6}}\n`;

function summaries(): Partial<Summaries> {
  return {
    cli: parseSummary("cli", CLI_WITH_FLOOR) as Summaries["cli"],
    mcp: parseSummary("mcp", MCP_BOTH) as Summaries["mcp"],
    http: parseSummary("http", samples.HTTP) as Summaries["http"],
    patch: parseSummary("patch", samples.PATCH) as Summaries["patch"],
  };
}

describe("bench:all limits", () => {
  it("the four limited ratios carry their limit and are judged by it", {
    timeout: 10_000,
  }, () => {
    const { ratios } = computeRatios(summaries());
    const held = new Map(
      ratios.filter((r) => r.limit).map((r) => [r.id, r]),
    );
    assert.deepEqual([...held.keys()].sort(), [
      "cli-floor",
      "http-concurrent",
      "http-sequential",
      "mcp-alternating",
      "mcp-reference",
      "patch-ops",
    ]);
    // bin/hashline's 160 ms against a 100 ms floor is 1.6×: over the 1.5× limit.
    const cli = held.get("cli-floor")!;
    assert.equal(withinLimit(cli), false);
    assert.match(limitText(cli), /^1\.60× the time \(NOT met; limit ≤ 1\.5×/);
    assert.match(cli.baseline, /node:fs/);
    // 4 ms against 3 ms is 1.33×: met; 6 ms against 3 ms is 2×: not.
    assert.equal(withinLimit(held.get("mcp-reference")!), true);
    assert.equal(withinLimit(held.get("mcp-alternating")!), false);
    // The recorded sample: 38.5 µs against a 22.9 µs floor, 1.68×.
    assert.equal(withinLimit(held.get("patch-ops")!), true);
    // 971 req/s against 2,890 is 0.34× the rate: under the 0.5× floor.
    const http = held.get("http-sequential")!;
    assert.equal(withinLimit(http), false);
    assert.match(limitText(http), /^0\.34× the rate \(NOT met; limit ≥ 0\.5×/);
  });

  it("ratios without a limit are always within it", { timeout: 10_000 }, () => {
    const { ratios } = computeRatios(summaries());
    const free = ratios.filter((r) => !r.limit);
    assert.ok(free.length > 0);
    assert.ok(free.every(withinLimit));
  });

  it("the results page shows the limits in a table of their own", {
    timeout: 10_000,
  }, () => {
    const page = renderThroughputResults({
      machine: {
        date: "2026-12-01",
        nproc: 2,
        cpu: "test cpu",
        memoryGiB: 4,
        os: "Linux x64",
        load: 1,
        deno: "2.9.6",
        bun: "1.4.5",
        node: "20.20.2",
      },
      outcomes: [],
      summaries: summaries(),
      seconds: 1,
    }, "charts");
    const block = page.slice(page.indexOf("### Limits"));
    assert.ok(page.includes("### Limits"));
    assert.match(block, /\| CLI read vs node:fs read-and-print \|/);
    assert.match(block, /\| \*\*no\*\* \|/);
  });
});
