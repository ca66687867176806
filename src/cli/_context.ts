/**
 * What every command receives: its parsed arguments, the caller's working
 * folder that relative paths resolve against, the state folder, and output.
 * Commands return an exit code: 0 done, 1 refused, 2 bad usage.
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { realpathSync } from "../_runtime/fs.ts";
import { projectRootOf, stateDirOf } from "../_runtime/state_dir.ts";
import {
  cwd as processCwd,
  getEnv,
  readStdin,
  writeStderr,
  writeStdout,
} from "../_runtime/env.ts";
import { PatchRefusedError } from "../errors.ts";
import { codeOf, exitOf } from "./_exit.ts";
import type { FlagValues } from "./_args.ts";
import type { CommandSpec } from "./_table.ts";

export { EXIT_OK, EXIT_REFUSED, EXIT_USAGE } from "./_exit.ts";

/**
 * Prints a command's answer: `{ "ok": true, ...body }` on one line with
 * `--json`, else `text` (docs/cli.md).
 *
 * @param ctx The command's context.
 * @param body What the JSON answer holds besides `ok`.
 * @param text The answer for a person.
 */
export async function printResult(
  ctx: CliContext,
  body: object,
  text: string,
): Promise<void> {
  await ctx.out(ctx.json ? JSON.stringify({ ok: true, ...body }) : text);
}

/**
 * Where a run of the command line meets the outside world. Every part
 * defaults to the process's own; tests and embedders replace them.
 */
export interface CliIo {
  /** The folder the command was run from (default: see {@link callerFolder}). */
  cwd?: string;
  /** Environment lookup (default the process environment). */
  env?: (name: string) => string | undefined;
  /** All of standard input, read only when a command is given `-`. */
  stdin?: () => Promise<Uint8Array>;
  /** Writes text to standard output as it is. */
  stdout?: (text: string) => Promise<void>;
  /** Writes text to standard error as it is. */
  stderr?: (text: string) => Promise<void>;
}

/** Everything a command needs. */
export interface CliContext {
  /** The command being run. */
  spec: CommandSpec;
  /** Positionals after the command words. */
  args: string[];
  /** Flag values. */
  values: FlagValues;
  /** `--json`: print exactly one JSON document on stdout. */
  json: boolean;
  /** The caller's folder. */
  cwd: string;
  /**
   * Absolute workspace root: `--root`, else the nearest folder from the
   * caller's upward that holds `.hashline/`, else the caller's folder.
   */
  root: string;
  /** The root was found upward from the caller's folder (no `--root`). */
  foundRoot: boolean;
  /** Session name (`--session`, default `default`). */
  session: string;
  /** Absolute state folder: `--state`, else `HASHLINE_STORE`, else `.hashline/` under the root. */
  stateDir: string;
  /** Path globs no read, edit or history view may touch (`--deny`, repeatable). */
  deny: string[];
  /** Resolves a path the user typed: from the caller's folder inside the root, else from the root. */
  path(name: string): string;
  /**
   * A path inside a patch as the root takes it: typed relative, it is
   * taken from the caller's folder inside the root, as {@link path} does.
   */
  patchPath(name: string): string;
  /** Environment lookup. */
  env(name: string): string | undefined;
  /** Reads all of standard input. */
  stdin(): Promise<Uint8Array>;
  /** Writes text to stdout exactly as given. */
  write(text: string): Promise<void>;
  /** Prints a line to stdout. */
  out(text: string): Promise<void>;
  /** Prints a line to stderr. */
  err(text: string): Promise<void>;
}

/**
 * The folder the user ran the command from. `deno task` and `npm run` move
 * to the project folder before running and name the caller's folder in
 * `INIT_CWD`; it is taken when it is that folder or lies inside it (where a
 * task runner started from), so a stray `INIT_CWD` inherited by a process
 * started elsewhere is ignored.
 *
 * @param cwd The process's working folder.
 * @param initCwd The value of `INIT_CWD`, if any.
 * @returns An absolute folder.
 */
export function callerFolder(cwd: string, initCwd: string | undefined): string {
  if (initCwd && isAbsolute(initCwd)) {
    const rel = relative(resolve(cwd), resolve(initCwd));
    if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) {
      return resolve(initCwd);
    }
  }
  return resolve(cwd);
}

