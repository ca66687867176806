/**
 * The single-edit call of the pydantic-ai-backend shape
 * (docs/patch-format.md#applyhashlineedit): errors come back as a sentence,
 * never as an exception. It has no session read record, so it checks the
 * 2-hex fold of each line only.
 *
 * @module
 */

import { readPrefixOf } from "../anchor/anchor.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import { ContentIndex, splicePlan } from "./_content.ts";
import { lineFault } from "./_line_fault.ts";

/** One anchored edit: replace (or delete) lines start..end, or insert after start. */
export interface HashlineEdit {
  /** First line, 1-based. */
  startLine: number;
  /** Its two-hex-digit hash from the read. */
  startHash: string;
  /** Last line of a range (with `endHash`, or neither). */
  endLine?: number;
  /** Its hash (with `endLine`, or neither). */
  endHash?: string;
  /** The new lines, split at `\n` or `\r\n` (one trailing break dropped); `""` deletes. */
  newContent: string;
  /** Insert after `startLine` instead of replacing. */
  insertAfter?: boolean;
}

/** The content after an edit, or the content unchanged and why. */
export interface HashlineEditResult {
  /** The new content, or the input unchanged when `error` is set. */
  content: string;
  /** `null` on success, otherwise a sentence saying what to do. */
  error: string | null;
}

function typeCheck(
  content: unknown,
  edit: unknown,
): asserts edit is HashlineEdit {
  const want = (ok: boolean, what: string, value: unknown): void => {
    if (!ok) {
      throw new TypeError(
        `applyHashlineEdit: ${what}, got ${
          value === null ? "null" : typeof value
        }.`,
      );
    }
  };
  want(typeof content === "string", "content must be a string", content);
  want(
    edit !== null && typeof edit === "object",
    "edit must be an object",
    edit,
  );
  const e = edit as Record<string, unknown>;
  want(
    typeof e.startLine === "number",
    "startLine must be a number",
    e.startLine,
  );
  want(
    typeof e.startHash === "string",
    "startHash must be a string",
    e.startHash,
  );
  want(
    typeof e.newContent === "string",
    "newContent must be a string",
    e.newContent,
  );
  want(
    e.endLine == null || typeof e.endLine === "number",
    "endLine must be a number when given",
    e.endLine,
  );
  want(
    e.endHash == null || typeof e.endHash === "string",
    "endHash must be a string when given",
    e.endHash,
  );
  want(
    e.insertAfter == null || typeof e.insertAfter === "boolean",
    "insertAfter must be a boolean when given",
    e.insertAfter,
  );
}

function normalHash(hash: string): string | null {
  const h = hash.trim().replace(/\|$/, "").toLowerCase();
  return /^[0-9a-f]{2}$/.test(h) ? h : null;
}

/**
 * Applies one anchored edit: replaces lines `startLine..endLine` (or the
 * single start line) with `newContent`, or inserts it after `startLine`
 * when `insertAfter` is set. The hashes are checked first; any mistake comes
 * back as `error` with `content` unchanged. Line endings, BOM and the
 * final-newline state are kept as by `editContent`.
 *
 * @param content The content the hashes were read from.
 * @param edit `{ startLine, startHash, endLine?, endHash?, newContent, insertAfter? }`.
 * @returns `{ content, error }`: the new content and `null`, or the input and a sentence.
 * @throws {TypeError} Only when an argument has the wrong type.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyHashlineEdit } from "./hashline_edit.ts";
 * const ok = applyHashlineEdit("x\ny\n", { startLine: 2, startHash: "4a", newContent: "Y\n" });
 * assert.deepEqual(ok, { content: "x\nY\n", error: null });
 * const bad = applyHashlineEdit("x\ny\n", { startLine: 2, startHash: "f1", newContent: "Y" });
 * assert.equal(bad.content, "x\ny\n");
 * assert.equal(
 *   bad.error,
 *   "Hash mismatch at line 2: expected 'f1', got '4a'. File may have changed — re-read it first.",
 * );
 * ```
 */
export function applyHashlineEdit(
  content: string,
  edit: HashlineEdit,
): HashlineEditResult {
  typeCheck(content, edit);
  const refuse = (error: string): HashlineEditResult => ({ content, error });
  const idx = new ContentIndex(content);
  const { startLine, newContent } = edit;
  const endLine = edit.endLine ?? undefined;
  const endHash = edit.endHash ?? undefined;
  const insertAfter = edit.insertAfter === true;

  const lineError = (name: string, line: number): string | null => {
    if (!Number.isSafeInteger(line) || line < 1) {
      return `${name} must be a whole line number from 1, got ${line}.`;
    }
    if (!idx.has(line)) {
      const n = idx.lineCount;
      const has = `file has ${n} ${n === 1 ? "line" : "lines"}`;
      return n === 0
        ? `Line ${line} out of range (${has}): the file is empty, so there is no line to edit.`
        : `Line ${line} out of range (${has}); re-read the file and use a line from 1 to ${n}.`;
    }
    return null;
  };
  const hashError = (
    name: string,
    line: number,
    given: string,
  ): string | null => {
    const want = normalHash(given);
    if (want === null) {
      return `${name} ${
        JSON.stringify(given)
      } is not a line hash: use the two hex digits shown in the read, such as 'a3'.`;
    }
    const got = hex2(foldHash(idx.hash32(line)));
    return want === got
      ? null
      : `Hash mismatch at line ${line}: expected '${want}', got '${got}'. File may have changed — re-read it first.`;
  };

  const startError = lineError("startLine", startLine);
  if (startError) return refuse(startError);
  if (insertAfter && (endLine !== undefined || endHash !== undefined)) {
    return refuse(
      "endLine/endHash cannot be combined with insertAfter: an insert goes after startLine only.",
    );
  }
  if ((endLine === undefined) !== (endHash === undefined)) {
    return refuse(
      "endLine and endHash go together: give both, or neither for a single line.",
    );
  }
  const startHashError = hashError("startHash", startLine, edit.startHash);
  if (startHashError) return refuse(startHashError);
  let last = startLine;
  if (endLine !== undefined && endHash !== undefined) {
    if (Number.isSafeInteger(endLine) && endLine < startLine) {
      return refuse(
        `endLine (${endLine}) comes before startLine (${startLine}): the range must run forwards.`,
      );
    }
    const endError = lineError("endLine", endLine) ??
      hashError("endHash", endLine, endHash);
    if (endError) return refuse(endError);
    last = endLine;
  }

  let lines: string[] = [];
  if (newContent !== "") {
    const body = newContent.endsWith("\r\n")
      ? newContent.slice(0, -2)
      : newContent.endsWith("\n")
      ? newContent.slice(0, -1)
      : newContent;
    lines = body.split(/\r?\n/);
  } else if (insertAfter) {
    return refuse("Nothing to insert: newContent is empty.");
  }
  for (let i = 0; i < lines.length; i++) {
    const fault = lineFault(lines[i]);
    if (fault) {
      return refuse(
        `Line ${i + 1} of newContent ${fault}. Nothing was changed.`,
      );
    }
  }
  const pasted = lines.map(readPrefixOf).find((p) => p !== null);
  if (pasted) {
    return refuse(
      `newContent has a line starting with the read prefix "${pasted}": lines are written exactly as given, so send them without their LINE:HH| prefix.`,
    );
  }

  const plan = insertAfter
    ? [{ at: startLine + 1, deleteCount: 0, lines }]
    : [{ at: startLine, deleteCount: last - startLine + 1, lines }];
  return { content: splicePlan(idx, plan).content, error: null };
}
