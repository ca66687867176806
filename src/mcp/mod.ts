/**
 * MCP servers over the tool registry: stdio (`hashline mcp`) and streamable
 * HTTP (mounted by the app at `/mcp`). Tools carry titles, annotations and
 * output schemas, and answer `structuredContent` beside the text.
 *
 * @example
 * ```ts ignore
 * // A stdio server over the working folder, as `hashline mcp` runs it.
 * import { runMcpStdio } from "@hashline/kit/mcp";
 * const server = await runMcpStdio({ root: "." });
 * await server.closed;
 * ```
 *
 * @module
 */
export { MCP_SERVER_INFO } from "./_server.ts";
export {
  createMcpHttpHandler,
  MCP_SESSION_HEADER,
  type McpHttpHandler,
  type McpHttpOptions,
} from "./http.ts";
export {
  type McpStdioOptions,
  type McpStdioServer,
  runMcpStdio,
} from "./stdio.ts";
