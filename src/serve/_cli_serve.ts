/**
 * `hashline serve` (HTTP + MCP over streamable HTTP) and `hashline mcp`
 * (MCP over stdio), over the workspace root and the file store in the state
 * folder.
 *
 * @module
 */
import { getEnv, onShutdown } from "../_runtime/env.ts";
import { openFileStore } from "../store/file_store.ts";
import { openWorkspace } from "../workspace/workspace.ts";
import {
  type CliContext,
  EXIT_OK,
  intFlag,
  reportError,
  stringFlag,
} from "./_cli_common.ts";
import { runMcpStdio } from "./mcp.ts";
import { DEFAULT_PORT, startServer } from "./server.ts";
import type { EditFormat } from "./tools.ts";

const FLAGS: Record<"serve" | "mcp", Set<string>> = {
  serve: new Set([
    "host",
    "port",
    "token",
    "edit-format",
    "root",
    "session",
    "json",
  ]),
  mcp: new Set(["edit-format", "root", "session", "json"]),
};

function editFormatFlag(ctx: CliContext): EditFormat {
  const value = stringFlag(ctx.flags, "edit-format") ?? "hashline";
  if (value !== "hashline" && value !== "str_replace") {
    throw new TypeError(
      `Flag --edit-format must be "hashline" or "str_replace", got "${value}".`,
    );
  }
  return value;
}

/**
 * Runs `serve [--host H] [--port P] [--token T] [--edit-format F]` until
 * SIGINT/SIGTERM, or `mcp [--edit-format F]` until the client closes
 * standard input. The token may also come from `HASHLINE_TOKEN`, which keeps
 * it out of the process list.
 *
 * @param command `"serve"` or `"mcp"`.
 * @param ctx The command's context (root, session, state folder, flags).
 * @returns 0 after a clean stop, 1 when refused (root missing, port taken), 2 bad usage.
 * @example
 * ```ts ignore
 * import { makeContext, parseArgs } from "./_cli_common.ts";
 * import { runServeCommand } from "./_cli_serve.ts";
 * const ctx = makeContext(parseArgs(["--port", "0"]));
 * await runServeCommand("serve", ctx); // runs until SIGINT
 * ```
 */
export async function runServeCommand(
  command: "serve" | "mcp",
  ctx: CliContext,
): Promise<number> {
  try {
    if (ctx.positionals.length > 0) {
      throw new TypeError(
        `${command} takes no arguments, got "${ctx.positionals[0]}". Usage: ${
          command === "serve"
            ? "serve [--host H] [--port P] [--token T]"
            : "mcp"
        }.`,
      );
    }
    for (const name of ctx.flags.keys()) {
      if (!FLAGS[command].has(name)) {
        throw new TypeError(`Unknown flag --${name} for ${command}.`);
      }
    }
    const editFormat = editFormatFlag(ctx);
    // Opening the workspace first reports a missing root before anything is served.
    const workspace = openWorkspace(ctx.root, {
      stateDir: ctx.stateDir,
      session: ctx.session,
    });
    if (command === "mcp") {
      const store = openFileStore(ctx.stateDir);
      const server = await runMcpStdio({
        workspace,
        store,
        editFormat,
        session: ctx.session,
      });
      onShutdown(() => void server.close());
      await server.closed;
      await store.close();
      return EXIT_OK;
    }
    const host = stringFlag(ctx.flags, "host") ?? "127.0.0.1";
    const port = intFlag(ctx.flags, "port", 0) ?? DEFAULT_PORT;
    const token = stringFlag(ctx.flags, "token") ??
      (getEnv("HASHLINE_TOKEN") || undefined);
    const store = openFileStore(ctx.stateDir);
    const server = await startServer({
      host,
      port,
      token,
      root: workspace.root,
      stateDir: ctx.stateDir,
      store,
      editFormat,
      session: ctx.session,
    });
    const stopped = new Promise<void>((resolve) => onShutdown(resolve));
    if (ctx.json) {
      await ctx.out(JSON.stringify({
        ok: true,
        url: server.url,
        host: server.host,
        port: server.port,
        root: workspace.root,
        store: ctx.stateDir,
        mcp: `${server.url}/mcp`,
      }));
    } else {
      await ctx.out(
        `hashline listening on ${server.url}\nworkspace: ${workspace.root}\nstore: ${ctx.stateDir}\nMCP: ${server.url}/mcp${
          token ? "\nbearer token required (except /health)" : ""
        }`,
      );
    }
    await stopped;
    await server.close();
    await store.close();
    if (!ctx.json) await ctx.err("hashline stopped");
    return EXIT_OK;
  } catch (error) {
    return await reportError(ctx, error);
  }
}
