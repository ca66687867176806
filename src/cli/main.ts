/**
 * The `hashline` command line: `bin/hashline <command>`,
 * `deno run -A src/cli/main.ts <command>` in a checkout, or
 * `deno run -A jsr:@hashline/kit/cli <command>`.
 *
 * Commands: `read`, `patch`, `write`,
 * `store put|import|read|get|source|edit|patch|export|history|resolve`,
 * `serve`, `mcp`; `hashline --help` lists them and `hashline COMMAND --help`
 * shows one. Common flags, before or after the command: `--root DIR`,
 * `--session NAME`, `--json`. Exit codes: 0 done, 1 refused, 2 bad usage.
 * Each command family is loaded only when one of its commands runs, so
 * `read` never loads the store, the HTTP server or the MCP SDK.
 *
 * @example
 * ```ts ignore
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
import { lazy } from "../_internal/lazy.ts";
import { parseCommandLine } from "./_args.ts";
import {
  type CliContext,
  type CliIo,
  EXIT_OK,
  makeContext,
  reportError,
} from "./_context.ts";
import type { CommandFamily } from "./_table.ts";

export type { CliIo };

// Start-up builds the module graph of the one family a command runs, not of
// all four (the store, the server and the MCP SDK among them).
const FAMILIES: {
  [K in CommandFamily]: () => Promise<
    { run(ctx: CliContext): Promise<number> }
  >;
} = {
  files: lazy<typeof import("./_files.ts")>(import.meta.url, "./_files.ts"),
  store: lazy<typeof import("./_store.ts")>(import.meta.url, "./_store.ts"),
  serve: lazy<typeof import("./_serve.ts")>(import.meta.url, "./_serve.ts"),
  history: lazy<typeof import("./_history.ts")>(
    import.meta.url,
    "./_history.ts",
  ),
};

// A literal import would have Deno build the checker's graph for every
// command; only a patch or a write warms it.
const loadEngine = lazy<typeof import("../check/_engine.ts")>(
  import.meta.url,
  "../check/_engine.ts",
);

/**
 * Runs one command line and gives its exit code.
 *
 * @param args The arguments after the program name.
 * @param io Working folder, environment and standard streams (default the process's own).
 * @returns 0 done, 1 refused (stale, conflict, not read, not found), 2 bad usage.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { main } from "./main.ts";
 *
 * let printed = "";
 * const code = await main(["--version"], {
 *   stdout: (text) => Promise.resolve(void (printed += text)),
 * });
 * assert.equal(code, 0);
 * assert.match(printed, /^hashline \d+\.\d+\.\d+\n$/);
 * ```
 */
export async function main(args: string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? writeStdout;
  const stderr = io.stderr ?? writeStderr;
  const out = (t: string) => stdout(t.endsWith("\n") ? t : t + "\n");
  const err = (t: string) => stderr(t.endsWith("\n") ? t : t + "\n");
  let json = args.includes("--json");
  try {
    const parsed = parseCommandLine(args);
    json = parsed.json;
    if (parsed.kind === "version") {
      const { VERSION } = await import("./_version.ts");
      await out(
        json
          ? JSON.stringify({ ok: true, version: VERSION })
          : `hashline ${VERSION}`,
      );
      return EXIT_OK;
    }
    if (parsed.kind === "help") {
      const { helpText } = await import("./_help.ts");
      const text = helpText(parsed.topic);
      await out(json ? JSON.stringify({ ok: true, help: text }) : text);
      return EXIT_OK;
    }
    // An edit's check needs web-tree-sitter: it loads (its Wasm compiles in
    // the background) while the command's own modules do.
    if (
      (parsed.spec.name === "patch" || parsed.spec.name === "write") &&
      parsed.values.check !== "off"
    ) {
      loadEngine().then((m) => m.warmRuntime(), () => {});
    }
    const family = await FAMILIES[parsed.spec.family]();
    const ctx = makeContext(parsed, io);
    if (ctx.foundRoot) {
      await ctx.err(
        `hashline: root ${ctx.root} (the nearest folder up holding .hashline/; --root chooses another)`,
      );
    }
    return await family.run(ctx);
  } catch (error) {
    return await reportError(out, err, json, error);
  }
}

if (isMainModule(import.meta)) {
  exit(await main(getArgs()));
}
