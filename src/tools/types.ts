/**
 * The shapes the tool registry speaks in: tool definitions as MCP and model
 * APIs expect them, call results that never throw, and what a registry is
 * built from.
 *
 * @module
 */
import type { CheckMode } from "../check/mod.ts";
import type { ErrorCode, Problem } from "../errors.ts";
import type { RevisionStore } from "../store/types.ts";
import type { Workspace } from "../workspace/mod.ts";

/** How `edit_file` edits: anchored hashline patches, or exact string replacement. */
export type EditFormat = "hashline" | "str_replace";

/** The edit formats a registry accepts, in the order they are documented. */
export const EDIT_FORMATS: readonly EditFormat[] = ["hashline", "str_replace"];

/**
 * A named group of tools, chosen with `tools` on the registry and `--tools`
 * on `mcp` and `serve`: `files` (`read_file`, `edit_file`, `write_file`),
 * `store` (`source_put`, `source_read`, `source_edit`, `source_patch`,
 * `source_export`), `history` (`edit_history`, `undo_edit`; the workspace
 * keeps no history in this version, so the set offers no tools yet).
 */
export type ToolSetName = "files" | "store" | "history";

/** Every tool set, in the order their tools are listed. */
export const TOOL_SETS: readonly ToolSetName[] = ["files", "store", "history"];

/** The tool sets served when none are named. */
export const DEFAULT_TOOL_SETS: readonly ToolSetName[] = ["files", "store"];

/**
 * A backing object, or a function that opens it on first use (so a server
 * that only formats content never touches the file system).
 */
export type Lazy<T> = T | (() => Promise<T>);

/** What the tools work on. Tools whose backing is absent are left out of the registry. */
export interface ToolContext {
  /** Files on disk (`read_file`, `edit_file`, `write_file`, and with a store `source_export`). */
  workspace?: Lazy<Workspace>;
  /** Revision store (`source_put`, `source_read`, `source_edit`, `source_patch`, `source_export`). */
  store?: Lazy<RevisionStore>;
  /**
   * Tool sets to offer (default `["files", "store"]`); a set whose backing
   * (workspace, store) is absent offers nothing. Each tool costs a model
   * tokens on every request, so offer only the sets an agent uses.
   */
  tools?: readonly ToolSetName[];
  /** Edit format (default `"hashline"`). */
  editFormat?: EditFormat;
  /** Session whose reads count, when a call names none (default `"default"`). */
  session?: string;
  /**
   * How `read_file` shows lines when a call does not say (docs/reads.md, "Lean reads"):
   * `"hash"` (`LINE:HH|content`, the default) or `"lean"` (`LINE|content`;
   * `edit_file` may then name lines by number alone, checked against the
   * session's read record). Lean needs the `hashline` edit format.
   */
  anchors?: "hash" | "lean";
  /**
   * Default of `edit_file`'s `rebase` (default false): apply an op whose
   * lines only moved where they now stand. A call's own `rebase` wins.
   */
  rebase?: boolean;
  /**
   * Default syntax check of edits (docs/syntax-checks.md; default: the workspace's or
   * store's own, which is `"warn"` unless it was opened with another):
   * `refuse` refuses an edit that breaks the parse with `SYNTAX`. A call's
   * own `check` wins.
   */
  check?: CheckMode;
  /**
   * Tools of your own, served after the sets on every door that lists the
   * registry (MCP, agent adapters); each name must differ from the others
   * and from the sets' tools (docs/mcp.md "Tools of your own").
   */
  extraTools?: readonly ToolDefinition[];
}

/** Severity of a log message, least severe first (the MCP logging levels). */
export type LogLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** What a client answered to a question a tool asked ({@link ToolClient.elicit}). */
export interface ElicitAnswer {
  /** `accept` (with `content`), or the user said no (`decline`) or dismissed it (`cancel`). */
  action: "accept" | "decline" | "cancel";
  /** The fields the user filled in, when accepted. */
  content?: Record<string, unknown>;
}

/**
 * The MCP client a call came from, as a tool may use it. Given to calls
 * made over MCP only; elsewhere `ToolCallOptions.client` is absent.
 */
