/**
 * MCP over streamable HTTP, as a Web-standard handler (the app mounts it at
 * `/mcp`), for both protocol eras (docs/mcp.md "Eras"): a 2026-07-28 request
 * (no `initialize`, no `Mcp-Session-Id`) is served by a server made for that
 * request and counts in the `Hashline-Session` header's session, else in the
 * default session; a 2025-era client starts a session with `initialize`, and
 * each such MCP session is its own hashline session unless a
 * `Hashline-Session` header names one. A session the transport made is
 * known (in history and results) only by a one-way label (`mcp-3f2a9c1d`),
 * never by its `Mcp-Session-Id`, and a header of the label form is refused,
 * so no client can take another's session. A session's read records are freed
 * when it ends (`DELETE`), is evicted (past `maxSessions`) or expires (idle
 * past `sessionTtlMs`).
 *
 * @module
 */
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import {
  checkClientSession,
  mintSessionLabel,
  releaseSessionLabel,
} from "../_internal/session.ts";
import type { ToolRegistry } from "../tools/types.ts";
import {
  mcpServer,
  MODERN_PROTOCOL_VERSION,
  type SessionResolver,
} from "./_server.ts";
import { notes } from "./_session_notes.ts";

/** The header that names the hashline session of MCP calls. */
export const MCP_SESSION_HEADER = "hashline-session";

/** Options of the streamable HTTP endpoint. */
export interface McpHttpOptions {
  /** Most sessions kept at once; the least recently used is ended first (default 1000). */
  maxSessions?: number;
  /** A session idle this long (milliseconds) is ended on the next request (default 30 minutes). */
  sessionTtlMs?: number;
  /** Largest request body in bytes when the handler reads the body itself (default 8 MiB). */
  maxBodyBytes?: number;
  /** The clock, in milliseconds (default `Date.now`); tests pass their own. */
  now?: () => number;
  /**
   * The session of a request that names none and belongs to no 2025-era
   * MCP session (a 2026-07-28 request): default `"default"`.
   */
  defaultSession?: string;
  /**
   * The session of every call whose request names none (`serve --session`),
   * 2025-era MCP sessions included; absent, each of those is its own.
   */
  session?: string;
  /**
   * The tools serving named sessions and the default session, whose read
   * records outlive this process (default: the registry given). The
   * registry given then serves only the 2025-era MCP sessions' own.
   */
  shared?: ToolRegistry;
}

/** The MCP streamable HTTP endpoint as a Web-standard handler. */
export interface McpHttpHandler {
  /**
   * Answers a `POST` (JSON-RPC messages) or `DELETE` (end session). A caller
   * that has already parsed the JSON body passes it as `parsedBody`.
   */
  fetch(request: Request, parsedBody?: unknown): Promise<Response>;
  /** Number of open sessions. */
  readonly sessions: number;
  /** Ends every session and frees their read records. */
  close(): Promise<void>;
}

interface Live {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** The hashline session of this MCP session: its one-way label. */
  label: string;
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    { status, headers: { "content-type": "application/json" } },
  );
}

function positive(name: string, value: number | undefined, fallback: number) {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new TypeError(`${name} must be a whole number ≥ 1, got ${v}.`);
  }
  return v;
}

/**
 * The hashline session of a call: the header's name, else the 2025-era MCP
 * session's label, else (a 2026-07-28 request) the default session.
 */
function resolverOf(
  labels: Map<string, Live>,
  own: ToolRegistry,
  shared: ToolRegistry,
  defaultSession: string,
  fixed: string | undefined,
): SessionResolver {
  return ({ sessionId, request }) => {
    const named = request?.headers.get(MCP_SESSION_HEADER) || fixed;
    if (typeof named === "string" && named !== "") {
      return { session: named, registry: shared, note: notes.named(named) };
    }
    if (sessionId === undefined) {
      return {
        session: defaultSession,
        registry: shared,
        note: notes.httpDefault(defaultSession),
      };
    }
    const live = labels.get(sessionId);
    if (!live) {
      throw new Error(
        "This MCP session is not known any more: send initialize again.",
      );
    }
    return {
      session: live.label,
      registry: own,
      note: notes.httpSession(live.label),
    };
  };
}

async function readBody(
  request: Request,
  maxBytes: number,
): Promise<unknown | Response> {
  const tooLarge = () =>
    rpcError(
      413,
      -32600,
      `Request body is over the limit of ${maxBytes} bytes.`,
    );
  // Counted while it streams: a chunked body past the limit is never held whole.
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) return tooLarge();
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    );
  } catch {
    return rpcError(
      400,
      -32700,
      "Parse error: the request body is not valid UTF-8 JSON.",
    );
  }
}

