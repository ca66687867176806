/**
 * Unified diffs, parsed (docs/patch-format.md#unified-diffs): `--- a/P` /
 * `+++ b/P` (also without the `a/` and `b/` prefixes, and with a tab and a
 * timestamp after the path), `git diff`'s `diff --git` header and its
 * `index`, `new file mode`, `deleted file mode`, `similarity index` and
 * `rename from/to` lines, `@@ -l,n +l,n @@` hunks, `/dev/null` for created
 * and deleted files, `\ No newline at end of file`, several files in one diff.
 *
 * @module
 */
import type { DialectFile, DialectHunk, DialectPatch } from "./types.ts";

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(?: .*)?$/;
const NULL = "/dev/null";

function refuse(n: number, row: string | undefined, expected: string): never {
  throw new SyntaxError(
    `Cannot parse unified diff line ${n}: ${
      row === undefined
        ? "the diff ends here"
        : `${JSON.stringify(row.slice(0, 80))} is not what comes here`
    }; expected ${expected}.`,
  );
}

/** A path as `git diff` writes it: C-quoted when it holds unusual characters. */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"') || path.length < 2) {
    return path;
  }
  const bytes: number[] = [];
  const body = path.slice(1, -1);
  const simple: Record<string, number> = {
    n: 10,
    t: 9,
    r: 13,
    '"': 34,
    "\\": 92,
    a: 7,
    b: 8,
    f: 12,
    v: 11,
  };
  const enc = new TextEncoder();
  for (let k = 0; k < body.length; k++) {
    const c = body[k];
    if (c !== "\\") {
      bytes.push(...enc.encode(c));
      continue;
    }
    const next = body[++k];
    if (/[0-7]/.test(next ?? "")) {
      bytes.push(parseInt(body.slice(k, k + 3), 8));
      k += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `---` / `+++` line: unquoted, without a tab and timestamp. */
function headerPath(row: string): string {
  const rest = row.slice(4);
  const tab = rest.startsWith('"') ? -1 : rest.indexOf("\t");
  return unquote((tab >= 0 ? rest.slice(0, tab) : rest).trimEnd());
}

/** `a/P` and `b/Q` lose their prefixes when both sides carry them (or are `/dev/null`). */
function stripPrefixes(
  from: string,
  to: string,
): [string, string] {
  const prefixed = (from === NULL || from.startsWith("a/")) &&
    (to === NULL || to.startsWith("b/")) && !(from === NULL && to === NULL);
  if (!prefixed) return [from, to];
  return [
    from === NULL ? from : from.slice(2),
    to === NULL ? to : to.slice(2),
  ];
}

/** The paths of `diff --git a/P b/Q` (P and Q the same when not quoted). */
function gitPaths(row: string): [string, string] | null {
  const rest = row.slice("diff --git ".length);
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (rest.includes('"') && quoted) {
    return stripPrefixes(unquote(quoted[1]), unquote(quoted[2]));
  }
  // Unquoted paths may hold spaces: the two halves name the same path.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const [a, b] = [rest.slice(0, half), rest.slice(half + 1)];
    const [p, q] = stripPrefixes(a, b);
    if (p === q) return [p, q];
  }
  return quoted ? stripPrefixes(quoted[1], quoted[2]) : null;
}

/**
 * Parses a unified diff of one or more files.
 *
 * @param text The diff (its first non-blank line is `diff --git` or `--- `).
 * @param firstLine The line number of the text's first line in what the caller sent.
 * @returns The files and hunks, in order.
 * @throws {SyntaxError} Naming the line and what was expected there.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseUnifiedDiff } from "./unified_diff.ts";
 * const d = parseUnifiedDiff("--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n");
 * assert.equal(d.files[0].path, "x.txt");
 * assert.equal(d.files[0].hunks[0].oldStart, 1);
 * assert.throws(() => parseUnifiedDiff("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n"), /line 5: the diff ends here/);
 * ```
 */
export function parseUnifiedDiff(text: string, firstLine = 1): DialectPatch {
  const rows = text.split("\n").map((r) =>
    r.endsWith("\r") ? r.slice(0, -1) : r
  );
  if (rows[rows.length - 1] === "") rows.pop();
  const at = (k: number): number => k + firstLine;
  const files: DialectFile[] = [];
  let i = 0;
  const skipBlank = () => {
    while (i < rows.length && rows[i].trim() === "") i++;
  };
  skipBlank();
  while (i < rows.length) {
    const start = i;
    let from: string | undefined;
    let to: string | undefined;
    let created = false;
    let deleted = false;
    let renamed = false;
    if (rows[i].startsWith("diff --git ")) {
      // Paths with spaces that differ (a rename) are taken from the lines below.
      [from, to] = gitPaths(rows[i]) ?? [undefined, undefined];
      i++;
      for (; i < rows.length; i++) {
        const row = rows[i];
        if (/^(index |similarity index |dissimilarity index )/.test(row)) {
          continue;
        }
        if (row.startsWith("new file mode ")) created = true;
        else if (row.startsWith("deleted file mode ")) deleted = true;
        else if (row.startsWith("rename from ")) {
          from = unquote(row.slice("rename from ".length));
          renamed = true;
        } else if (row.startsWith("rename to ")) {
          to = unquote(row.slice("rename to ".length));
          renamed = true;
        } else if (
          /^(old mode |new mode |copy from |copy to |Binary files |GIT binary patch)/
            .test(row)
        ) {
          throw new SyntaxError(
            `Cannot parse unified diff line ${at(i)}: ${
              JSON.stringify(row.slice(0, 80))
            } asks for what a hashline patch does not do (mode changes, copies and binary files); send text changes only.`,
          );
        } else break;
      }
    }
    if (i < rows.length && rows[i].startsWith("--- ")) {
      const minus = headerPath(rows[i]);
      i++;
      if (!rows[i]?.startsWith("+++ ")) {
        refuse(at(i), rows[i], `"+++ b/PATH" after "--- "`);
      }
      const plus = headerPath(rows[i]);
      i++;
      const [p, q] = stripPrefixes(minus, plus);
      if (p === NULL && q === NULL) {
        refuse(at(i - 1), rows[i - 1], "a path on one side of /dev/null");
      }
      if (p === NULL) created = true;
      else from = p;
      if (q === NULL) deleted = true;
      else to = q;
      if (from === undefined) from = to;
      if (to === undefined) to = from;
    } else if (!rows[start].startsWith("diff --git ")) {
      refuse(at(i), rows[i], '"diff --git a/PATH b/PATH" or "--- a/PATH"');
    }
    const hunks: DialectHunk[] = [];
    while (i < rows.length && rows[i].startsWith("@@")) {
      i = readHunk(rows, i, hunks, at);
    }
    if (from === undefined || to === undefined) {
      refuse(
        at(start),
        rows[start],
        '"diff --git a/PATH b/PATH" naming one path, or "rename from" and "rename to" lines',
      );
    }
    const path = created ? to : from;
    const file: DialectFile = {
      kind: created ? "add" : deleted ? "delete" : "update",
      path,
      hunks,
      line: at(start),
    };
    if (created) {
      file.lines = hunks.flatMap((h) =>
        h.rows.filter((r) => r.kind !== "-").map((r) => r.text)
      );
      if (hunks.some((h) => h.rows.some((r) => r.kind !== "+"))) {
        refuse(
          hunks[0].line,
          "@@",
          'only "+" rows in the hunk of a created file',
        );
      }
      file.hunks = [];
    } else if (deleted) {
      if (hunks.some((h) => h.rows.some((r) => r.kind !== "-"))) {
        refuse(
          hunks[0].line,
          "@@",
          'only "-" rows in the hunk of a deleted file',
        );
      }
    } else if (renamed || (to !== undefined && to !== from)) {
      file.moveTo = to;
    } else if (hunks.length === 0) {
      refuse(at(i), rows[i], `an "@@ -l,n +l,n @@" hunk for ${path}`);
    }
    files.push(file);
    skipBlank();
  }
  if (files.length === 0) {
    refuse(at(i), undefined, '"diff --git" or "--- a/PATH"');
  }
  return { name: "unified_diff", files };
}

/** Reads one hunk from row `i` into `hunks`; returns the row after it. */
function readHunk(
  rows: string[],
  i: number,
  hunks: DialectHunk[],
  at: (k: number) => number,
): number {
  const m = HUNK.exec(rows[i]);
  if (!m) refuse(at(i), rows[i], 'a hunk header "@@ -l,n +l,n @@"');
  let oldLeft = m[2] === undefined ? 1 : Number(m[2]);
  let newLeft = m[4] === undefined ? 1 : Number(m[4]);
  const hunk: DialectHunk = { rows: [], oldStart: Number(m[1]), line: at(i) };
  hunks.push(hunk);
  i++;
  while (oldLeft > 0 || newLeft > 0) {
    const row = rows[i];
    const expected =
      `${oldLeft} more old and ${newLeft} more new lines of the hunk at line ${hunk.line} (" ", "-" or "+" rows)`;
    if (row === undefined) refuse(at(i), row, expected);
    if (row.startsWith("\\")) {
      i++;
      continue;
    }
    // Some tools strip the space of an empty context line.
    const kind = row === "" ? " " : row[0];
    if (kind === " " && oldLeft > 0 && newLeft > 0) {
      oldLeft--, newLeft--;
    } else if (kind === "-" && oldLeft > 0) oldLeft--;
    else if (kind === "+" && newLeft > 0) newLeft--;
    else refuse(at(i), row, expected);
    hunk.rows.push({ kind, text: row.slice(1) });
    i++;
  }
  while (i < rows.length && rows[i].startsWith("\\")) i++;
  return i;
}