export interface ToolClient {
  /** The capabilities the client declared (`elicitation`, `sampling`, `roots`, …). */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /**
   * Sends a log message to the client, if it asked for messages of this
   * level (`logging/setLevel`, or under 2026-07-28 the request's own
   * `logLevel`); otherwise nothing is sent.
   */
  log(level: LogLevel, message: string): Promise<void>;
  /**
   * Asks the user a question (form elicitation; the tool should declare
   * `clientCapabilities: ["elicitation"]`). Under 2026-07-28 the call ends
   * here with the question, and the client calls again with the answer: the
   * handler then runs again from the start and this resolves at once, so
   * what a handler does before asking must be safe to repeat. Let the
   * error it may throw pass through: that is how the question is sent.
   */
  elicit(message: string, schema: JsonSchema): Promise<ElicitAnswer>;
}

/** Per-call options. */
export interface ToolCallOptions {
  /** Session whose reads count for this call (e.g. an MCP session id). */
  session?: string;
  /** The MCP client of the call; absent when the call did not come over MCP. */
  client?: ToolClient;
}

/** What a failed call reports. */
export interface ToolError {
  /** Stable upper-snake code (`BAD_INPUT`, `STALE_ANCHOR`, `NOT_READ`, `NO_MATCH`, `UNKNOWN_TOOL`, …). */
  code: ErrorCode;
  /** A sentence the model can act on. */
  message: string;
  /** Every problem of a refused patch. */
  problems?: Problem[];
  /** Byte offset of the offending byte of content that is not text. */
  offset?: number;
}

/** A call that did what was asked: `text` for the model, `data` for programs. */
export interface ToolSuccess {
  /** Always true: the call did what was asked. */
  ok: true;
  /** What a model reads. */
  text: string;
  /** The structured result; it matches the tool's `outputSchema`. */
  data: Record<string, unknown>;
}

/** A call that was refused or had bad input; nothing was written. */
export interface ToolFailure {
  /** Always false: nothing was done. */
  ok: false;
  /** The typed code and the sentence a model acts on. */
  error: ToolError;
}

/** The outcome of a tool call; calls never throw. */
export type ToolResult = ToolSuccess | ToolFailure;

/** Hints to a client about what a tool does (MCP tool annotations). */
export interface ToolAnnotations {
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** The tool may overwrite or remove what is there (only meaningful when not read-only). */
  destructiveHint: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotentHint: boolean;
  /** The tool reaches nothing outside the workspace and the store. */
  openWorldHint: boolean;
}

/** A JSON Schema object, as MCP and model APIs take it. */
export type JsonSchema = Record<string, unknown>;

/** One tool, in the shape MCP and model APIs expect. */
export interface ToolDefinition {
  /** Tool name (`read_file`, `edit_file`, …). */
  name: string;
  /** A short human-readable name (`Read file`). */
  title: string;
  /** Instructions for the model. */
  description: string;
  /** JSON Schema (an object schema) of the input. */
  inputSchema: JsonSchema;
  /** JSON Schema (an object schema) of `data` on success. */
  outputSchema: JsonSchema;
  /** What the tool does to the world. */
  annotations: ToolAnnotations;
  /**
   * MCP client capabilities the tool needs (e.g. `["elicitation"]`): over
   * MCP, a call from a client that did not declare each one is refused
   * with `-32021` (HTTP 400) before the handler runs.
   */
  clientCapabilities?: readonly string[];
  /** Runs the tool; never throws — refusals and bad input come back as `ok: false`. */
  handler(input: unknown, call?: ToolCallOptions): Promise<ToolResult>;
}

/** The tools over one workspace and store. */
export interface ToolRegistry {
  /** Tool definitions, in a stable order. */
  tools: ToolDefinition[];
  /** The edit format in use. */
  editFormat: EditFormat;
  /** The tool sets offered. */
  toolSets: readonly ToolSetName[];
  /** A system-prompt snippet that teaches a model the tools and the edit format. */
  systemPrompt: string;
  /** The tool of that name, if present. */
  get(name: string): ToolDefinition | undefined;
  /** Calls a tool by name; an unknown name is an `UNKNOWN_TOOL` failure, never a throw. */
  call(
    name: string,
    input: unknown,
    call?: ToolCallOptions,
  ): Promise<ToolResult>;
  /**
   * Frees a session's read records in the workspace (when the workspace was
   * ever opened); a later edit in that session must read again.
   */
  endSession(session: string): Promise<void>;
}