/**
 * Creates the MCP streamable HTTP endpoint over a registry. A client starts
 * with `initialize` (no `Mcp-Session-Id`), gets a session id, and sends it on
 * every later request; answers are JSON (no server-sent event streams, so it
 * also runs where streams are cut short).
 *
 * @param registry The tools to serve.
 * @param options Session bound, idle expiry, body limit.
 * @returns The handler.
 * @throws {TypeError} A bound that is not a whole number ≥ 1.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "../store/memory_store.ts";
 * import { createToolRegistry } from "../tools/registry.ts";
 * import { createMcpHttpHandler } from "./http.ts";
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
  const maxSessions = positive("maxSessions", options.maxSessions, 1000);
  const ttl = positive("sessionTtlMs", options.sessionTtlMs, 30 * 60_000);
  const maxBody = positive("maxBodyBytes", options.maxBodyBytes, 8 << 20);
  const now = options.now ?? Date.now;
  const defaultSession = checkClientSession(
    options.defaultSession ?? "default",
    "defaultSession",
  );
  // Insertion order is recency order: a session is moved to the end on use.
  const sessions = new Map<string, Live>();
  const sessionFor = resolverOf(
    sessions,
    registry,
    options.shared ?? registry,
    defaultSession,
    options.session === undefined
      ? undefined
      : checkClientSession(options.session, "session"),
  );
  // 2026-07-28 requests: one server per request, nothing kept between them;
  // 2025-era requests are routed to the sessions below before reaching it.
  const modern = createMcpHandler(() => mcpServer(registry, sessionFor), {
    legacy: "reject",
    maxRequestBodySize: maxBody,
  });

  const forget = async (live: Live): Promise<void> => {
    await registry.endSession(live.label).catch(() => {});
    releaseSessionLabel(live.label);
  };

  const end = async (id: string): Promise<void> => {
    const live = sessions.get(id);
    if (!live) return;
    sessions.delete(id);
    await live.transport.close().catch(() => {});
    await forget(live);
  };

  const sweep = async (): Promise<void> => {
    const stale: string[] = [];
    const cutoff = now() - ttl;
    for (const [id, live] of sessions) {
      if (
        live.lastSeen > cutoff && sessions.size - stale.length <= maxSessions
      ) {
        break;
      }
      stale.push(id);
    }
    await Promise.all(stale.map(end));
  };

  const refuseHeader = (request: Request): Response | null => {
    const named = request.headers.get(MCP_SESSION_HEADER);
    if (named === null || named === "") return null;
    try {
      checkClientSession(named, 'Header "Hashline-Session"');
      return null;
    } catch (error) {
      return rpcError(400, -32600, `BAD_INPUT: ${(error as Error).message}`);
    }
  };

  return {
    get sessions() {
      return sessions.size;
    },
    async fetch(request: Request, parsedBody?: unknown): Promise<Response> {
      await sweep();
      const method = request.method;
      if (method !== "POST" && method !== "DELETE") {
        const res = rpcError(
          405,
          -32000,
          "Method not allowed: use POST (or DELETE to end a session).",
        );
        res.headers.set("allow", "POST, DELETE");
        return res;
      }
      const bad = refuseHeader(request);
      if (bad) return bad;
      let body: unknown;
      if (method === "POST") {
        body = parsedBody ?? await readBody(request, maxBody);
        if (body instanceof Response) return body;
        // A 2026-07-28 request (its `_meta` claims the revision) needs no session.
        const legacy = await isLegacyRequest(request, body, {
          maxRequestBodySize: maxBody,
        });
        if (!legacy) return await modern.fetch(request, { parsedBody: body });
      }
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const live = sessions.get(id);
        if (!live) {
          return rpcError(
            404,
            -32001,
            "Session not found: it ended, expired or this server restarted. Send initialize again.",
          );
        }
        live.lastSeen = now();
        sessions.delete(id);
        sessions.set(id, live);
        if (method === "DELETE") {
          return await live.transport.handleRequest(request);
        }
        return await live.transport.handleRequest(request, {
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
      const messages = Array.isArray(body) ? body : [body];
      if (!messages.some((m) => isInitializeRequest(m))) {
        return rpcError(
          400,
          -32000,
          `Bad request: no Mcp-Session-Id header. Start a session with initialize and send the Mcp-Session-Id it returns, or speak protocol ${MODERN_PROTOCOL_VERSION} (its \`_meta\` on every request), which needs no session.`,
        );
      }
      // JSON answers: no stream to carry a tool's question to the client.
      const server = mcpServer(registry, sessionFor, false);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: async (sid) => {
          const label = await mintSessionLabel(sid);
          sessions.set(sid, { transport, server, lastSeen: now(), label });
          await sweep();
        },
        onsessionclosed: async (sid) => {
          // The transport closes itself after this; only the records are left.
          const live = sessions.get(sid);
          if (live && sessions.delete(sid)) await forget(live);
        },
      });
      await server.connect(transport);
      return await transport.handleRequest(request, { parsedBody: body });
    },
    async close(): Promise<void> {
      await Promise.all([...sessions.keys()].map(end));
      await modern.close();
    },
  };
}
