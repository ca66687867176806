/**
 * The one place where error codes become exit codes of the command line:
 * 0 done, 1 refused, 2 bad usage. The table is exhaustive over the closed
 * code list with no fallback, so a new code cannot be added without deciding
 * its exit code.
 *
 * @module
 */
import { type ErrorCode, HashlineError, isErrorCode } from "../errors.ts";

/** Exit code: the command did what was asked. */
export const EXIT_OK = 0;
/** Exit code: refused (stale anchor, conflict, not read, not found, integrity). */
export const EXIT_REFUSED = 1;
/** Exit code: bad usage (unknown command or flag, malformed input). */
export const EXIT_USAGE = 2;

/** The exit code of every error code. */
export const EXIT: { readonly [C in ErrorCode]: 1 | 2 } = {
  BAD_INPUT: EXIT_USAGE,
  BAD_PATH: EXIT_USAGE,
  BAD_ANCHOR: EXIT_REFUSED,
  BAD_RANGE: EXIT_REFUSED,
  BAD_LINE: EXIT_REFUSED,
  STALE_ANCHOR: EXIT_REFUSED,
  OUT_OF_RANGE: EXIT_REFUSED,
  OVERLAP: EXIT_REFUSED,
  NOT_READ: EXIT_REFUSED,
  PASTED_PREFIX: EXIT_REFUSED,
  EMPTY_INSERT: EXIT_REFUSED,
  CHANGED: EXIT_REFUSED,
  PATCH_REFUSED: EXIT_REFUSED,
  NOT_A_BLOCK: EXIT_REFUSED,
  MOVED_ON: EXIT_REFUSED,
  SYNTAX: EXIT_REFUSED,
  UNCHECKED: EXIT_REFUSED,
  NO_MATCH: EXIT_REFUSED,
  MANY_MATCHES: EXIT_REFUSED,
  NO_CHANGE: EXIT_REFUSED,
  EXISTS: EXIT_REFUSED,
  OUTSIDE_ROOT: EXIT_REFUSED,
  DENIED: EXIT_REFUSED,
  NOT_A_FILE: EXIT_REFUSED,
  PERMISSION: EXIT_REFUSED,
  NO_SPACE: EXIT_REFUSED,
  NOT_TEXT: EXIT_REFUSED,
  NOT_FOUND: EXIT_REFUSED,
  UNKNOWN_HANDLE: EXIT_REFUSED,
  UNKNOWN_TOOL: EXIT_USAGE,
  TOO_LARGE: EXIT_REFUSED,
  INTEGRITY: EXIT_REFUSED,
  BUSY: EXIT_REFUSED,
  UNAUTHORIZED: EXIT_REFUSED,
  FORBIDDEN: EXIT_REFUSED,
  UNSUPPORTED_MEDIA_TYPE: EXIT_USAGE,
  METHOD_NOT_ALLOWED: EXIT_USAGE,
  REQUEST_TIMEOUT: EXIT_REFUSED,
  NOT_AVAILABLE: EXIT_REFUSED,
  HISTORY: EXIT_REFUSED,
  INTERNAL: EXIT_REFUSED,
};

/**
 * The stable code of anything thrown: a typed refusal's own code,
 * `BAD_INPUT` for `TypeError`, `RangeError` and `SyntaxError`, `INTERNAL`
 * for anything else.
 *
 * @param error What was thrown.
 * @returns Its code.
 */
export function codeOf(error: unknown): ErrorCode {
  if (error instanceof HashlineError && isErrorCode(error.code)) {
    return error.code;
  }
  if (
    error instanceof TypeError || error instanceof RangeError ||
    error instanceof SyntaxError
  ) {
    return "BAD_INPUT";
  }
  return "INTERNAL";
}

/**
 * The exit code of an error code.
 *
 * @param code One of the stable error codes.
 * @returns 1 refused or 2 bad usage, from {@link EXIT}.
 */
export function exitOf(code: ErrorCode): 1 | 2 {
  return EXIT[code];
}
