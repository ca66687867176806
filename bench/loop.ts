/**
 * The per-call cost of the agent loop, every figure in one run, each beside
 * its named baseline: MCP round trips against the reference filesystem
 * server, CLI start-up against an empty Deno script, one-line patches
 * against a slice-and-splice floor, `/v1/format` against a bare Hono app,
 * concurrent appends (refusals and lost edits), a one-line patch of a 1 GiB
 * file against copying it and flushing the copy, and line hashing against a
 * native AVX2 kernel (skipped with a note where no C compiler exists).
 *
 * Run: `deno task bench:loop` (add `--quick` for fewer rounds).
 *
 * @module
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";

const quick = process.argv.includes("--quick");
const REPO = fileURLToPath(new URL("../", import.meta.url));
const DENO = `${REPO}node_modules/.bin/deno`;

const steps: { title: string; cmd: string; args: string[] }[] = [
  {
    title:
      "MCP stdio round trip (read + one-line edit, history on) vs server-filesystem",
    cmd: DENO,
    args: ["run", "-A", "bench/mcp_roundtrip.ts", quick ? "50" : "100"],
  },
  {
    title: "CLI start-up vs an empty Deno script",
    cmd: DENO,
    args: ["run", "-A", "bench/cli_startup.ts", quick ? "8" : "20"],
  },
  {
    title: "applyPatch of one line in 10,000 vs the slice floor",
    cmd: DENO,
    args: [
      "run",
      "-A",
      "bench/patch_bench.ts",
      ...(quick ? ["--rounds", "5"] : []),
    ],
  },
  {
    title: "/v1/format (1,000 lines) vs a bare Hono app",
    cmd: DENO,
    args: ["run", "-A", "bench/http_bench.ts"],
  },
  {
    title: "10 connections appending to one file, history on vs off",
    cmd: "node",
    args: [
      "--import",
      "tsx",
      "bench/load_patch.ts",
      "--seconds",
      quick ? "3" : "10",
      "--connections",
      "10",
      "--history",
      "both",
    ],
  },
  {
    title:
      "history bounds: log --limit 1 on 2,000 vs 200,000 entries; delete-then-undo cycles of a 20 MB file",
    cmd: DENO,
    args: [
      "run",
      "-A",
      "bench/history_bounds.ts",
      ...(quick ? ["--cycles=2", "--runs=3"] : []),
    ],
  },
  {
    title: "one-line patch of a 1 GiB file vs the write floor (copy + flush)",
    cmd: DENO,
    args: [
      "run",
      "-A",
      "bench/workspace_huge.ts",
      ...(quick ? ["--size=64"] : []),
    ],
  },
  {
    title: "line hashing vs a native AVX2 kernel",
    cmd: DENO,
    args: [
      "run",
      "-A",
      "bench/native/compare.ts",
      ...(quick ? ["--size=32"] : []),
    ],
  },
];

function run(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: REPO, stdio: "inherit" });
    child.once("exit", (code) => resolve(code ?? 1));
    child.once("error", () => resolve(127));
  });
}

let failed = 0;
for (const step of steps) {
  console.log(`\n## ${step.title}\n`);
  const code = await run(step.cmd, step.args);
  if (code !== 0) {
    failed++;
    console.log(`(exit code ${code})`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
