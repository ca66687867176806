/**
 * The `Hashline-Session` header: which session's reads a request counts
 * for.
 *
 * @module
 */

/** The session header. */
export const SESSION_HEADER = "Hashline-Session";

/** What a session name may be: a safe file name. */
export const SESSION_NAME: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

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
  if (!SESSION_NAME.test(name)) {
    throw new TypeError(
      `Header "${SESSION_HEADER}" must be 1–128 letters, digits, ".", "_" or "-", starting with a letter or digit; got ${
        JSON.stringify(name.slice(0, 140))
      }.`,
    );
  }
  return name;
}
