/**
 * `scripts/conformance.sh` (docs/mcp.md "Conformance"): the MCP conformance
 * suite's 2026-07-28 and 2025-era scenarios against `serve`'s `/mcp`, every
 * check of each passing. The
 * script installs Node 22 and the suite from npm; where npm cannot reach
 * the registry the case is skipped and says so (never under CI).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { describe, it } from "node:test";
import { collect, REPO_ROOT } from "../_spawn.ts";

const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";

/** Whether npm can fetch the suite's metadata (it then can install it). */
async function npmReaches(): Promise<boolean> {
  const child = spawn("npm", ["view", SUITE, "version"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const result = await collect(child).catch(() => null);
  return result?.code === 0;
}

const reachable = process.env.CI === "true" || await npmReaches();

describe("MCP conformance of serve's /mcp", () => {
  it("passes every scenario scripts/conformance.sh runs", {
    timeout: 240_000,
    skip: reachable ? false : `npm cannot fetch ${SUITE} from the registry`,
  }, async () => {
    const child = spawn("bash", ["scripts/conformance.sh"], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const run = await collect(child);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    for (
      const scenario of [
        "server-stateless",
        "caching",
        "http-header-validation",
        "sep-2164-resource-not-found",
        "server-initialize",
        "server-session-lifecycle",
        "ping",
        "tools-list",
        "dns-rebinding-protection",
        "logging-set-level",
      ]
    ) {
      // Every check of the scenario, none expected to fail.
      assert.match(
        run.stdout,
        new RegExp(`^ok {3}${scenario}: Passed: (\\d+)/\\1, 0 failed`, "m"),
      );
    }
  });
});
