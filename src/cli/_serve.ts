/**
 * `hashline serve` (HTTP + MCP over streamable HTTP) and `hashline mcp`
 * (MCP over stdio), over the workspace root and the file store in the state
 * folder. The server and the MCP SDK load only when their command runs.
 *
 * @module
 */
import { onShutdown } from "../_runtime/env.ts";
import { AddressInUseError } from "../_runtime/serve.ts";
import { loadOptional } from "../_internal/optional.ts";
import type { EditFormat, ToolSetName } from "../tools/mod.ts";
import { openFileStore } from "../store/file_store.ts";
import type { CheckMode } from "../check/mod.ts";
import { type CliContext, EXIT_OK, fail, printResult } from "./_context.ts";
import { commandWorkspace } from "./_workspace.ts";
import { intFlag, stringFlag } from "./_flags.ts";

function editFormat(ctx: CliContext): EditFormat {
  const value = stringFlag(ctx, "edit-format") ?? "hashline";
  if (value !== "hashline" && value !== "str_replace") {
    throw new TypeError(
      `flag --edit-format of ${ctx.spec.name} must be "hashline" or "str_replace", got "${value}"; see hashline ${ctx.spec.name} --help`,
    );
  }
  return value;
}

/** `--tools files,store` as a list; the registry names an unknown set. */
function toolSets(ctx: CliContext): ToolSetName[] | undefined {
  return stringFlag(ctx, "tools")?.split(",").map((s) => s.trim())
    .filter((s) => s !== "") as ToolSetName[] | undefined;
}

/**
 * Runs `serve` until SIGINT/SIGTERM, or `mcp` until the client closes
 * standard input. The token may also come from `HASHLINE_TOKEN`, which keeps
 * it out of the process list.
 *
 * @param ctx The command's context.
 * @returns 0 after a clean stop, 1 when refused (root missing, port taken), 2 bad usage.
 */
export async function run(ctx: CliContext): Promise<number> {
  try {
    const format = editFormat(ctx);
    const tools = toolSets(ctx);
    // Each stdio connection is its own session unless --session names one;
    // its reads then live in memory only and end with the connection.
    const named = ctx.values.session !== undefined;
    // Opening the workspace first reports a missing root before anything is served.
    const workspace = commandWorkspace(
      ctx,
      ctx.spec.name === "mcp" ? "mcp" : "http",
      ctx.spec.name !== "mcp" || named,
    );
    // What both servers take from the flags alike.
    const served = {
      editFormat: format,
      tools,
      // Named, every MCP call counts in it; else MCP sessions keep apart.
      session: named ? ctx.session : undefined,
      rebase: ctx.values.rebase === true,
      anchors: ctx.values.lean === true ? "lean" as const : undefined,
    };
    if (ctx.spec.name === "mcp") {
      const { runMcpStdio } = await loadOptional(
        "@modelcontextprotocol/server",
        "hashline mcp",
        () => import("../mcp/mod.ts"),
      );
      const store = openFileStore(ctx.stateDir);
      const server = await runMcpStdio({ workspace, store, ...served });
      onShutdown(() => void server.close());
      await server.closed;
      await store.close();
      return EXIT_OK;
    }
    const { DEFAULT_PORT, startServer } = await import("../http/server.ts");
    const host = stringFlag(ctx, "host") ?? "127.0.0.1";
    const port = intFlag(ctx, "port", 0) ?? DEFAULT_PORT;
    const token = stringFlag(ctx, "token") ??
      (ctx.env("HASHLINE_TOKEN") || undefined);
    const store = openFileStore(ctx.stateDir);
    const { newLoginKey } = await import("../http/_page_history.ts");
    const loginKey = token ? newLoginKey() : undefined;
    const server = await startServer({
      loginKey,
      host,
      port,
      token,
      root: workspace.root,
      stateDir: ctx.stateDir,
      deny: ctx.deny,
      check: ctx.values.check as CheckMode | undefined,
      store,
      ...served,
      allowedOrigins: stringFlag(ctx, "allow-origin")?.split(",").map((o) =>
        o.trim()
      ).filter((o) => o !== ""),
    });
    const stopped = new Promise<void>((resolve) => onShutdown(resolve));
    await printResult(
      ctx,
      {
        url: server.url,
        host: server.host,
        port: server.port,
        root: workspace.root,
        store: ctx.stateDir,
        mcp: `${server.url}/mcp`,
        session: ctx.session,
        // The review page: with a token, a one-time login link.
        review: loginKey
          ? `${server.url}/login?key=${loginKey}`
          : `${server.url}/`,
      },
      `hashline listening on ${server.url}\nworkspace: ${workspace.root}\nstore: ${ctx.stateDir}\nMCP: ${server.url}/mcp\nsession: ${ctx.session} (${
        named
          ? "--session: every request without a Hashline-Session header"
          : "the default session: requests without a Hashline-Session header or an MCP session"
      })${token ? "\nbearer token required (except /health)" : ""}${
        loginKey
          ? `\nreview page (one-time login link): ${server.url}/login?key=${loginKey}`
          : `\nreview page: ${server.url}/`
      }`,
    );
    await stopped;
    await server.close();
    await store.close();
    if (!ctx.json) await ctx.err("hashline stopped");
    return EXIT_OK;
  } catch (error) {
    return await fail(ctx, explainPort(error));
  }
}

// The runtime's own words ("Address already in use (os error 98)") name
// neither the port nor the way out.
function explainPort(error: unknown): unknown {
  if (!(error instanceof AddressInUseError)) return error;
  return new Error(
    `Port ${error.port} is in use; pass --port N to serve on another one (--port 0 takes any free port).`,
    { cause: error },
  );
}
