/**
 * Codex's `apply_patch` envelope, parsed (docs/patch-format.md#apply_patch):
 * `*** Begin Patch`, then `*** Add File: P` (`+` rows), `*** Delete File: P`
 * and `*** Update File: P` (an optional `*** Move to: Q`, then `@@` chunks
 * of ` `, `-` and `+` rows, each optionally ending `*** End of File`), and
 * `*** End Patch`.
 *
 * @module
 */
import type { DialectFile, DialectHunk, DialectPatch } from "./types.ts";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARK = "*** End of File";

function refuse(n: number, row: string | undefined, expected: string): never {
  throw new SyntaxError(
    `Cannot parse apply_patch line ${n}: ${
      row === undefined
        ? "the patch ends here"
        : `${JSON.stringify(row.slice(0, 80))} is not what comes here`
    }; expected ${expected}.`,
  );
}

function pathOf(row: string, prefix: string, n: number): string {
  const path = row.slice(prefix.length).trim();
  if (path === "") refuse(n, row, `a path after "${prefix.trim()}"`);
  return path;
}

/**
 * Parses an `apply_patch` envelope.
 *
 * @param text The patch text (its first non-blank line is `*** Begin Patch`).
 * @param firstLine The line number of the text's first line in what the caller sent.
 * @returns The files and hunks, in order.
 * @throws {SyntaxError} Naming the line and what was expected there.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseApplyPatch } from "./apply_patch.ts";
 * const p = parseApplyPatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-x\n+y\n*** End Patch\n");
 * assert.deepEqual(p.files[0].hunks[0].rows, [{ kind: "-", text: "x" }, { kind: "+", text: "y" }]);
 * assert.throws(() => parseApplyPatch("*** Begin Patch\n*** Update File: a.txt\n-x\n"), /line 4: the patch ends here; expected "\*\*\* End Patch"/);
 * ```
 */
export function parseApplyPatch(text: string, firstLine = 1): DialectPatch {
  const rows = text.split("\n").map((r) =>
    r.endsWith("\r") ? r.slice(0, -1) : r
  );
  if (rows[rows.length - 1] === "") rows.pop();
  let i = 0;
  const at = (k: number): number => k + firstLine;
  while (i < rows.length && rows[i].trim() === "") i++;
  if (rows[i]?.trim() !== BEGIN) refuse(at(i), rows[i], `"${BEGIN}"`);
  i++;
  const files: DialectFile[] = [];
  const fileStart =
    `"${ADD.trim()} PATH", "${DELETE.trim()} PATH", "${UPDATE.trim()} PATH" or "${END}"`;
  for (;;) {
    if (i >= rows.length) {
      refuse(at(i), undefined, `"${END}" to close the patch`);
    }
    const row = rows[i];
    if (row.trim() === END) {
      i++;
      break;
    }
    if (row.startsWith(ADD)) {
      const file: DialectFile = {
        kind: "add",
        path: pathOf(row, ADD, at(i)),
        hunks: [],
        lines: [],
        line: at(i),
      };
      i++;
      while (i < rows.length && rows[i].startsWith("+")) {
        file.lines!.push(rows[i].slice(1));
        i++;
      }
      files.push(file);
      continue;
    }
    if (row.startsWith(DELETE)) {
      files.push({
        kind: "delete",
        path: pathOf(row, DELETE, at(i)),
        hunks: [],
        line: at(i),
      });
      i++;
      continue;
    }
    if (row.startsWith(UPDATE)) {
      const file: DialectFile = {
        kind: "update",
        path: pathOf(row, UPDATE, at(i)),
        hunks: [],
        line: at(i),
      };
      i++;
      if (rows[i]?.startsWith(MOVE)) {
        file.moveTo = pathOf(rows[i], MOVE, at(i));
        i++;
      }
      i = readChunks(rows, i, file, at);
      if (file.hunks.length === 0 && file.moveTo === undefined) {
        refuse(
          at(i),
          rows[i],
          `an "@@" chunk of " ", "-" and "+" rows for ${file.path}`,
        );
      }
      files.push(file);
      continue;
    }
    refuse(at(i), row, fileStart);
  }
  for (; i < rows.length; i++) {
    if (rows[i].trim() !== "") refuse(at(i), rows[i], `nothing after "${END}"`);
  }
  if (files.length === 0) refuse(at(i - 1), END, fileStart);
  return { name: "apply_patch", files };
}

/** Reads the chunks of an update from row `i`; returns the row after them. */
function readChunks(
  rows: string[],
  i: number,
  file: DialectFile,
  at: (k: number) => number,
): number {
  let hunk: DialectHunk | null = null;
  for (; i < rows.length; i++) {
    const row = rows[i];
    if (row.startsWith("***")) {
      if (row.trim() !== EOF_MARK) break;
      if (!hunk || hunk.rows.length === 0) {
        refuse(at(i), row, `" ", "-" or "+" rows before "${EOF_MARK}"`);
      }
      hunk.atEnd = true;
      hunk = null;
      continue;
    }
    if (row.startsWith("@@")) {
      if (hunk && hunk.rows.length === 0) {
        refuse(at(i), row, `" ", "-" or "+" rows after the "@@" line above`);
      }
      const header = row.slice(2).trim();
      hunk = { rows: [], line: at(i), ...(header ? { header } : {}) };
      file.hunks.push(hunk);
      continue;
    }
    const kind = row === "" ? " " : row[0];
    if (kind !== " " && kind !== "-" && kind !== "+") {
      refuse(
        at(i),
        row,
        `a " ", "-" or "+" row, an "@@" line or "${EOF_MARK}"`,
      );
    }
    if (!hunk) {
      // The first chunk of a file may leave out its "@@" line.
      if (file.hunks.length > 0) {
        refuse(at(i), row, `an "@@" line before the rows of a new chunk`);
      }
      hunk = { rows: [], line: at(i) };
      file.hunks.push(hunk);
    }
    hunk.rows.push({ kind, text: row.slice(1) });
  }
  if (hunk && hunk.rows.length === 0) {
    refuse(at(i), rows[i], `" ", "-" or "+" rows after the "@@" line`);
  }
  return i;
}
