/**
 * MCP over standard input and output (`hashline mcp`): one connection, one
 * hashline session.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { byteStdio } from "../_runtime/env.ts";
import { standardStreams } from "../_runtime/serve.ts";
import type { RevisionStore } from "../store/types.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { lazyResources } from "../tools/resources.ts";
import type { EditFormat, ToolRegistry, ToolSetName } from "../tools/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import { ByteStreamTransport } from "./_byte_transport.ts";
import { mcpServer } from "./_server.ts";

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
  /** Edit format (default `"hashline"`); anything else is refused with a `TypeError`. */
  editFormat?: EditFormat;
  /** Tool sets to serve (default `["files", "store"]`); an unknown one is a `TypeError`. */
  tools?: readonly ToolSetName[];
  /** Hashline session of this connection (default `"default"`). */
  session?: string;
  /** Default of `edit_file`'s `rebase` (default false). */
  rebase?: boolean;
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
  const session = options.session ?? "default";
  let registry = options.registry;
  if (!registry) {
    const resources = lazyResources(options);
    registry = createToolRegistry({
      workspace: resources.workspace,
      store: resources.store,
      editFormat: options.editFormat,
      tools: options.tools,
      session,
      rebase: options.rebase,
    });
  }
  const server = mcpServer(registry, () => session);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const finish = () => done();
  // Deno's own byte streams where it runs (its Node stream layer costs every
  // message); the SDK's Node-stream transport elsewhere. Either ends the
  // server when the client closes standard input.
  const bytes = byteStdio();
  let transport: ByteStreamTransport | StdioServerTransport;
  if (bytes) {
    transport = new ByteStreamTransport(bytes);
  } else {
    const { stdin, stdout } = standardStreams();
    transport = new StdioServerTransport(stdin, stdout);
    stdin.once("end", finish);
    stdin.once("close", finish);
  }
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
