/**
 * One MCP server over the tool registry: `tools/list` with titles,
 * annotations and input and output schemas; `tools/call` answering the text
 * beside `structuredContent`, refusals as `isError` results, and an unknown
 * tool as a JSON-RPC error.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../tools/types.ts";

/** Name and version the server announces to MCP clients. */
export const MCP_SERVER_INFO: { name: string; version: string } = {
  name: "hashline",
  version: "0.1.0",
};

/** Which hashline session a call counts for, from what the transport knows of it. */
export type SessionResolver = (
  extra: {
    sessionId?: string;
    requestInfo?: { headers: Record<string, string | string[] | undefined> };
  },
) => string;

type ObjectSchema = { type: "object"; [key: string]: unknown };

/**
 * Builds one MCP server (one per connection or HTTP session).
 *
 * @param registry The tools.
 * @param sessionFor The hashline session of each call.
 */
export function mcpServer(
  registry: ToolRegistry,
  sessionFor: SessionResolver,
): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: registry.systemPrompt || undefined,
  });
  const listed = registry.tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as ObjectSchema,
    outputSchema: t.outputSchema as ObjectSchema,
    annotations: { title: t.title, ...t.annotations },
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!registry.get(name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `No tool named "${name}". Available tools: ${
          registry.tools.map((t) => t.name).join(", ") || "none"
        }.`,
      );
    }
    const result = await registry.call(name, request.params.arguments ?? {}, {
      session: sessionFor(extra),
    });
    if (result.ok) {
      return {
        content: [{ type: "text" as const, text: result.text }],
        structuredContent: result.data,
      };
    }
    return {
      content: [{ type: "text" as const, text: result.error.message }],
      isError: true,
    };
  });
  return server;
}
