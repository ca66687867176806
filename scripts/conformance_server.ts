/**
 * The server `scripts/conformance.sh` checks (docs/mcp.md "Conformance"):
 * `serve`'s app through the public API, its default tools plus the three
 * diagnostic tools the conformance suite calls to probe an MCP server's
 * capability checks, questions and logging. They are added with
 * `extraTools`, as any tool of one's own, so what answers is hashline's MCP
 * layer itself; they are never part of the product's tool lists.
 *
 * Usage: `deno run -A scripts/conformance_server.ts ROOT`; prints
 * `{"mcp":"http://127.0.0.1:PORT/mcp"}` once listening.
 */
import { startServer } from "../src/http/server.ts";
import type {
  ToolCallOptions,
  ToolDefinition,
  ToolResult,
} from "../src/tools/mod.ts";

const NOTHING = { type: "object", properties: {} };
const SAID = {
  type: "object",
  properties: { said: { type: "string" } },
  required: ["said"],
};
const QUIET = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

function said(text: string): ToolResult {
  return { ok: true, text, data: { said: text } };
}

function overMcp(call?: ToolCallOptions) {
  if (!call?.client) throw new Error("This tool answers over MCP only.");
  return call.client;
}

const diagnostics: ToolDefinition[] = [
  {
    name: "test_missing_capability",
    title: "Needs sampling",
    description: "Answers only a client that declared sampling.",
    inputSchema: NOTHING,
    outputSchema: SAID,
    annotations: QUIET,
    clientCapabilities: ["sampling"],
    handler: () => Promise.resolve(said("The client declared sampling.")),
  },
  {
    name: "test_streaming_elicitation",
    title: "Asks a question",
    description: "Asks the user whether to go on, and says what they answered.",
    inputSchema: NOTHING,
    outputSchema: SAID,
    annotations: QUIET,
    clientCapabilities: ["elicitation"],
    handler: async (_input, call) => {
      const answer = await overMcp(call).elicit("Go on?", {
        type: "object",
        properties: { goOn: { type: "boolean", title: "Go on" } },
        required: ["goOn"],
      });
      return said(`The user answered ${answer.action}.`);
    },
  },
  {
    name: "test_logging_tool",
    title: "Logs",
    description: "Logs three messages, then answers.",
    inputSchema: NOTHING,
    outputSchema: SAID,
    annotations: QUIET,
    handler: async (_input, call) => {
      const client = overMcp(call);
      for (const level of ["debug", "info", "warning"] as const) {
        await client.log(level, `A ${level} message.`);
      }
      return said("Logged three messages.");
    },
  },
];

const root = Deno.args[0];
if (!root) throw new TypeError("Usage: conformance_server.ts ROOT");
const server = await startServer({
  root,
  port: 0,
  stateDir: `${root}/.hashline`,
  extraTools: diagnostics,
});
console.log(JSON.stringify({ mcp: `${server.url}/mcp` }));
