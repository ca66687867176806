/**
 * One MCP server over the tool registry, for both protocol eras (2025-era
 * sessions and 2026-07-28 requests): `tools/list` with titles, annotations
 * and input and output schemas (cacheable under 2026-07-28, see
 * docs/mcp.md "Eras"); `tools/call` answering the text beside
 * `structuredContent`, refusals as `isError` results that carry the
 * refusal's code, and an unknown tool as a JSON-RPC error; the `hashline`
 * prompt and (no) resources.
 *
 * @module
 */
import {
  type ListToolsResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/server";
import type { ToolRegistry, ToolResult } from "../tools/types.ts";
import { withRefusal } from "./_refusal_schema.ts";
import {
  extraCapabilities,
  servePromptAndResources,
} from "./_prompt_and_resources.ts";
import {
  cannotAskOf,
  declaredCapabilities,
  questionOf,
  requireCapabilities,
  toolClient,
} from "./_tool_client.ts";

/** Name and version the server announces to MCP clients. */
export const MCP_SERVER_INFO: { name: string; version: string } = {
  name: "hashline",
  version: "0.1.0",
};

/** The stateless protocol revision served beside the 2025-era ones. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * How long a client may keep the tool list (`ttlMs` of `tools/list` under
 * 2026-07-28): the list is fixed for the life of a server.
 */
export const TOOLS_LIST_TTL_MS = 60 * 60_000;

/** The hashline session a call counts in, and how it came to be that one. */
export interface SessionChoice {
  /** The session's name (or a transport session's one-way label). */
  session: string;
  /** The tools that serve it (records in memory or in the state folder). */
  registry: ToolRegistry;
  /**
   * A sentence added to a `NOT_READ` refusal: which session the request
   * counted in and how to name one.
   */
  note: string;
}

/** Which hashline session a call counts in, from what the transport knows of it. */
export type SessionResolver = (call: {
  /** The transport's session id (2025-era HTTP sessions). */
  sessionId?: string;
  /** The HTTP request that carried the call. */
  request?: Request;
}) => SessionChoice;

type ObjectSchema = { type: "object"; [key: string]: unknown };

/** The answer of one call: text, and the structured result or refusal. */
function toCallResult(result: ToolResult, note: string) {
  if (result.ok) {
    return {
      content: [{ type: "text" as const, text: result.text }],
      structuredContent: result.data,
    };
  }
  const { code, problems } = result.error;
  const notRead = code === "NOT_READ" ||
    problems?.some((p) => p.code === "NOT_READ") === true;
  const message = notRead && note
    ? `${result.error.message} ${note}`
    : result.error.message;
  return {
    content: [{ type: "text" as const, text: message }],
    // The code in structured form, so a program need not parse the text.
    structuredContent: {
      ok: false,
      error: { code, message, ...(problems ? { problems } : {}) },
    },
    isError: true,
  };
}

/**
 * Builds one MCP server (one per connection, HTTP session or 2026-07-28
 * request).
 *
 * @param registry The tools listed.
 * @param sessionFor The hashline session of each call, and the tools serving it.
 * @param streams Whether the connection can carry requests to the client
 *   (a tool's questions); false for 2025-era HTTP sessions, answered in JSON.
 * @returns The server, not yet connected.
 */
export function mcpServer(
  registry: ToolRegistry,
  sessionFor: SessionResolver,
  streams = true,
): Server {
  const server = new Server(MCP_SERVER_INFO, {
    // `logging`: a tool may log to a client that asked for it (docs/mcp.md
    // "Tools of your own"); nothing is sent to one that did not.
    capabilities: { tools: {}, logging: {}, ...extraCapabilities(registry) },
    instructions: registry.systemPrompt || undefined,
    supportedProtocolVersions: [
      ...SUPPORTED_PROTOCOL_VERSIONS,
      MODERN_PROTOCOL_VERSION,
    ],
    // Every list is fixed for the life of the server.
    cacheHints: {
      "tools/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "public" },
      "prompts/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "public" },
      "resources/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "public" },
      "resources/templates/list": {
        ttlMs: TOOLS_LIST_TTL_MS,
        cacheScope: "public",
      },
    },
  });
  const listed: ListToolsResult = {
    tools: registry.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as ObjectSchema,
      outputSchema: withRefusal(t.outputSchema) as ObjectSchema,
      annotations: { title: t.title, ...t.annotations },
    })),
  };
  server.setRequestHandler("tools/list", () => listed);
  servePromptAndResources(server, registry);
  server.setRequestHandler(
    "tools/call",
    async (request, ctx: ServerContext) => {
      const name = request.params.name;
      const tool = registry.get(name);
      if (!tool) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No tool named "${name}". Available tools: ${
            registry.tools.map((t) => t.name).join(", ") || "none"
          }.`,
        );
      }
      const declared = declaredCapabilities(server, ctx);
      requireCapabilities(tool, declared);
      const choice = sessionFor({
        sessionId: ctx.sessionId,
        request: ctx.http?.req,
      });
      try {
        const result = await choice.registry.call(
          name,
          request.params.arguments ?? {},
          {
            session: choice.session,
            client: toolClient(ctx, declared, streams),
          },
        );
        return toCallResult(result, choice.note);
      } catch (error) {
        const question = questionOf(error);
        if (question) return question;
        const refused = cannotAskOf(error);
        if (refused) return toCallResult(refused, "");
        throw error;
      }
    },
  );
  return server;
}
