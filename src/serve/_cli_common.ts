/**
 * What every CLI command receives: parsed flags, output helpers, and the
 * state folder. Commands return an exit code: 0 done, 1 refused (stale,
 * conflict, not found), 2 bad usage.
 *
 * @module
 */
import { join } from "node:path";
import {
  cwd,
  getEnv,
  readStdin,
  writeStderr,
  writeStdout,
} from "../_runtime/env.ts";
import { readFile } from "../_runtime/fs.ts";
import { HashlineError, PatchRefusedError } from "../errors.ts";

/** Exit code: the command did what was asked. */
export const EXIT_OK = 0;
/** Exit code: refused (stale anchor, conflict, not read, not found, integrity). */
export const EXIT_REFUSED = 1;
/** Exit code: bad usage (unknown command or flag, malformed input). */
export const EXIT_USAGE = 2;

/** Parsed command line: positionals and `--flag value` / `--flag=value` / boolean flags. */
export interface ParsedArgs {
  /** Words that are not flags, in order (the command words first). */
  positionals: string[];
  /** Flag values by name without dashes; boolean flags map to `true`. */
  flags: Map<string, string | true>;
}

/** Flags that never take a value. */
const BOOLEAN_FLAGS = new Set(["json", "dry-run", "help", "replace-all"]);

/**
 * Splits arguments into positionals and flags; flags may come before or after
 * the command. A lone `-` is a positional (standard input).
 *
 * @param args Raw arguments.
 * @returns The parsed positionals and flags.
 * @throws {TypeError} When a flag that needs a value has none.
 */
export function parseArgs(args: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--") && a.length > 2) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a.slice(2) : a.slice(2, eq);
      if (eq !== -1) flags.set(name, a.slice(eq + 1));
      else if (BOOLEAN_FLAGS.has(name)) flags.set(name, true);
      else if (i + 1 < args.length) flags.set(name, args[++i]);
      else throw new TypeError(`Flag --${name} needs a value.`);
    } else {
      positionals.push(a);
    }
  }
  return { positionals, flags };
}

/** Everything a command needs. */
export interface CliContext {
  /** Command words after the command name(s), e.g. the PATH of `read PATH`. */
  positionals: string[];
  /** All flags. */
  flags: Map<string, string | true>;
  /** `--json` was given: print one JSON document. */
  json: boolean;
  /** Workspace root (`--root`, default the working folder). */
  root: string;
  /** Session name (`--session`, default `default`). */
  session: string;
  /** State folder: `HASHLINE_STORE` or `.hashline/` under the working folder. */
  stateDir: string;
  /** Prints to standard output. */
  out(text: string): Promise<void>;
  /** Prints to standard error. */
  err(text: string): Promise<void>;
}

/**
 * Builds the context for a command from parsed arguments.
 *
 * @param parsed Parsed arguments with the command words already removed from `positionals`.
 * @returns The context.
 */
export function makeContext(parsed: ParsedArgs): CliContext {
  const root = stringFlag(parsed.flags, "root") ?? cwd();
  return {
    positionals: parsed.positionals,
    flags: parsed.flags,
    json: parsed.flags.get("json") === true,
    root,
    session: stringFlag(parsed.flags, "session") ?? "default",
    stateDir: stateDir(),
    out: (text) => writeStdout(text.endsWith("\n") ? text : text + "\n"),
    err: (text) => writeStderr(text.endsWith("\n") ? text : text + "\n"),
  };
}

/**
 * The state folder: `HASHLINE_STORE` when set, otherwise `.hashline/` under
 * the working folder.
 *
 * @returns An absolute or working-folder-relative path.
 */
export function stateDir(): string {
  return getEnv("HASHLINE_STORE") || join(cwd(), ".hashline");
}

/**
 * Reads a string flag.
 *
 * @throws {TypeError} When the flag was given without a value.
 */
export function stringFlag(
  flags: Map<string, string | true>,
  name: string,
): string | undefined {
  const v = flags.get(name);
  if (v === true) throw new TypeError(`Flag --${name} needs a value.`);
  return v;
}

/**
 * Reads a positive integer flag.
 *
 * @throws {TypeError} When the value is not a whole number ≥ min.
 */
export function intFlag(
  flags: Map<string, string | true>,
  name: string,
  min = 1,
): number | undefined {
  const v = stringFlag(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) {
    throw new TypeError(
      `Flag --${name} must be a whole number ≥ ${min}, got "${v}".`,
    );
  }
  return Number(v);
}

/**
 * Reads a named file, or standard input for `-` or no name, as UTF-8 text.
 *
 * @param name File path, `-`, or undefined.
 * @returns The text.
 */
export async function readInput(name: string | undefined): Promise<string> {
  const bytes = name === undefined || name === "-"
    ? await readStdin()
    : await readFile(name);
  return new TextDecoder().decode(bytes);
}

/**
 * Prints an error the way every command does and returns its exit code:
 * JSON `{ ok: false, error: { code, message, problems? } }` with `--json`,
 * the message on standard error otherwise.
 *
 * @param ctx The command's context.
 * @param error What was thrown.
 * @returns EXIT_USAGE for bad input, EXIT_REFUSED for refusals.
 */
export async function reportError(
  ctx: Pick<CliContext, "json" | "out" | "err">,
  error: unknown,
): Promise<number> {
  const usage = error instanceof TypeError || error instanceof RangeError ||
    error instanceof SyntaxError;
  const code = error instanceof HashlineError
    ? error.code
    : usage
    ? "BAD_INPUT"
    : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  if (ctx.json) {
    const body: Record<string, unknown> = { code, message };
    if (error instanceof PatchRefusedError) body.problems = error.problems;
    await ctx.out(JSON.stringify({ ok: false, error: body }));
  } else {
    await ctx.err(message);
  }
  return usage ? EXIT_USAGE : EXIT_REFUSED;
}
