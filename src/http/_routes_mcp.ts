/**
 * `POST /mcp` and `DELETE /mcp`: MCP over streamable HTTP, loaded on first
 * use so the app starts without the MCP SDK.
 *
 * @module
 */
import { Hono } from "hono";
import type { McpHttpHandler, McpHttpOptions } from "../mcp/http.ts";
import { loadOptional } from "../_internal/optional.ts";
import type { ToolRegistry } from "../tools/types.ts";
import type { HttpEnv } from "./_env.ts";
import { sessionOf } from "./_session.ts";
import { jsonBody } from "./middleware/json_body.ts";

/** The MCP router and its handler, once loaded. */
export interface McpRoutes {
  routes: Hono<HttpEnv>;
  /** The handler, when a request has loaded it. */
  handler(): Promise<McpHttpHandler> | undefined;
}

/** The MCP router over a registry. */
export function mcpRoutes(
  registry: ToolRegistry,
  options: McpHttpOptions,
): McpRoutes {
  let mcp: Promise<McpHttpHandler> | undefined;
  const load = (): Promise<McpHttpHandler> => {
    mcp ??= loadOptional(
      "@modelcontextprotocol/server",
      "MCP over HTTP (POST /mcp)",
      () => import("../mcp/http.ts"),
    ).then((m) => m.createMcpHttpHandler(registry, options));
    mcp.catch(() => (mcp = undefined));
    return mcp;
  };
  const routes = new Hono<HttpEnv>();
  routes.post("/mcp", jsonBody(), async (c) => {
    // A malformed session header is refused here, before any MCP message is handled.
    sessionOf(c.req.raw, undefined);
    return await (await load()).fetch(c.req.raw, c.var.body);
  });
  routes.delete("/mcp", async (c) => await (await load()).fetch(c.req.raw));
  return { routes, handler: () => mcp };
}
