/**
 * Exact string replacement in a workspace file (the `str_replace` edit
 * format). The file is read through the workspace (which records every line
 * as seen), the replacement is turned into an anchored patch over just the
 * touched lines and committed through the workspace, so it is confined to the
 * root, atomic, keeps the file's line endings and BOM, and is refused (with
 * nothing written) when the file changes between reading and writing.
 *
 * @module
 */
import { BOM, splitLines } from "../anchor/split.ts";
import { HashlineError, PatchRefusedError, TooLargeError } from "../errors.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import { editContent } from "../patch/apply.ts";
import { findString, noChange, replaceMatches } from "../patch/string_edit.ts";
import type { PatchOp } from "../patch/types.ts";
import type { Workspace } from "../workspace/mod.ts";
import type { CheckMode, SyntaxCheck } from "../check/mod.ts";

/** One replacement request. */
export interface StrReplaceRequest {
  /** The file, relative to the workspace root. */
  path: string;
  /** The text to find, exactly as the file holds it. */
  oldString: string;
  /** The text to put in its place. */
  newString: string;
  /** Replace every occurrence (otherwise exactly one must match). */
  replaceAll: boolean;
  /** Whose reads count. */
  session: string;
  /** Syntax check of the edit (default: the workspace's). */
  check?: CheckMode;
}

/** What a replacement did. */
export interface StrReplaceResult {
  /** Root-relative path. */
  path: string;
  /** How many occurrences were replaced. */
  replaced: number;
  /** Lines added, as the diff counts them. */
  added: number;
  /** Lines removed, as the diff counts them. */
  removed: number;
  /** Unified diff. */
  diff: string;
  /** What a model reads: `Edited PATH (+a -r): replaced N occurrence(s)` and the diff. */
  summary: string;
  /** Things that did not stop the edit but that the caller should know (a syntax error it introduced). */
  warnings: string[];
  /** Syntax checks of the edited file. */
  checks: SyntaxCheck[];
  /** The history entry of this change (absent with history off). */
  entry?: string;
}

/** Files above this size are edited with anchored patches, which stream. */
export const MAX_STR_REPLACE_BYTES: number = 64 * 1024 * 1024;

interface Span {
  first: number;
  last: number;
}

/**
 * Replaces `oldString` by `newString` in a file of the workspace.
 *
 * @throws {EditRefusedError} `NO_MATCH` or `MANY_MATCHES` (nothing written).
 * @throws {HashlineError} `CHANGED` when the file changed while the edit was prepared.
 * @throws {TooLargeError} Files over 64 MiB.
 */
