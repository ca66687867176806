/**
 * What a tool called over MCP may ask of its client (`ToolClient`, see
 * docs/mcp.md "Tools of your own"), on the SDK's own mechanisms for both
 * eras: the capabilities the client declared (the request's `_meta` under
 * 2026-07-28, `initialize` before), log messages the SDK sends only at the
 * level the client asked for, and questions as an input-required result,
 * which the SDK turns into an `elicitation/create` request for a 2025-era
 * client and runs the handler again with the answer.
 *
 * @module
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type InputRequiredResult,
  inputResponse,
  MissingRequiredClientCapabilityError,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type {
  ElicitAnswer,
  JsonSchema,
  ToolClient,
  ToolDefinition,
  ToolFailure,
} from "../tools/types.ts";

/** Thrown by `elicit` when the client has not answered yet: the call ends with the question. */
class QuestionPending extends Error {
  constructor(
    readonly key: string,
    readonly question: string,
    readonly schema: JsonSchema,
  ) {
    super(
      `The client has not answered "${question}" yet; the call ends with the question.`,
    );
  }
}

/**
 * Thrown by `elicit` where no question can reach the client: a 2025-era
 * HTTP session answers in JSON (docs/mcp.md "Eras"), with no stream to
 * carry a request to the client.
 */
class CannotAsk extends Error {}

/** The capabilities the client of this request declared. */
export function declaredCapabilities(
  server: Server,
  ctx: ServerContext,
): Record<string, unknown> {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const fromMeta = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return (fromMeta ?? server.getClientCapabilities() ?? {}) as Record<
    string,
    unknown
  >;
}

/**
 * Refuses a call whose tool needs a capability the client did not declare
 * (`-32021`, which the SDK answers with HTTP 400).
 */
export function requireCapabilities(
  tool: ToolDefinition,
  declared: Record<string, unknown>,
): void {
  const missing = (tool.clientCapabilities ?? []).filter((c) =>
    declared[c] === undefined || declared[c] === null
  );
  if (missing.length === 0) return;
  throw new MissingRequiredClientCapabilityError(
    { requiredCapabilities: Object.fromEntries(missing.map((c) => [c, {}])) },
    `Tool "${tool.name}" needs the client capabilit${
      missing.length === 1 ? "y" : "ies"
    } ${
      missing.map((c) => `"${c}"`).join(", ")
    }, which this request did not declare.`,
  );
}

/**
 * The client of one call, as its tool sees it.
 *
 * @param ctx The SDK's context of the `tools/call` request.
 * @param capabilities What the client declared.
 * @param streams Whether the connection can carry a request to the client
 *   (false for 2025-era HTTP sessions, which answer in JSON).
 */
export function toolClient(
  ctx: ServerContext,
  capabilities: Record<string, unknown>,
  streams: boolean,
): ToolClient {
  // Questions are numbered in the order the handler asks them, so the
  // handler run again with the answers meets each answer under its key.
  let asked = 0;
  return {
    capabilities,
    log: (level, message) => ctx.mcpReq.log(level, message),
    elicit(message: string, schema: JsonSchema): Promise<ElicitAnswer> {
      const key = `elicit-${++asked}`;
      const modern = ctx.mcpReq.envelope !== undefined;
      if (!modern && !streams) {
        return Promise.reject(
          new CannotAsk(
            `This tool asks the user a question, which this connection cannot carry: a 2025-era MCP session over HTTP is answered in JSON. Call it over stdio, or with protocol 2026-07-28.`,
          ),
        );
      }
      const answer = inputResponse(ctx.mcpReq.inputResponses, key);
      if (answer.kind === "elicit") {
        return Promise.resolve({
          action: answer.action,
          ...(answer.content ? { content: answer.content } : {}),
        });
      }
      return Promise.reject(new QuestionPending(key, message, schema));
    },
  };
}

/** The refusal of a call whose question could not be sent, if it is one. */
export function cannotAskOf(error: unknown): ToolFailure | undefined {
  if (!(error instanceof CannotAsk)) return undefined;
  return {
    ok: false,
    error: { code: "NOT_AVAILABLE", message: error.message },
  };
}

/** The input-required answer for a question a handler is waiting on, if it is one. */
export function questionOf(error: unknown): InputRequiredResult | undefined {
  if (!(error instanceof QuestionPending)) return undefined;
  return inputRequired({
    inputRequests: {
      [error.key]: inputRequired.elicit({
        message: error.question,
        requestedSchema: error.schema as Parameters<
          typeof inputRequired.elicit
        >[0]["requestedSchema"],
      }),
    },
  });
}
