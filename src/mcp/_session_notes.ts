/**
 * What a `NOT_READ` refusal over MCP adds: the session the request counted
 * in, and how to name one (docs/mcp.md "Sessions"), so a client whose read
 * went to another session learns why its edit was refused.
 *
 * @module
 */

/** The sentence for each way a session is chosen. */
export const notes = {
  /** A session named by the `Hashline-Session` header or `--session`. */
  named: (name: string): string =>
    `This request counted in session "${name}"; only reads made in that session count for it.`,
  /** A request over HTTP that named none and belongs to no MCP session. */
  httpDefault: (name: string): string =>
    `This request named no session and counted in the server's default session "${name}"; a read sent with a Hashline-Session header counted in that header's session instead. Send the same "Hashline-Session: NAME" header on every request to read and edit in one session of your own.`,
  /** A 2025-era MCP-over-HTTP session's own session. */
  httpSession: (label: string): string =>
    `This request counted in this MCP session's own session "${label}": a read made in another MCP session (a client that connects anew for each call) counted there. Send the same "Hashline-Session: NAME" header on every request to share one session.`,
  /** A stdio connection's own session. */
  stdioConnection: (label: string): string =>
    `This request counted in this connection's own session "${label}": a read made through another connection (a client that starts the server for each call) counted in that connection's session. Start the server with --session NAME so every connection shares one session.`,
};
