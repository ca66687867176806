/**
 * The `hashline` command line: `deno task hashline <command>` or
 * `deno run -A jsr:@hashline/kit/cli <command>`.
 *
 * Commands: `read`, `patch`, `write`, `store put|get|source|edit|export|import|history`,
 * `serve`, `mcp`. Common flags: `--root DIR`, `--session NAME`, `--json`.
 * Exit codes: 0 done, 1 refused, 2 bad usage.
 *
 * @example
 * ```ts ignore
 * // deno run -A jsr:@hashline/kit/cli read src/app.ts --offset 10 --limit 20
 * import { main } from "@hashline/kit/cli";
 * const code = await main(["read", "README.md", "--limit", "5"]);
 * ```
 *
 * @module
 */
import {
  exit,
  getArgs,
  isMainModule,
  writeStderr,
  writeStdout,
} from "../_runtime/env.ts";
import { EXIT_OK, makeContext, parseArgs, reportError } from "./_cli_common.ts";

/** Usage text printed by `--help` and on a usage error. */
export const USAGE: string =
  `hashline — anchored reads and all-or-nothing patches

Usage: hashline <command> [flags]

  read PATH [--offset N] [--limit N]      show lines as LINE:HH|content
  patch [FILE|-] [--dry-run]              apply a patch (JSON or text form)
  write PATH [FILE|-]                     create or replace a whole file
  store put FILE                          store a source, print ref and handle
  store get REF [--out FILE]              print (or write) a revision
  store source REF [--query Q] [--offset N] [--limit N]
  store edit REF --old TEXT --new TEXT [--replace-all]
  store export REF --out FILE             write a revision to a new file
  store import FILE                       same as put
  store history REF                       list a revision's ancestors
  serve [--host H] [--port P] [--token T] HTTP + MCP server (default 127.0.0.1:8787)
  mcp                                     MCP server on stdio

Flags: --root DIR (workspace, default the working folder), --session NAME
(default "default"), --json (one JSON document on stdout).
State and store live in .hashline/ under the working folder, or HASHLINE_STORE.
Exit codes: 0 done, 1 refused, 2 bad usage.`;

const COMMANDS =
  "Commands: read, patch, write, store, serve, mcp; run with --help for usage.";

/**
 * Runs one command and returns its exit code.
 *
 * @param args The arguments after the script name.
 * @returns 0 done, 1 refused, 2 bad usage.
 */
export async function main(args: string[]): Promise<number> {
  let json = args.includes("--json");
  const ctxForErrors = {
    out: (t: string) => writeStdout(t + "\n"),
    err: (t: string) => writeStderr(t + "\n"),
  };
  try {
    const parsed = parseArgs(args);
    json = parsed.flags.get("json") === true;
    const [command, ...rest] = parsed.positionals;
    if (parsed.flags.get("help") === true || command === "help") {
      await ctxForErrors.out(USAGE);
      return EXIT_OK;
    }
    const ctx = makeContext({ positionals: rest, flags: parsed.flags });
    switch (command) {
      case "read":
      case "patch":
      case "write": {
        const { runFilesCommand } = await import("./_cli_files.ts");
        return await runFilesCommand(command, ctx);
      }
      case "store": {
        const { runStoreCommand } = await import("./_cli_store.ts");
        return await runStoreCommand(ctx);
      }
      case "serve":
      case "mcp": {
        const { runServeCommand } = await import("./_cli_serve.ts");
        return await runServeCommand(command, ctx);
      }
      case undefined:
        throw new TypeError(`No command given. ${COMMANDS}`);
      default:
        throw new TypeError(`Unknown command "${command}". ${COMMANDS}`);
    }
  } catch (error) {
    return await reportError({ ...ctxForErrors, json }, error);
  }
}

if (isMainModule(import.meta)) {
  exit(await main(getArgs()));
}
