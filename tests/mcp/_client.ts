/**
 * MCP client helpers of the serving tests, built on the SDK's own client so
 * the server is exercised the way real MCP hosts use it.
 */
import {
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { HashlineApp } from "../../src/http/app.ts";

/** The text of a tool result and whether it is an error. */
export interface ToolText {
  text: string;
  isError: boolean;
}

/** A connected MCP client with small conveniences. */
export interface McpTestClient {
  client: Client;
  sessionId: string | undefined;
  tool(name: string, args: Record<string, unknown>): Promise<ToolText>;
  close(): Promise<void>;
}

/** Connects an SDK client to `url`, sending requests through `fetchImpl` (an app or the network). */
export async function connectHttp(
  url: string,
  options: {
    app?: HashlineApp;
    headers?: Record<string, string>;
    capabilities?: Record<string, Record<string, never>>;
  } = {},
): Promise<McpTestClient> {
  const app = options.app;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: app
      ? (input, init) => Promise.resolve(app.fetch(new Request(input, init)))
      : undefined,
    requestInit: options.headers ? { headers: options.headers } : undefined,
  });
  const client = new Client(
    { name: "hashline-test", version: "1.0.0" },
    options.capabilities ? { capabilities: options.capabilities } : undefined,
  );
  await client.connect(transport);
  return {
    client,
    get sessionId() {
      return transport.sessionId;
    },
    async tool(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const content = result.content as { type: string; text: string }[];
      return {
        text: content.map((c) => c.text).join("\n"),
        isError: result.isError === true,
      };
    },
    async close() {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}
