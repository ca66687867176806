/**
 * The hashline HTTP app (Hono, Web-standard `fetch` only): stateless
 * `format`/`apply` routes for edge functions, workspace and revision-store
 * routes, and MCP over streamable HTTP at `/mcp`. Every answer is JSON
 * (`{ ok: true, … }` or `{ ok: false, error: { code, message } }`) except a
 * revision's source, which is immutable `text/plain`.
 *
 * The guards live in the app itself, so it is safe under any server
 * (`deno serve`, `Bun.serve`, a Node adapter, an edge platform): without a
 * token, a foreign `Host` or `Origin` is refused (403); request bodies are
 * taken only as `application/json` (415), decoded strictly as UTF-8 (400),
 * limited in size (413) and in the time they take to arrive (408).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createApp } from "./app.ts";
 * const app = createApp();
 * const res = await app.request("/v1/format", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ content: "x\ny\n" }),
 * });
 * assert.equal((await res.json()).text, "1:26|x\n2:4a|y");
 * ```
 *
 * @module
 */
import { Hono } from "hono";
import type { RevisionStore } from "../store/types.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { lazyResources } from "../tools/resources.ts";
import type {
  EditFormat,
  ToolDefinition,
  ToolSetName,
} from "../tools/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { CHECK_MODES, type CheckMode } from "../check/modes.ts";
import { denyGlobs } from "../_internal/glob.ts";
import type { HttpEnv } from "./_env.ts";
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  useGuards,
} from "./_guards.ts";
import { fileRoutes } from "./_routes_files.ts";
import { pageRoutes } from "./_page_history.ts";
import { historyRoutes } from "./_routes_history.ts";
import { mcpRoutes } from "./_routes_mcp.ts";
import { revisionRoutes } from "./_routes_revisions.ts";
import { type BlockApplier, statelessRoutes } from "./_routes_stateless.ts";
import { lazy } from "../_internal/lazy.ts";

// Block anchors on POST /v1/apply parse the content with a grammar: the
// checker loads with the first patch that names one.
const loadBlockApplier = lazy<typeof import("../check/apply_blocks.ts")>(
  import.meta.url,
  "../check/apply_blocks.ts",
);
const applyBlocks = async (
  content: string,
  patch: Parameters<BlockApplier>[1],
  options: { path?: string },
): Promise<string> =>
  (await loadBlockApplier()).applyBlockPatch(content, patch, options);
import { SESSION_HEADER } from "./_session.ts";
import { checkClientSession } from "../_internal/session.ts";

export { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, SESSION_HEADER };

/** What `createApp` returns: a Web-standard handler (the Hono app satisfies it). */
export interface HashlineApp {
  /** Answers one request. */
  fetch(request: Request): Response | Promise<Response>;
  /** Answers a request built from a path or URL (handy in tests and in-process calls). */
  request(
    input: string | Request | URL,
    init?: RequestInit,
  ): Response | Promise<Response>;
}

/** How the app is set up. Every field is optional. */
export interface AppOptions {
  /** Workspace root when no `workspace` is given (default: the working folder). */
  root?: string;
  /** Files on disk; opened from `root` on first use when absent. */
  workspace?: Workspace;
  /** Revision store; a file store in `stateDir` is opened on first use when absent. */
  store?: RevisionStore;
  /**
   * When set, every route except `GET /health` needs
   * `Authorization: Bearer <token>` (401 otherwise), and the Host/Origin
   * guard is off: the token is what proves a caller.
   */
  token?: string;
  /**
   * Origins (`scheme://host[:port]`) whose browser requests are accepted
   * besides loopback ones; they also get CORS answers. Without a token,
   * any other `Origin` is refused with 403.
   */
  allowedOrigins?: string[];
  /**
   * Host names accepted besides `127.0.0.1`, `localhost` and `[::1]` (any
   * port), e.g. the name a reverse proxy forwards. Without a token, any other
   * `Host` is refused with 403.
   */
  allowedHosts?: string[];
  /** Largest request body, in bytes (default 8 MiB); larger ones get 413. */
  maxBodyBytes?: number;
  /** How long a request body may take to arrive, in milliseconds (default 30 000); slower ones get 408. */
  bodyTimeoutMs?: number;
  /** Edit format of the MCP `edit_file` tool (default `"hashline"`); anything else is a `TypeError`. */
  editFormat?: EditFormat;
  /** Tool sets served at `/mcp` (default `["files", "store"]`); an unknown one is a `TypeError`. */
  tools?: readonly ToolSetName[];
  /** Tools of your own, served at `/mcp` after the sets' (the registry's `extraTools`). */
  extraTools?: readonly ToolDefinition[];
  /**
   * With `token`: the one-time key of the review page's login link
   * (`/login?key=…`), which sets its session cookie (history).
   */
  loginKey?: string;
  /** Default of `rebase` for `POST /v1/files/patch` and MCP `edit_file` (default false). */
  rebase?: boolean;
  /**
   * Default read form of `POST /v1/files/read` and MCP `read_file`:
   * `"hash"` (`LINE:HH|content`, the default) or `"lean"` (`LINE|content`).
   */
  anchors?: "hash" | "lean";
  /** State folder (default `HASHLINE_STORE`, or `.hashline/` under the working folder). */
  stateDir?: string;
  /**
   * Path globs (from the root) that no read, edit or history view of the
   * workspace opened from `root` may touch (its `deny` option); ignored
   * when `workspace` is given.
   */
  deny?: string[];
  /**
   * Default syntax-check mode of the workspace opened from `root` (its
   * `check` option: `"warn"`, `"refuse"` or `"off"`); a request's own
   * `check` still wins. Ignored when `workspace` is given.
   */
  check?: CheckMode;
  /**
   * Session of requests without a `Hashline-Session` header (default
   * `"default"`). Given, MCP calls count in it too, 2025-era MCP sessions
   * included; absent, each of those is its own session and 2026-07-28 MCP
   * requests count in `"default"`.
   */
  session?: string;
  /** Most MCP sessions kept at once (default 1000); the least recently used ends first. */
  maxMcpSessions?: number;
  /** An MCP session idle this long (milliseconds) ends, and its reads are freed (default 30 minutes). */
  mcpSessionTtlMs?: number;
}

