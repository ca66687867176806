/**
 * MCP over standard input and output (`hashline mcp`), either protocol era
 * (the opening message picks it): one connection, one hashline session.
 * Unless a session is named, the connection gets its own, so two agents
 * never use each other's reads.
 *
 * @module
 */
import type { Transport } from "@modelcontextprotocol/server";
import {
  serveStdio,
  StdioServerTransport,
} from "@modelcontextprotocol/server/stdio";
import { checkClientSession, mintSessionLabel } from "../_internal/session.ts";
import { byteStdio } from "../_runtime/env.ts";
import { standardStreams } from "../_runtime/serve.ts";
import type { RevisionStore } from "../store/types.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { lazyResources } from "../tools/resources.ts";
import type { EditFormat, ToolRegistry, ToolSetName } from "../tools/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { ByteStreamTransport } from "./_byte_transport.ts";
import { mcpServer } from "./_server.ts";
import { notes } from "./_session_notes.ts";

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
  /** State folder (default `HASHLINE_STORE`, else `.hashline/` under the root). */
  stateDir?: string;
  /** Edit format (default `"hashline"`); anything else is refused with a `TypeError`. */
  editFormat?: EditFormat;
  /** Tool sets to serve (default `["files", "store"]`); an unknown one is a `TypeError`. */
  tools?: readonly ToolSetName[];
  /**
   * Hashline session of this connection. Default: a session of its own
   * (shown as `mcp-` and 8 hex digits), whose read records live in memory and end with the
   * connection; name one to share reads with CLI calls or other connections.
   */
  session?: string;
  /** Default of `edit_file`'s `rebase` (default false). */
  rebase?: boolean;
  /** Default read form of `read_file` (`"lean"`: `LINE|content`; default `"hash"`). */
  anchors?: "hash" | "lean";
}

/**
 * A session of its own for one stdio connection, known only by its
 * one-way label (`mcp-…`): a name no client can send.
 */
function connectionSession(): Promise<string> {
  return mintSessionLabel(crypto.randomUUID());
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
 * @throws {TypeError} An unknown `editFormat` or tool set, or an unsafe `session`.
 * @example
 * ```ts ignore
 * import { runMcpStdio } from "./stdio.ts";
 * const server = await runMcpStdio({ root: ".", editFormat: "str_replace" });
 * await server.closed;
 * ```
 */
export async function runMcpStdio(
  options: McpStdioOptions = {},
): Promise<McpStdioServer> {
  const named = options.session !== undefined;
  const session = named
    ? checkClientSession(options.session, "session")
    : await connectionSession();
  let registry = options.registry;
  if (!registry) {
    const resources = lazyResources(options);
    registry = createToolRegistry({
      workspace: named ? resources.workspace : resources.ephemeralWorkspace,
      store: resources.store,
      editFormat: options.editFormat,
      tools: options.tools,
      session,
      rebase: options.rebase,
      anchors: options.anchors,
    });
  }
  const choice = {
    session,
    registry,
    note: named ? notes.named(session) : notes.stdioConnection(session),
  };
  // One server per connection (and one for a `server/discover` probe).
  const factory = () => mcpServer(registry, () => choice);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    // A connection's own session ends with it; a named one is kept.
    const forget = !named && options.workspace
      ? options.workspace.forgetSession(session).catch(() => {})
      : Promise.resolve();
    void forget.then(done);
  };
  // Deno's own byte streams where it runs (its Node stream layer costs every
  // message); the SDK's Node-stream transport elsewhere. Either ends the
  // server when the client closes standard input.
  const bytes = byteStdio();
  let wire: Transport;
  if (bytes) {
    wire = new ByteStreamTransport(bytes);
  } else {
    const { stdin, stdout } = standardStreams();
    wire = new StdioServerTransport(stdin, stdout);
    stdin.once("end", finish);
    stdin.once("close", finish);
  }
  const handle = serveStdio(factory, {
    transport: onClosed(wire, finish),
  });
  return {
    closed,
    async close() {
      await handle.close();
      finish();
    },
  };
}

/** The transport, telling `ended` when it closes (the SDK owns its `onclose`). */
function onClosed(wire: Transport, ended: () => void): Transport {
  return {
    start: () => wire.start(),
    send: (message, options) => wire.send(message, options),
    close: () => wire.close(),
    set onclose(f: (() => void) | undefined) {
      wire.onclose = () => {
        f?.();
        ended();
      };
    },
    set onerror(f: ((error: Error) => void) | undefined) {
      wire.onerror = f;
    },
    set onmessage(f: Transport["onmessage"]) {
      wire.onmessage = f;
    },
  };
}
