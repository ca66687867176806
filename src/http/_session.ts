/**
 * The `Hashline-Session` header: which session's reads a request counts
 * for.
 *
 * @module
 */

import { checkClientSession, SESSION_NAME } from "../_internal/session.ts";

export { SESSION_NAME };

/** The session header. */
export const SESSION_HEADER = "Hashline-Session";

/**
 * The session a request names, or `fallback` when it names none.
 *
 * @throws {TypeError} A header that is not a safe session name, or has the
 *   form of a transport session's label (`mcp-3f2a9c1d`).
 */
export function sessionOf(
  request: Request,
  fallback: string,
): string;
export function sessionOf(
  request: Request,
  fallback: undefined,
): string | undefined;
export function sessionOf(
  request: Request,
  fallback: string | undefined,
): string | undefined {
  const name = request.headers.get(SESSION_HEADER);
  if (name === null || name === "") return fallback;
  return checkClientSession(name, `Header "${SESSION_HEADER}"`);
}
