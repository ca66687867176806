/**
 * The `Hashline-Session` header: which session's reads a request counts
 * for.
 *
 * @module
 */

import { isSessionName, SESSION_NAME } from "../_internal/session.ts";

export { SESSION_NAME };

/** The session header. */
export const SESSION_HEADER = "Hashline-Session";

/**
 * The session a request names, or `fallback` when it names none.
 *
 * @throws {TypeError} A header that is not a safe session name.
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
  if (!isSessionName(name)) {
    throw new TypeError(
      `Header "${SESSION_HEADER}" must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
        JSON.stringify(name.slice(0, 140))
      }.`,
    );
  }
  return name;
}
