/**
 * Reading the compact text form of a patch (docs/patch-format.md#text-form):
 * `@@ PATH` headers, op lines whose symbols come from the op table, `~` new
 * lines, and move and copy lines.
 *
 * @module
 */
import { formatAnchor, parseAnchor } from "../anchor/anchor.ts";
import { parseBareAnchor } from "../anchor/lean.ts";
import {
  anchorFieldsOfRow,
  OP_ROWS,
  type OpRow,
  rowOf,
  takesLines,
} from "./ops.ts";
import type { FilePatch, MoveOp, Patch, PatchOp } from "./types.ts";
import { unifiedDiffHint } from "./_unified.ts";

const textRows = OP_ROWS.filter((r) => r.text !== undefined);
const symbols = (rows: readonly OpRow[]) => [
  ...new Set(rows.map((r) => r.text!)),
];
const LINE_SYMBOLS = symbols(textRows.filter((r) => r.region !== "source"));
const LINE_SYMBOLS_WITH_LINES = symbols(
  textRows.filter((r) => "lines" in r.fields),
);
const MOVE_SYMBOLS = symbols(textRows.filter((r) => r.region === "source"));
const charClass = (syms: string[]) =>
  `[${syms.map((c) => c.replace(/[-\\\]^]/g, "\\$&")).join("")}]`;
const OP_LINE = new RegExp(`^(${charClass(LINE_SYMBOLS)})\\s*(.*?)\\s*$`);
const RENAME = /^(.*?)\s+->(?:\s+(.*))?$/;
const MOVE_LINE = new RegExp(
  `^(${charClass(MOVE_SYMBOLS)})\\s+(\\S+)\\s*([<>])\\s*(.*?)\\s*$`,
);
const PATH_ANCHOR = /^(.+):(\d+:[0-9A-Fa-f]{2}\|?\*?)$/;
const PATH_LINE = /^(.+):(\d+\*?)$/;

/** A move line: `m A..B > C`, `m A..B < C`, `m A..B > PATH:C`, `m A..B > PATH` (`c` copies). */
function moveAt(m: RegExpExecArray, n: number): MoveOp {
  const [, sym, source, side, dest] = m;
  const [start, end] = range(source, n);
  const op = { op: rowForText(sym, true)!.kind, start } as MoveOp;
  if (end) op.end = end;
  if (!dest) {
    throw new SyntaxError(
      `Cannot parse patch line ${n}: "${sym} ${source} ${side}" needs a target: an anchor ("> 12:a3"), a file and anchor ("> other.ts:12:a3"), or an empty or new file ("> other.ts").`,
    );
  }
  let path: string | undefined;
  let at: string | undefined;
  if (isAnchor(dest)) at = dest;
  else {
    const pa = PATH_ANCHOR.exec(dest) ?? PATH_LINE.exec(dest);
    if (pa && isAnchor(pa[2])) [path, at] = [pa[1], pa[2]];
    else path = dest;
  }
  if (path !== undefined) op.to = path;
  if (at !== undefined) {
    op[side === ">" ? "after" : "before"] = anchorAt(at, n);
  } else if (side === "<") {
    throw new SyntaxError(
      `Cannot parse patch line ${n}: "<" puts lines before an anchor; to append to an empty or new file write "> ${dest}".`,
    );
  }
  return op;
}

