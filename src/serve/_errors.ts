/**
 * One mapping from anything thrown to the `{ code, message }` shape that
 * HTTP, MCP and the tool registry all answer with.
 *
 * @module
 */
import {
  BinaryContentError,
  HashlineError,
  PatchRefusedError,
  type Problem,
} from "../errors.ts";

/** The error part of every refusal: `{ ok: false, error: ErrorBody }`. */
export interface ErrorBody {
  /** Stable upper-snake code (`BAD_INPUT`, `STALE_ANCHOR`, `NOT_FOUND`, …). */
  code: string;
  /** A sentence a model can act on. */
  message: string;
  /** Every problem of a refused patch. */
  problems?: Problem[];
  /** Byte offset of the offending byte of content that is not text. */
  offset?: number;
}

/** An error body with the HTTP status it is answered with. */
export interface MappedError {
  status: number;
  body: ErrorBody;
}

/**
 * Maps a thrown value to a status and an error body. Typed refusals keep
 * their code and status; `TypeError`, `RangeError` and `SyntaxError` are bad
 * input (400); anything else is an internal failure (500).
 */
export function mapError(error: unknown): MappedError {
  if (error instanceof HashlineError) {
    const body: ErrorBody = { code: error.code, message: error.message };
    if (error instanceof PatchRefusedError) body.problems = error.problems;
    if (error instanceof BinaryContentError) body.offset = error.offset;
    return { status: error.status, body };
  }
  if (
    error instanceof TypeError || error instanceof RangeError ||
    error instanceof SyntaxError
  ) {
    return { status: 400, body: { code: "BAD_INPUT", message: error.message } };
  }
  return {
    status: 500,
    body: {
      code: "INTERNAL",
      message: `Internal error: ${
        error instanceof Error ? error.message : String(error)
      }`,
    },
  };
}