/**
 * Creates the HTTP app.
 *
 * @param options Workspace, store, token, guards, limits, edit format; all optional.
 * @returns The app; pass `app.fetch` to any Web-standard server.
 * @throws {TypeError} When `maxBodyBytes` or `bodyTimeoutMs` is not a positive
 *   whole number, `token` is empty or not a bearer token, an allowed origin
 *   is not an origin, `session` is not a safe name, `deny` is not a list of
 *   globs, or `check`, `editFormat` or a tool set is unknown.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createApp } from "./app.ts";
 * const app = createApp({ token: "s3cret" });
 * assert.equal((await app.request("/health")).status, 200);
 * const denied = await app.request("/v1/format", { method: "POST", body: "{}" });
 * assert.equal(denied.status, 401);
 * const res = await app.request("/v1/apply", {
 *   method: "POST",
 *   headers: { authorization: "Bearer s3cret", "content-type": "application/json" },
 *   body: JSON.stringify({ content: "x\ny\n", patch: "= 2:4a\n~Y" }),
 * });
 * assert.deepEqual(await res.json(), { ok: true, content: "x\nY\n" });
 * ```
 */
export function createApp(options: AppOptions = {}): HashlineApp {
  if (options === null || typeof options !== "object") {
    throw new TypeError("createApp needs an options object (or nothing).");
  }
  const defaultSession = options.session ?? "default";
  checkClientSession(defaultSession, "session");
  denyGlobs(options.deny, "createApp");
  if (
    options.check !== undefined && !CHECK_MODES.includes(options.check)
  ) {
    throw new TypeError(
      `createApp: check must be one of ${
        CHECK_MODES.map((m) => `"${m}"`).join(", ")
      }, got ${JSON.stringify(options.check)}.`,
    );
  }
  const rebase = options.rebase ?? false;
  const resources = lazyResources(options);
  const tools = {
    store: resources.store,
    editFormat: options.editFormat,
    tools: options.tools,
    extraTools: options.extraTools,
    rebase,
    anchors: options.anchors,
  };
  // 2025-era MCP sessions come and go: their read records live in memory
  // only. Named sessions and the default one are kept in the state folder,
  // so any server on the same root serves them (docs/mcp.md "Sessions").
  const registry = createToolRegistry({
    ...tools,
    workspace: resources.ephemeralWorkspace,
    session: "default",
  });
  const shared = createToolRegistry({
    ...tools,
    workspace: resources.workspace,
    session: defaultSession,
  });
  const app = new Hono<HttpEnv>();
  // The review page goes before the API's guards, with its own
  // (a browser form sends neither JSON nor a bearer header).
  app.route(
    "/",
    pageRoutes({
      workspace: resources.workspace,
      session: defaultSession,
      token: options.token,
      loginKey: options.loginKey,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
      bodyTimeoutMs: options.bodyTimeoutMs,
    }),
  );
  useGuards(app, options);
  const mcp = mcpRoutes(registry, {
    maxSessions: options.maxMcpSessions,
    sessionTtlMs: options.mcpSessionTtlMs,
    defaultSession,
    session: options.session,
    shared,
  });

  app.route("/", statelessRoutes(applyBlocks));
  app.route(
    "/",
    fileRoutes({
      workspace: resources.workspace,
      session: defaultSession,
      rebase,
      anchors: options.anchors,
    }),
  );
  app.route("/", revisionRoutes(resources.store));
  app.route(
    "/",
    historyRoutes({ workspace: resources.workspace, session: defaultSession }),
  );
  app.route("/", mcp.routes);
  return app;
}