export async function strReplaceInWorkspace(
  workspace: Workspace,
  request: StrReplaceRequest,
): Promise<StrReplaceResult> {
  const { session, replaceAll } = request;
  if (request.oldString === "") {
    throw new TypeError(
      'Field "old_string" must not be empty: copy the exact text to replace.',
    );
  }
  const info = await workspace.stat(request.path);
  if (info.exists && info.size !== null && info.size > MAX_STR_REPLACE_BYTES) {
    throw new TooLargeError(
      `Cannot edit "${info.path}" by string replacement: it is ${info.size} bytes, over ${MAX_STR_REPLACE_BYTES}. Use anchored edits for a file this large.`,
    );
  }
  // Every line enters the session's record here, so the patch built below
  // passes the read-before-edit rule, and any change after this read
  // refuses it.
  const file = await workspace.readText(request.path, { session });
  const display = file.path;
  const content = file.text;
  const split = splitLines(content);
  const body = split.bom ? content.slice(1) : content;

  // Text copied from a read has bare `\n` between lines; a file that ends
  // its lines with CRLF is also searched for the CRLF spelling.
  const crlf = body.includes("\r\n") && /(^|[^\r])\n/.test(request.oldString);
  const { hits: found, which } = findString(
    body,
    crlf
      ? [request.oldString, request.oldString.replace(/\r?\n/g, "\r\n")]
      : [request.oldString],
    replaceAll,
    {
      notFound: () =>
        `old_string was not found in ${display}, so nothing was written. Read the file again and copy the text exactly (whitespace included, without line numbers).`,
      many: (n) =>
        `old_string occurs ${n} times in ${display}, so nothing was written. Include more surrounding lines to make it unique, or set replace_all to change every occurrence.`,
    },
  );
  const oldString = which === 0
    ? request.oldString
    : request.oldString.replace(/\r?\n/g, "\r\n");
  const newString = which === 0
    ? request.newString
    : request.newString.replace(/\r?\n/g, "\r\n");

  const starts: number[] = [];
  let at = 0;
  for (let i = 0; i < split.lines.length; i++) {
    starts.push(at);
    at += split.lines[i].length + split.terminators[i].length;
  }
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const spans: Span[] = [];
  for (const s of found) {
    const e = s + oldString.length;
    const first = lineAt(s);
    let last = lineAt(e - 1);
    // A match that ends with a line's terminator joins the next line to the replacement.
    if (
      e ===
        starts[last] + split.lines[last].length + split.terminators[last].length
    ) {
      if (last + 1 < split.lines.length) last++;
    }
    const prev = spans[spans.length - 1];
    if (prev && first <= prev.last) prev.last = Math.max(prev.last, last);
    else spans.push({ first, last });
  }

  const ops: PatchOp[] = [];
  for (const { first, last } of spans) {
    const from = starts[first];
    const endsFile = last === split.lines.length - 1;
    const to = endsFile ? body.length : starts[last] + split.lines[last].length;
    const region = body.slice(from, to);
    let replaced = "";
    let cursor = 0;
    for (const s of found) {
      if (s < from || s >= to) continue;
      replaced += region.slice(cursor, s - from) + newString;
      cursor = s - from + oldString.length;
    }
    replaced += region.slice(cursor);
    let lines = replaced.split(/\r?\n/);
    if (endsFile && split.finalNewline) {
      // The region took the final terminator with it; the file keeps its own.
      if (lines[lines.length - 1] === "") lines.pop();
    } else if (endsFile && lines.length > 1 && lines[lines.length - 1] === "") {
      lines.pop();
    }
    if (replaced === "" && !(endsFile && split.finalNewline)) lines = [""];
    const op = narrowOp(split.lines, first, last, lines);
    if (op) ops.push(op);
  }
  const exact = (split.bom ? BOM : "") +
    replaceMatches(body, found, oldString.length, newString);
  if (exact === content) throw noChange(display);
  const n = found.length;
  const counted = `replaced ${n} ${n === 1 ? "occurrence" : "occurrences"}`;
  // Line ops keep the file's final-newline state; when the replacement itself
  // changes it (text at the very end of the file), the exact new content is
  // written whole instead.
  const whole = ops.length === 0 ||
    editContent(content, ops).content !== exact;
  let edited: { path: string; added: number; removed: number; diff: string };
  let checked: { warnings: string[]; checks: SyntaxCheck[]; entry?: string };
  try {
    if (whole) {
      edited = checked = await workspace.write(display, exact, {
        session,
        check: request.check,
      });
    } else {
      const r = await workspace.patch({ files: [{ path: display, ops }] }, {
        session,
        check: request.check,
      });
      edited = r.files[0];
      checked = r;
    }
  } catch (error) {
    if (isStale(error)) throw changed(display);
    throw error;
  }
  const head =
    `Edited ${edited.path} (+${edited.added} -${edited.removed}): ${counted}.`;
  return {
    path: edited.path,
    replaced: n,
    added: edited.added,
    removed: edited.removed,
    diff: edited.diff,
    summary: (edited.diff ? `${head}\n${edited.diff}` : head) +
      checked.warnings.map((w) => `\n\nWarning: ${w}`).join(""),
    warnings: checked.warnings,
    checks: checked.checks,
    ...(checked.entry ? { entry: checked.entry } : {}),
  };
}

const STALE_CODES = new Set([
  "STALE_ANCHOR",
  "OUT_OF_RANGE",
  "NOT_READ",
  "CHANGED",
]);

/** Whether a refusal only says the file moved on since it was read. */
function isStale(error: unknown): boolean {
  return error instanceof PatchRefusedError &&
    error.problems.every((p) => STALE_CODES.has(p.code));
}

function changed(display: string): HashlineError {
  return new HashlineError(
    "CHANGED",
    `${display} changed while the edit was being made, so nothing was written. Read it again and resend the edit.`,
  );
}

/**
 * The smallest op that turns lines first..last (0-based) into `next`: lines
 * the replacement leaves as they were are not rewritten, so the diff and the
 * counts show only what changed.
 */
function narrowOp(
  old: string[],
  first: number,
  last: number,
  next: string[],
): PatchOp | null {
  let lo = first;
  let hi = last;
  let nlo = 0;
  let nhi = next.length - 1;
  while (lo <= hi && nlo <= nhi && old[lo] === next[nlo]) {
    lo++;
    nlo++;
  }
  while (hi >= lo && nhi >= nlo && old[hi] === next[nhi]) {
    hi--;
    nhi--;
  }
  const lines = next.slice(nlo, nhi + 1);
  if (lo > hi) {
    if (lines.length === 0) return null;
    // Anchored on a line of this span, so it never touches a neighbouring op.
    if (lo <= last) {
      return { op: "insert_before", anchor: anchorOf(lo + 1, old[lo]), lines };
    }
    return { op: "insert_after", anchor: anchorOf(lo, old[lo - 1]), lines };
  }
  const range = hi > lo ? { end: anchorOf(hi + 1, old[hi]) } : {};
  if (lines.length === 0) {
    return { op: "delete", start: anchorOf(lo + 1, old[lo]), ...range };
  }
  return { op: "replace", start: anchorOf(lo + 1, old[lo]), ...range, lines };
}

function anchorOf(line: number, text: string): string {
  return `${line}:${hex2(foldHash(lineHash32(text)))}`;
}
