/**
 * What the server offers besides tools (docs/mcp.md "Prompt and
 * resources"): one prompt, `hashline`, holding the registry's system-prompt
 * snippet (how to read and edit with these tools, in the edit format
 * served), and no resources — files are read through `read_file`, whose
 * reads count for edits, which a resource read would not. Both lists are
 * cacheable under 2026-07-28 like the tool list.
 *
 * @module
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Server,
} from "@modelcontextprotocol/server";
import type { ToolRegistry } from "../tools/types.ts";

/** The prompt's name. */
export const PROMPT_NAME = "hashline";

/**
 * The capabilities this adds to a server: prompts when the registry has a
 * snippet, and (empty) resources.
 */
export function extraCapabilities(
  registry: ToolRegistry,
): { prompts?: Record<string, never>; resources: Record<string, never> } {
  return registry.systemPrompt ? { prompts: {}, resources: {} } : {
    resources: {},
  };
}

/**
 * Registers the prompt and resource handlers on a server built with
 * {@link extraCapabilities}.
 */
export function servePromptAndResources(
  server: Server,
  registry: ToolRegistry,
): void {
  const text = registry.systemPrompt;
  if (text) {
    const description =
      "How to read and edit files with this server's tools: anchored reads and all-or-nothing patches.";
    server.setRequestHandler("prompts/list", () => ({
      prompts: [{ name: PROMPT_NAME, title: "Hashline", description }],
    }));
    server.setRequestHandler("prompts/get", (request) => {
      if (request.params.name !== PROMPT_NAME) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `No prompt named "${request.params.name}". Available prompts: ${PROMPT_NAME}.`,
        );
      }
      return {
        description,
        messages: [{
          role: "user" as const,
          content: { type: "text" as const, text },
        }],
      };
    });
  }
  server.setRequestHandler("resources/list", () => ({ resources: [] }));
  server.setRequestHandler(
    "resources/templates/list",
    () => ({ resourceTemplates: [] }),
  );
  server.setRequestHandler("resources/read", (request) => {
    throw new ResourceNotFoundError(
      request.params.uri,
      `No resource at ${request.params.uri}: this server offers none; read files with the read_file tool.`,
    );
  });
}
