/**
 * Test helper: runs a TypeScript file in a child process of the same runtime
 * the tests run under (Deno, Bun, or Node with tsx), so crash and
 * concurrency tests exercise real separate processes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";

const TSX_LOADER =
  new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url)
    .href;
/** Absolute path of the repository root. */
export const REPO_ROOT: string = fileURLToPath(new URL("..", import.meta.url));

/** Which runtime runs this test file. */
export function runtimeName(): "deno" | "bun" | "node" {
  const g = globalThis as Record<string, unknown>;
  if (g.Deno) return "deno";
  if (g.Bun) return "bun";
  return "node";
}

/** The command and leading arguments that run a TypeScript file in this runtime. */
export function tsCommand(file: string): [string, string[]] {
  const rt = runtimeName();
  if (rt === "deno") return [process.execPath, ["run", "-A", file]];
  if (rt === "bun") return [process.execPath, ["run", file]];
  // An absolute loader URL, so a child started in a folder outside the
  // repository still finds tsx.
  return [process.execPath, ["--import", TSX_LOADER, file]];
}

/** Starts a TypeScript file as a child process with piped stdio. */
export function startTs(
  file: string,
  args: string[] = [],
  options: { cwd?: string; env?: Record<string, string> } = {},
): ChildProcess {
  const [cmd, lead] = tsCommand(file);
  return spawn(cmd, [...lead, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Result of a finished child process. */
export interface RunResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript file to completion, feeding `input` on stdin. */
export function runTs(
  file: string,
  args: string[] = [],
  options: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  const child = startTs(file, args, options);
  return collect(child, options.input);
}

/** Collects the output of a started child until it exits. */
export function collect(
  child: ChildProcess,
  input?: string,
): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stdout?.on("data", (d: string) => (stdout += d));
  child.stderr?.on("data", (d: string) => (stderr += d));
  if (input !== undefined) child.stdin?.end(input);
  else child.stdin?.end();
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on(
      "close",
      (code, signal) => resolve({ code, signal, stdout, stderr }),
    );
  });
}
