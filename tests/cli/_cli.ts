/**
 * Test helper: runs the command line as a user does, in a child process of
 * the runtime running the tests, from a chosen working folder, with an
 * environment free of the variables that would change where it looks.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { collect, type RunResult, tsCommand } from "../_spawn.ts";

/** Absolute path of the command line's entry module. */
export const CLI: string = fileURLToPath(
  new URL("../../src/cli/main.ts", import.meta.url),
);

/** How to run one command line. */
export interface CliRun {
  /** Working folder of the child. */
  cwd: string;
  /** Extra environment (`HASHLINE_STORE`, `INIT_CWD`, …). */
  env?: Record<string, string>;
  /** Text fed on standard input, then closed; `null` gives no stdin at all (/dev/null). */
  input?: string | null;
}

/** The environment of the tests without the variables the command line reads. */
export function cleanEnv(
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k === "INIT_CWD" || k.startsWith("HASHLINE_")) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/**
 * The modules under the folder `under` that a Deno run evaluated, relative
 * to it, read from the run's `--log-level=debug` standard error: Deno names
 * every module it instantiates (from the code cache or compiled anew).
 */
export function evaluatedUnder(stderr: string, under: string): Set<string> {
  const prefix = `file://${under.endsWith("/") ? under : under + "/"}`;
  const out = new Set<string>();
  for (
    const m of stderr.matchAll(
      /(?:code cache hit for|Updating V8 code cache for) ES module: (file:\/\/\S+?),/g,
    )
  ) {
    if (m[1].startsWith(prefix)) out.add(m[1].slice(prefix.length));
  }
  return out;
}

/** Runs `hashline ARGS` to completion. */
export function hashline(args: string[], run: CliRun): Promise<RunResult> {
  const [cmd, lead] = tsCommand(CLI);
  const child = spawn(cmd, [...lead, ...args], {
    cwd: run.cwd,
    env: cleanEnv(run.env),
    stdio: [run.input === null ? "ignore" : "pipe", "pipe", "pipe"],
  });
  return collect(child, run.input ?? undefined);
}

/** A temp folder with files; `dir` is its real path. */
export interface TempDir {
  dir: string;
  cleanup(): Promise<void>;
}

/** Makes a temp folder holding these files (paths relative to it). */
export async function tempDir(
  files: Record<string, string> = {},
): Promise<TempDir> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "hashline-cli-")));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