function isAnchor(text: string): boolean {
  try {
    anchorAt(text, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads the compact text form (docs/patch-format.md#text-form); each op
 * line's symbol picks its row of the op table.
 *
 * @param text The patch text, without a code fence.
 * @param firstLine The 1-based number of its first line in what was sent.
 * @param headerless Accept ops before any `@@ PATH` line (path `""`).
 * @returns The patch.
 * @throws {SyntaxError} A line that cannot be parsed, naming its number.
 */
export function parseText(
  text: string,
  firstLine: number,
  headerless: boolean,
): Patch {
  const hint = unifiedDiffHint(text);
  if (hint !== null) throw new SyntaxError(`Cannot parse patch: ${hint}`);
  const files: FilePatch[] = [];
  const byPath = new Map<string, FilePatch>();
  let file: FilePatch | null = null;
  let open: string[] | null = null;
  let noLines: OpRow | null = null;
  const rows = text.split("\n");
  const fileFor = (path: string): FilePatch => {
    let f = byPath.get(path);
    if (!f) {
      f = { path, ops: [] };
      byPath.set(path, f);
      files.push(f);
    }
    return f;
  };
  for (let i = 0; i < rows.length; i++) {
    const n = i + firstLine;
    const row = rows[i].endsWith("\r") ? rows[i].slice(0, -1) : rows[i];
    if (row.startsWith("~")) {
      if (open) {
        open.push(row.slice(1));
        continue;
      }
      throw new SyntaxError(
        noLines
          ? `Cannot parse patch line ${n}: a "~" line cannot follow a ${noLines.kind} ("${noLines.text}"), which takes no new lines; use "=" to replace lines instead.`
          : `Cannot parse patch line ${n}: a "~" line must follow an op that takes new lines (${
            orList(LINE_SYMBOLS_WITH_LINES)
          }).`,
      );
    }
    if (row.trim() === "") continue;
    if (row.startsWith("@@")) {
      const kind = row[2] === "+" || row[2] === "-" ? row[2] : "";
      let path = row.slice(2 + kind.length).trim();
      let rename: string | undefined;
      const arrow = kind === "" ? RENAME.exec(path) : null;
      if (arrow) {
        rename = (arrow[2] ?? "").trim();
        path = arrow[1].trim();
        if (!rename) {
          throw new SyntaxError(
            `Cannot parse patch line ${n}: a rename needs the new path after "->", as in "@@ old.ts -> new.ts".`,
          );
        }
      }
      if (!path) {
        throw new SyntaxError(
          `Cannot parse patch line ${n}: "@@${kind}" needs a path, as in "@@${kind} src/app.ts".`,
        );
      }
      file = fileFor(path);
      if (kind === "+") file.create = true;
      if (kind === "-") file.delete = true;
      if (rename !== undefined) file.rename = rename;
      open = null;
      noLines = null;
      continue;
    }
    const mv = MOVE_LINE.exec(row);
    if (mv) {
      if (!file) {
        if (!headerless) {
          throw new SyntaxError(
            `Cannot parse patch line ${n}: the op ${
              JSON.stringify(row.slice(0, 40))
            } comes before any "@@ PATH" line; start the patch with "@@ PATH" naming the file it moves lines out of.`,
          );
        }
        file = fileFor("");
      }
      (file.moves ??= []).push(moveAt(mv, n));
      open = null;
      noLines = null;
      continue;
    }
    const m = OP_LINE.exec(row);
    if (!m) {
      throw new SyntaxError(
        `Cannot parse patch line ${n}: ${
          JSON.stringify(row.slice(0, 80))
        } is not a patch line; each line starts with ${
          orList(["@@ PATH", ...LINE_SYMBOLS, ...MOVE_SYMBOLS, "~"])
        }.`,
      );
    }
    const [, sym, arg] = m;
    if (!file) {
      if (!headerless) {
        throw new SyntaxError(
          `Cannot parse patch line ${n}: the op ${
            JSON.stringify(row.slice(0, 40))
          } comes before any "@@ PATH" line; start the patch with "@@ PATH" naming the file it edits.`,
        );
      }
      file = fileFor("");
    }
    const opRow = rowForText(sym, arg !== "");
    if (!opRow) {
      throw new SyntaxError(
        `Cannot parse patch line ${n}: "${sym}" needs an anchor or a range, as in "${sym} 12:a3" or "${sym} 12:a3..14:0e".`,
      );
    }
    if (sym === "+" && arg && !isAnchor(arg) && !/^\d/.test(arg)) {
      // "+text" written as a new line: new lines start with "~".
      throw new SyntaxError(
        `Cannot parse patch line ${n}: ${
          JSON.stringify(row.slice(0, 80))
        } is not an insert: "+ A" inserts the "~" lines after anchor A, and new lines start with "~" (write "~${
          arg.slice(0, 60)
        }").`,
      );
    }
    const op = opFromText(opRow, arg, n);
    file.ops.push(op);
    open = takesLines(op) ? op.lines : null;
    noLines = open ? null : rowOf(op);
  }
  return { files };
}

/**
 * An op's anchor: normalised when it parses, else kept as written, so
 * validation refuses it as it refuses the same anchor in the JSON form
 * (`BAD_ANCHOR`, docs/errors.md), naming the op.
 */
function opAnchor(text: string, n: number): string {
  try {
    return anchorAt(text, n);
  } catch {
    return text.trim();
  }
}

function anchorAt(text: string, n: number): string {
  // A line number alone (after a lean read): checked against the read record.
  const bare = parseBareAnchor(text);
  if (bare) return `${bare.line}${bare.block ? "*" : ""}`;
  // A block anchor (`12:a3*`) keeps its suffix; validation says where it may stand.
  const block = text.endsWith("*");
  try {
    const a = parseAnchor(block ? text.slice(0, -1) : text);
    return `${formatAnchor(a.line, a.hash)}${block ? "*" : ""}`;
  } catch {
    throw new SyntaxError(
      `Cannot parse patch line ${n}: ${
        JSON.stringify(text.slice(0, 80))
      } is not an anchor; write LINE:HH as shown in the read, such as "12:a3".`,
    );
  }
}

function range(text: string, n: number): [string, string | undefined] {
  const parts = text.split("..");
  if (parts.length > 2) {
    throw new SyntaxError(
      `Cannot parse patch line ${n}: ${
        JSON.stringify(text.slice(0, 80))
      } is not a range; write START..END, such as "12:a3..14:0e".`,
    );
  }
  return [
    opAnchor(parts[0], n),
    parts.length === 2 ? opAnchor(parts[1], n) : undefined,
  ];
}

/** The row a text-form symbol names, told apart by whether an anchor follows. */
function rowForText(sym: string, anchored: boolean): OpRow | undefined {
  return textRows.find((r) =>
    r.text === sym && (anchorFieldsOfRow(r).length > 0) === anchored
  );
}

/** An op of `row` from its text-form argument: a range, one anchor, or none. */
function opFromText(row: OpRow, arg: string, n: number): PatchOp {
  const op: Record<string, unknown> = { op: row.kind };
  const names = anchorFieldsOfRow(row);
  if (names.length > 1) {
    const [start, end] = range(arg, n);
    op[names[0]] = start;
    if (end) op[names[1]] = end;
  } else if (names.length === 1) op[names[0]] = opAnchor(arg, n);
  if ("lines" in row.fields) op.lines = [];
  return op as unknown as PatchOp;
}

function orList(items: readonly string[]): string {
  const quoted = items.map((s) => JSON.stringify(s));
  return quoted.length < 2
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} or ${quoted[quoted.length - 1]}`;
}
