/**
 * MCP servers over the tool registry: stdio (`hashline mcp`) and streamable
 * HTTP (mounted by the app at `/mcp`). Each MCP session is its own hashline
 * session, so one client's reads never let another client patch.
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
// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  isInitializeRequest,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { standardStreams } from "../_runtime/serve.ts";
import type { RevisionStore } from "../store/types.ts";
import { errorResponse, json, readBodyText } from "./_http.ts";
import { lazyResources } from "./_resources.ts";
import { buildRegistry } from "./_tool_defs.ts";
import type { EditFormat, ToolRegistry, Workspace } from "./tools.ts";

/** Name and version the server announces to MCP clients. */
export const MCP_SERVER_INFO: { name: string; version: string } = {
  name: "hashline",
  version: "0.1.0",
};

/**
 * Builds one MCP server (one per connection) answering `tools/list` and
 * `tools/call` from the registry; refusals come back as `isError` results
 * whose text is the refusal message.
 */
function mcpServer(registry: ToolRegistry, fallbackSession: string): Server {
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: registry.systemPrompt || undefined,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: registry.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema as { type: "object"; [key: string]: unknown },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const result = await registry.call(
      request.params.name,
      request.params.arguments ?? {},
      {
        session: extra.sessionId ?? fallbackSession,
      },
    );
    if (result.ok) {
      return { content: [{ type: "text" as const, text: result.text }] };
    }
    return {
      content: [{ type: "text" as const, text: result.error.message }],
      isError: true,
    };
  });
  return server;
}

/** Options of the streamable HTTP endpoint. */
export interface McpHttpOptions {
  /** Largest request body, in bytes (default 8 MiB). */
  maxBodyBytes?: number;
  /** Most sessions kept at once; the least recently used is closed first (default 1000). */
  maxSessions?: number;
}

/** The MCP streamable HTTP endpoint as a Web-standard handler. */
export interface McpHttpHandler {
  /** Answers a `POST` (JSON-RPC messages) or `DELETE` (end session) to the endpoint. */
  fetch(request: Request): Promise<Response>;
  /** Number of open sessions. */
  readonly sessions: number;
  /** Closes every session. */
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
}

function rpcError(status: number, code: number, message: string): Response {
  return json({ jsonrpc: "2.0", error: { code, message }, id: null }, status);
}

/**
 * Creates the MCP streamable HTTP endpoint over a registry. A client starts
 * with `initialize` (no `Mcp-Session-Id`), gets a session id, and sends it on
 * every later request; answers are JSON (no server-sent event streams, so it
 * also runs where streams are cut short).
 *
 * @param registry The tools to serve.
 * @param options Body limit and session bound.
 * @returns The handler.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "./tools.ts";
 * import { createMcpHttpHandler } from "./mcp.ts";
 * const mcp = createMcpHttpHandler(createToolRegistry({ store: createMemoryStore() }));
 * const res = await mcp.fetch(new Request("http://localhost/mcp", {
 *   method: "POST",
 *   headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
 *   body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {
 *     protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" },
 *   } }),
 * }));
 * assert.equal(res.status, 200);
 * assert.ok(res.headers.get("mcp-session-id"));
 * await mcp.close();
 * ```
 */
