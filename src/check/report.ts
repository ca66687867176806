/**
 * The text a model reads about a check (docs/syntax-checks.md): each
 * introduced error with its anchor and the lines around it, why a file was
 * not checked, and the `SYNTAX` problems a refusal lists.
 *
 * @module
 */
import { formatLine } from "../anchor/format.ts";
import type { Problem } from "../errors.ts";
import type { RawError } from "./_engine.ts";
import type { SyntaxCheck, SyntaxIssue } from "./types.ts";

function messageOf(e: RawError): string {
  if (e.kind === "missing") return `missing "${e.token}"`;
  return e.token === "" ? "unexpected text" : `unexpected "${e.token}"`;
}

/**
 * One error of a parse as a result shows it: its line (kept within the
 * content), column, anchor, message and the lines around it (±2).
 *
 * @param e The error.
 * @param lines The new content's lines.
 * @returns The issue.
 */
export function issueOf(e: RawError, lines: readonly string[]): SyntaxIssue {
  const line = Math.max(1, Math.min(e.line, lines.length));
  const shown: string[] = [];
  for (
    let n = Math.max(1, line - 2);
    n <= Math.min(lines.length, line + 2);
    n++
  ) {
    shown.push(formatLine(n, lines[n - 1]));
  }
  const here = lines.length > 0 ? formatLine(line, lines[line - 1]) : "1:00|";
  return {
    line,
    column: e.column,
    anchor: here.slice(0, here.indexOf("|")),
    message: messageOf(e),
    context: shown.join("\n"),
  };
}

/**
 * The text a model reads about a check: the introduced errors, each with its
 * anchor and the lines around it, or why the file was not checked; `""` when
 * the edit broke nothing.
 *
 * @param check A check's answer.
 * @param written False when the content was refused (the lines shown are as
 *   the edit would have left them).
 * @returns The text (no leading path; callers prefix it).
 */
export function describeCheck(check: SyntaxCheck, written = true): string {
  if (check.status === "skipped") {
    return `syntax ${check.note ?? "not checked"}.`;
  }
  if (check.status === "ok") return "";
  const n = check.errors.length;
  const head = `the edit introduces ${n} ${check.language} syntax ${
    n === 1 ? "error" : "errors"
  }${
    written
      ? "; fix it with a patch built from these fresh anchors:"
      : ", so nothing was written; the lines as the edit would have left them:"
  }`;
  const body = check.errors.map((e) =>
    `- line ${e.line} (${e.anchor}): ${e.message}\n${
      e.context.split("\n").map((l) => `  ${l}`).join("\n")
    }`
  );
  return [head, ...body].join("\n");
}

/**
 * The problems a refusal under `check: "refuse"` lists: one `SYNTAX`
 * problem per file whose edit introduced errors.
 *
 * @param checks The answers of the edit's checks.
 * @returns The problems (empty when no edit broke the syntax).
 */
export function syntaxProblems(checks: readonly SyntaxCheck[]): Problem[] {
  return checks.filter((c) => c.status === "broken").map((c) => ({
    code: "SYNTAX",
    path: c.path,
    line: c.errors[0]?.line,
    message: describeCheck(c, false),
  }));
}
