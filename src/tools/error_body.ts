/**
 * One mapping from anything thrown to the `{ code, message }` shape that the
 * tool registry, HTTP and MCP all answer with. Statuses are not decided
 * here: only the HTTP layer maps a code to a status.
 *
 * @module
 */
import {
  BinaryContentError,
  HashlineError,
  isErrorCode,
  PatchRefusedError,
} from "../errors.ts";
import type { ToolError } from "./types.ts";

/**
 * The error body of a thrown value. Typed refusals keep their code;
 * `TypeError`, `RangeError` and `SyntaxError` are `BAD_INPUT`; anything else
 * (a refusal whose code is not one of the stable codes included) is
 * `INTERNAL`.
 */
export function toErrorBody(error: unknown): ToolError {
  if (error instanceof HashlineError && isErrorCode(error.code)) {
    const body: ToolError = { code: error.code, message: error.message };
    if (error instanceof PatchRefusedError) body.problems = error.problems;
    if (error instanceof BinaryContentError) body.offset = error.offset;
    return body;
  }
  if (
    error instanceof TypeError || error instanceof RangeError ||
    error instanceof SyntaxError
  ) {
    return { code: "BAD_INPUT", message: error.message };
  }
  return {
    code: "INTERNAL",
    message: `Internal error: ${
      error instanceof Error ? error.message : String(error)
    }`,
  };
}
