/**
 * The one place where error codes become HTTP statuses. Domain errors carry
 * only a stable code; the table below is typed over the closed code list, so
 * a new code cannot be added without deciding its status.
 *
 * @module
 */
import type { ErrorCode } from "../errors.ts";

/** Codes only the HTTP layer produces (guards, routing, authentication). */
export const HTTP_ERROR_CODES = {
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
  REQUEST_TIMEOUT: "REQUEST_TIMEOUT",
  UNKNOWN_TOOL: "UNKNOWN_TOOL",
  NOT_AVAILABLE: "NOT_AVAILABLE",
} as const;

/** One of {@link HTTP_ERROR_CODES}. */
export type HttpErrorCode =
  typeof HTTP_ERROR_CODES[keyof typeof HTTP_ERROR_CODES];

const STATUS: Record<ErrorCode | HttpErrorCode, number> = {
  BAD_INPUT: 400,
  BAD_ANCHOR: 409,
  BAD_LINE: 409,
  STALE_ANCHOR: 409,
  OUT_OF_RANGE: 409,
  OVERLAP: 409,
  NOT_READ: 409,
  PASTED_PREFIX: 409,
  EMPTY_INSERT: 409,
  CHANGED: 409,
  PATCH_REFUSED: 409,
  NO_MATCH: 409,
  MANY_MATCHES: 409,
  EXISTS: 409,
  NO_CHANGE: 409,
  MOVED_ON: 409,
  OUTSIDE_ROOT: 403,
  DENIED: 403,
  PERMISSION: 403,
  NOT_A_FILE: 400,
  NOT_TEXT: 400,
  NOT_FOUND: 404,
  UNKNOWN_HANDLE: 404,
  TOO_LARGE: 413,
  NO_SPACE: 507,
  BUSY: 503,
  INTEGRITY: 500,
  INTERNAL: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  UNKNOWN_TOOL: 404,
  NOT_AVAILABLE: 501,
};

/**
 * The HTTP status of an error code; a code this table does not know (one a
 * custom store or workspace made up) is a 500.
 */
export function statusOf(code: string): number {
  return Object.hasOwn(STATUS, code)
    ? STATUS[code as ErrorCode | HttpErrorCode]
    : 500;
}