function inside(folder: string, root: string): boolean {
  const rel = relative(root, folder);
  return rel === "" ||
    (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The folder a relative path is taken from: the working folder when it lies
 * inside the root (so `read a.ts` from `root/src` means `src/a.ts`), else the
 * root (so `hashline --root ~/proj read src/a.ts` works from anywhere).
 *
 * @param root The absolute workspace root.
 * @param cwd The absolute working folder.
 * @returns The folder relative paths resolve against.
 */
export function pathBase(root: string, cwd: string): string {
  if (inside(cwd, root)) return cwd;
  // The working folder may name the root through a symbolic link, or the
  // reverse (`/tmp` → `/private/tmp`).
  try {
    if (inside(realpathSync(cwd), realpathSync(root))) return cwd;
  } catch {
    // A missing root is reported when the workspace opens.
  }
  return root;
}

/** The real path of a folder, or the folder as given when it cannot be resolved. */
function real(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

function line(write: (t: string) => Promise<void>) {
  return (text: string) => write(text.endsWith("\n") ? text : text + "\n");
}

/**
 * Builds a command's context.
 *
 * @param run The parsed command.
 * @param io Where the run meets the outside world.
 * @returns The context.
 */
export function makeContext(
  run: { spec: CommandSpec; args: string[]; values: FlagValues; json: boolean },
  io: CliIo = {},
): CliContext {
  const env = io.env ?? getEnv;
  const cwd = io.cwd !== undefined
    ? resolve(io.cwd)
    : callerFolder(processCwd(), env("INIT_CWD"));
  const given = typeof run.values.root === "string"
    ? resolve(cwd, run.values.root)
    : undefined;
  // Without --root, a subfolder of a project uses the project's root and
  // state, as git finds .git, instead of starting a second one.
  const found = given === undefined ? projectRootOf(cwd) : undefined;
  const root = given ?? found ?? cwd;
  const stdout = io.stdout ?? writeStdout;
  const stderr = io.stderr ?? writeStderr;
  return {
    spec: run.spec,
    args: run.args,
    values: run.values,
    json: run.json,
    cwd,
    root,
    foundRoot: found !== undefined && found !== cwd,
    session: typeof run.values.session === "string"
      ? run.values.session
      : "default",
    deny: Array.isArray(run.values.deny) ? run.values.deny : [],
    stateDir: stateDirOf(root, {
      state: typeof run.values.state === "string"
        ? run.values.state
        : undefined,
      cwd,
      env,
    }),
    // resolve() drops a trailing "/", which names a folder: keep it so the
    // workspace refuses the path as it would the same path typed from the root.
    path: (name) => {
      const full = resolve(pathBase(root, cwd), name);
      return /[\\/]$/.test(name) ? full + "/" : full;
    },
    patchPath: (name) => {
      const base = pathBase(root, cwd);
      if (base === root || isAbsolute(name) || name === "") return name;
      const rel = relative(real(root), resolve(real(base), name))
        .split(sep).join("/");
      return /[\\/]$/.test(name) ? rel + "/" : rel;
    },
    env,
    stdin: io.stdin ?? readStdin,
    write: stdout,
    out: line(stdout),
    err: line(stderr),
  };
}

/**
 * Prints an error the way every command does and gives its exit code:
 * `{ ok: false, error: { code, message, problems? } }` on stdout with
 * `--json`, the message on stderr otherwise.
 *
 * @param out Prints a line to stdout.
 * @param err Prints a line to stderr.
 * @param json Whether `--json` was given.
 * @param error What was thrown.
 * @returns The code's exit code: 2 for bad input, 1 for refusals and failures.
 */
export async function reportError(
  out: (text: string) => Promise<void>,
  err: (text: string) => Promise<void>,
  json: boolean,
  error: unknown,
): Promise<number> {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    const body: Record<string, unknown> = { code, message };
    if (error instanceof PatchRefusedError) body.problems = error.problems;
    await out(JSON.stringify({ ok: false, error: body }));
  } else {
    await err(message);
  }
  return exitOf(code);
}

/** Context-bound form of {@link reportError}. */
export function fail(ctx: CliContext, error: unknown): Promise<number> {
  return reportError(ctx.out, ctx.err, ctx.json, error);
}