export function createMcpHttpHandler(
  registry: ToolRegistry,
  options: McpHttpOptions = {},
): McpHttpHandler {
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const maxSessions = options.maxSessions ?? 1000;
  const sessions = new Map<string, Session>();

  const evict = async (): Promise<void> => {
    while (sessions.size > maxSessions) {
      const [id, oldest] = sessions.entries().next().value as [string, Session];
      sessions.delete(id);
      await oldest.transport.close().catch(() => {});
    }
  };

  const readMessages = async (
    request: Request,
  ): Promise<unknown | Response> => {
    let text: string;
    try {
      text = await readBodyText(request, maxBody);
    } catch (error) {
      return errorResponse(error);
    }
    try {
      return JSON.parse(text);
    } catch {
      return rpcError(
        400,
        -32700,
        "Parse error: the request body is not valid JSON.",
      );
    }
  };

  return {
    get sessions() {
      return sessions.size;
    },
    async fetch(request: Request): Promise<Response> {
      const method = request.method;
      if (method !== "POST" && method !== "DELETE") {
        return new Response(
          JSON.stringify({
            jsonrpc: "2.0",
            error: {
              code: -32000,
              message:
                "Method not allowed: use POST (or DELETE to end a session).",
            },
            id: null,
          }),
          {
            status: 405,
            headers: {
              allow: "POST, DELETE",
              "content-type": "application/json",
            },
          },
        );
      }
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const session = sessions.get(id);
        if (!session) {
          return rpcError(
            404,
            -32001,
            "Session not found: it ended or this server restarted. Send initialize again.",
          );
        }
        sessions.delete(id);
        sessions.set(id, session);
        if (method === "DELETE") {
          return await session.transport.handleRequest(request);
        }
        const body = await readMessages(request);
        if (body instanceof Response) return body;
        return await session.transport.handleRequest(request, {
          parsedBody: body,
        });
      }
      if (method === "DELETE") {
        return rpcError(
          400,
          -32000,
          "Bad request: DELETE needs the Mcp-Session-Id header.",
        );
      }
      const body = await readMessages(request);
      if (body instanceof Response) return body;
      const messages = Array.isArray(body) ? body : [body];
      if (!messages.some((m) => isInitializeRequest(m))) {
        return rpcError(
          400,
          -32000,
          "Bad request: no Mcp-Session-Id header. Start a session with initialize, then send the Mcp-Session-Id it returns.",
        );
      }
      const server = mcpServer(registry, "default");
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: async (sid) => {
          sessions.set(sid, { transport, server });
          await evict();
        },
        onsessionclosed: (sid) => {
          sessions.delete(sid);
        },
      });
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    },
    async close(): Promise<void> {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.server.close().catch(() => {})));
    },
  };
}

/** Options of the stdio server. */
export interface McpStdioOptions {
  /** Tools to serve; when absent they are built from the fields below. */
  registry?: ToolRegistry;
  /** Workspace root (default: the working folder). */
  root?: string;
  /** Files on disk (default: opened from `root`). */
  workspace?: Workspace;
  /** Revision store (default: a file store in `stateDir`). */
  store?: RevisionStore;
  /** State folder (default `HASHLINE_STORE` or `.hashline/`). */
  stateDir?: string;
  /** Edit format (default `"hashline"`). */
  editFormat?: EditFormat;
  /** Hashline session of this connection (default `"default"`). */
  session?: string;
}

/** A running stdio server. */
export interface McpStdioServer {
  /** Resolves when the client closes standard input or the server is closed. */
  closed: Promise<void>;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves the tools as an MCP server on standard input and output. Nothing
 * else may write to standard output while it runs.
 *
 * @param options Registry, or workspace/store settings to build one.
 * @returns The running server.
 * @example
 * ```ts ignore
 * import { runMcpStdio } from "./mcp.ts";
 * const server = await runMcpStdio({ root: ".", editFormat: "str_replace" });
 * await server.closed;
 * ```
 */
export async function runMcpStdio(
  options: McpStdioOptions = {},
): Promise<McpStdioServer> {
  const session = options.session ?? "default";
  let registry = options.registry;
  if (!registry) {
    const resources = lazyResources(options);
    registry = buildRegistry(
      { workspace: resources.workspace, store: resources.store },
      { editFormat: options.editFormat ?? "hashline", session },
    );
  }
  const { stdin, stdout } = standardStreams();
  const server = mcpServer(registry, session);
  const transport = new StdioServerTransport(stdin, stdout);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const finish = () => done();
  stdin.once("end", finish);
  stdin.once("close", finish);
  server.onclose = finish;
  await server.connect(transport);
  return {
    closed,
    async close() {
      await server.close();
      finish();
    },
  };
}
