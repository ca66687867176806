/**
 * The one place where error codes become HTTP statuses. Domain errors carry
 * only a stable code; the table below is exhaustive over the closed code list
 * with no fallback, so a new code cannot be added without deciding its
 * status. Bad input is a 4xx, every refusal a 4xx; only an integrity failure
 * or an unexpected error is a 500, and only OS conditions (full disk, out of
 * handles) or a route this app cannot serve answer another 5xx.
 *
 * @module
 */
import type { ErrorCode } from "../errors.ts";

/** The HTTP status of every error code. */
export const STATUS: { readonly [C in ErrorCode]: number } = {
  BAD_INPUT: 400,
  BAD_PATH: 400,
  BAD_ANCHOR: 409,
  BAD_RANGE: 409,
  BAD_LINE: 409,
  STALE_ANCHOR: 409,
  OUT_OF_RANGE: 409,
  OVERLAP: 409,
  NOT_READ: 409,
  PASTED_PREFIX: 409,
  EMPTY_INSERT: 409,
  CHANGED: 409,
  PATCH_REFUSED: 409,
  NOT_A_BLOCK: 409,
  MOVED_ON: 409,
  SYNTAX: 409,
  UNCHECKED: 409,
  NO_MATCH: 409,
  MANY_MATCHES: 409,
  NO_CHANGE: 409,
  EXISTS: 409,
  OUTSIDE_ROOT: 403,
  DENIED: 403,
  NOT_A_FILE: 400,
  PERMISSION: 403,
  NO_SPACE: 507,
  NOT_TEXT: 400,
  NOT_FOUND: 404,
  UNKNOWN_HANDLE: 404,
  UNKNOWN_TOOL: 404,
  TOO_LARGE: 413,
  INTEGRITY: 500,
  BUSY: 503,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  NOT_AVAILABLE: 501,
  HISTORY: 500,
  INTERNAL: 500,
};

/**
 * The HTTP status of an error code.
 *
 * @param code One of the stable error codes.
 * @returns Its status from {@link STATUS}.
 */
export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}
