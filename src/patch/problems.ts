/**
 * The one place edit refusals are built (docs/patch-format.md#validation):
 * every problem a rule finds, and the few a workspace meets while it writes
 * (the file changed under it, the file was never read), take their code and
 * message from here.
 *
 * @module
 */
import {
  changed,
  changedError,
  type ErrorCode,
  PatchRefusedError,
  type Problem,
} from "../errors.ts";
import { opWhere } from "./ops.ts";
import type { EntryOp } from "./types.ts";

export type { Problem };
// The file-changed refusal lives beside the error classes, so the steps
// below the rules (fs/, lock/, stream/, commit/) can raise it.
export { changed, changedError };

/** Runs of full hashes a problem showed, from line `start` on. */
export type Shown = { start: number; hashes: number[] };

/**
 * Builds one problem; `path` is left out when empty, `shown` when it shows nothing.
 *
 * @param code The problem's code.
 * @param message A sentence a model can act on.
 * @param where `path`, `line` and `shown`, each optional.
 * @returns The problem.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { problem } from "./problems.ts";
 * assert.deepEqual(problem("OVERLAP", "x", { path: "", line: 2 }), { code: "OVERLAP", message: "x", line: 2 });
 * ```
 */
export function problem(
  code: ErrorCode,
  message: string,
  where: { path?: string; line?: number; shown?: Shown[] } = {},
): Problem {
  const p: Problem = { code, message };
  if (where.path !== undefined && where.path !== "") p.path = where.path;
  if (where.line !== undefined) p.line = where.line;
  if (where.shown && where.shown.length > 0) p.shown = where.shown;
  return p;
}

/**
 * The refusal listing problems found by the rules (nothing is written).
 *
 * @param problems Every problem, across every file.
 * @returns The refusal to throw.
 */
export function refusal(problems: Problem[]): PatchRefusedError {
  return new PatchRefusedError(problems);
}

/**
 * The `NOT_READ` problem: the session never read the file it edits.
 *
 * @param path The file, as shown to the model.
 * @param then What to do after reading it ("resend the patch …").
 * @returns The problem.
 */
export function notRead(path: string, then: string): Problem {
  return problem(
    "NOT_READ",
    `this session has not read the file: read it first, then ${then}.`,
    { path },
  );
}

/**
 * The `OUT_OF_RANGE` problem of an op that names line `line` of a file of
 * `count` lines by its number alone.
 *
 * @param label The op, as {@link opLabel} names it.
 * @param line The line named.
 * @param count Lines the file has now.
 * @param path The file.
 * @returns The problem.
 */
export function lineOutOfRange(
  label: string,
  line: number,
  count: number,
  path?: string,
): Problem {
  return problem(
    "OUT_OF_RANGE",
    `In ${label}, line ${line} is out of range: the file has ${count} ${
      count === 1 ? "line" : "lines"
    }${
      count === 0
        ? " (it is empty; use append or prepend)"
        : `; name a line from 1 to ${count} (or append after the last)`
    }, then resend.`,
    { path, line },
  );
}

/**
 * The `NOT_READ` problem of an op that names, by its number alone, a line
 * the session was never shown.
 *
 * @param label The op, as {@link opLabel} names it.
 * @param line The line named.
 * @param path The file.
 * @returns The problem.
 */
export function lineNeverShown(
  label: string,
  line: number,
  path?: string,
): Problem {
  return problem(
    "NOT_READ",
    `In ${label}, line ${line} was never shown to this session: read it first (offset ${line}), then resend.`,
    { path, line },
  );
}

/** Names an op in messages: `op 2 (replace 12:a3..14:0e)`. */
export function opLabel(op: EntryOp, index: number): string {
  return `op ${index + 1} (${op.op}${opWhere(op)})`;
}

/** `1 line`, `3 lines`. */
export function linesWord(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

/** The text with its first letter upper-cased. */
export function capital(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}
