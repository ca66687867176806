/**
 * Reading patches in either form (docs/patch-format.md#forms): JSON (text or
 * a value) and the compact text form, plus the way back to text.
 *
 * @module
 */

import { invalidUtf8At } from "../_internal/utf8.ts";
import * as z from "zod";
import { formatAnchor, parseAnchor, readPrefixOf } from "../anchor/anchor.ts";
import { parseBareAnchor } from "../anchor/lean.ts";
import { checkShape } from "./_shape.ts";
import { dialectOf } from "./dialects/value.ts";
import {
  EntryOpSchema,
  type FileEntry,
  MoveOpSchema,
  PatchEntriesSchema,
  toFilePatch,
} from "./schema.ts";
import type { EntryOp, FilePatch, MoveOp, Patch, PatchOp } from "./types.ts";
import { unifiedDiffHint } from "./_unified.ts";

const OpsSchema: z.ZodType<EntryOp[]> = z.array(EntryOpSchema);
const LooseFileSchema: z.ZodType<Omit<FileEntry, "path"> & { path?: string }> =
  z.object({
    path: z.string().optional(),
    ops: OpsSchema.optional(),
    create: z.boolean().optional(),
    delete: z.boolean().optional(),
    rename: z.string().optional(),
    moves: z.array(MoveOpSchema).optional(),
  });

/** Options of {@link parsePatch}. */
export interface ParseOptions {
  /**
   * Accept text-form ops before any `@@ PATH` line, as ops of path `""`:
   * for patches that address one content whose path is known otherwise
   * (`applyPatch`, a revision, a request that names the file). Off by
   * default, where such an op is a `SyntaxError`.
   */
  headerless?: boolean;
}

/**
 * Reads a patch in any accepted shape: JSON text or a value holding
 * `{ files: [{ path, ops }] }`, `{ path, ops }`, `{ ops }` or a bare array of
 * ops (the last two get path `""`), or the compact text form, as a string or
 * as UTF-8 bytes (decoded strictly). A string whose first non-space
 * character is `{` or `[` is JSON; any other string is text. One Markdown
 * code fence wrapping the whole patch (a first line of three backticks with
 * an optional language, a last line of three backticks) is ignored.
 *
 * Text form: `@@ PATH` starts a file; `= A` / `= A..B` replace, `- A` /
 * `- A..B` delete, `+ A` insert after, `< A` insert before, bare `+` append,
 * bare `<` prepend; each following `~` line is one new line, verbatim after
 * the `~`. Blank lines between ops are ignored. An op before any `@@` is a
 * `SyntaxError` unless `headerless` is set (then it belongs to path `""`);
 * sections naming the same path are merged in order.
 *
 * A text whose first non-blank line is `*** Begin Patch` (Codex's
 * `apply_patch`) or `diff --git` / `--- ` (a unified diff) is another
 * dialect: the answer is `{ files: [], dialect }`, its files and hunks as
 * parsed and nothing anchored yet — a workspace or `applyPatch` locates each
 * hunk in what the session read (docs/patch-format.md#other-dialects). That
 * value is taken back as it is.
 *
 * @param input Patch text (JSON or text form), its UTF-8 bytes, or an already parsed value.
 * @param options `headerless`: accept ops before any `@@ PATH` line.
 * @returns The patch, with text-form anchors written canonically (`12:a3`).
 * @throws {SyntaxError} Invalid JSON, bytes that are not UTF-8 (naming the
 *   byte offset), or a text-form or dialect line that cannot be parsed
 *   (naming its 1-based line number and what was expected there).
 * @throws {TypeError} A value of the wrong shape (the message names the field).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePatch } from "./parse.ts";
 * const fence = "`".repeat(3);
 * const patch = parsePatch(`${fence}diff\n@@ src/app.ts\n= 12:A3|..14:0e\n~const x = 1;\n- 20:5d\n${fence}\n`);
 * assert.deepEqual(patch, { files: [{ path: "src/app.ts", ops: [
 *   { op: "replace", start: "12:a3", end: "14:0e", lines: ["const x = 1;"] },
 *   { op: "delete", start: "20:5d" },
 * ] }] });
 * assert.deepEqual(parsePatch([{ op: "append", lines: ["x"] }]), {
 *   files: [{ path: "", ops: [{ op: "append", lines: ["x"] }] }],
 * });
 * assert.throws(() => parsePatch("- 3:aa"), /line 1: .*before any "@@ PATH"/);
 * assert.deepEqual(parsePatch("- 3:aa", { headerless: true }).files[0].path, "");
 * assert.throws(() => parsePatch("@@ a\n- 3:aa\n~oops"), /line 3/);
 * ```
 */
export function parsePatch(input: unknown, options: ParseOptions = {}): Patch {
  if (input instanceof Uint8Array) input = decodeStrict(input);
  const dialect = dialectOf(input, unfence);
  if (dialect) return { files: [], dialect };
  if (typeof input === "string") {
    const { text, firstLine } = unfence(input);
    input = text;
    const first = text.trimStart()[0];
    if (first === "{" || first === "[") {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        throw new SyntaxError(
          `Cannot parse patch: it starts like JSON but is not valid JSON (${
            (e as Error).message
          }). Send valid JSON, or the text form starting with "@@ PATH".`,
        );
      }
      return fromValue(value);
    }
    return parseText(text, firstLine, options.headerless === true);
  }
  return fromValue(input);
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decodeStrict(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    throw new SyntaxError(
      `Cannot parse patch: it is not valid UTF-8 (an ill-formed sequence starts at byte offset ${
        Math.max(0, invalidUtf8At(bytes))
      }). Send the patch as UTF-8 text.`,
    );
  }
}

const FENCE_OPEN = /^```[\w.+-]*[ \t]*\r?$/;
const FENCE_CLOSE = /^```[ \t]*\r?$/;

/**
 * Drops one Markdown code fence around the whole patch (blank lines around
 * it aside), keeping line numbers: the text keeps an empty line where the
 * opening fence stood.
 */
function unfence(input: string): { text: string; firstLine: number } {
  const lead = /^(?:[ \t]*\r?\n)*/.exec(input)![0];
  const openEnd = input.indexOf("\n", lead.length);
  if (openEnd < 0) return { text: input, firstLine: 1 };
  if (!FENCE_OPEN.test(input.slice(lead.length, openEnd))) {
    return { text: input, firstLine: 1 };
  }
  const body = input.replace(/\s+$/, "");
  const closeStart = body.lastIndexOf("\n") + 1;
  if (closeStart <= openEnd || !FENCE_CLOSE.test(body.slice(closeStart))) {
    const n = lead.split("\n").length;
    throw new SyntaxError(
      `Cannot parse patch line ${n}: a code fence opens here but the patch does not end with a closing line of three backticks; send the patch without the fence, or close it.`,
    );
  }
  const skipped = lead.split("\n").length;
  return { text: input.slice(openEnd + 1, closeStart), firstLine: skipped + 1 };
}

function fromValue(value: unknown): Patch {
  if (Array.isArray(value)) {
    return {
      files: [
        toFilePatch({ path: "", ops: checkShape(OpsSchema, value, "ops") }),
      ],
    };
  }
  if (value !== null && typeof value === "object") {
    if ("files" in value) {
      return {
        files: checkShape(PatchEntriesSchema, value, "").files.map(toFilePatch),
      };
    }
    if (
      "ops" in value || "create" in value || "delete" in value ||
      "rename" in value || "moves" in value
    ) {
      const file = checkShape(LooseFileSchema, value, "");
      return { files: [toFilePatch({ ...file, path: file.path ?? "" })] };
    }
  }
  throw new TypeError(
    `Invalid patch: expected { files: [{ path, ops }] }, { path, ops }, { ops }, an array of ops, or patch text; got ${
      value === null ? "null" : Array.isArray(value) ? "an array" : typeof value
    }${
      value !== null && typeof value === "object"
        ? ` with fields ${Object.keys(value).join(", ") || "(none)"}`
        : ""
    }.`,
  );
}

const OP_LINE = /^([=\-+<])\s*(.*?)\s*$/;
const RENAME = /^(.*?)\s+->(?:\s+(.*))?$/;
const MOVE_LINE = /^([mc])\s+(\S+)\s*([<>])\s*(.*?)\s*$/;
const PATH_ANCHOR = /^(.+):(\d+:[0-9A-Fa-f]{2}\|?\*?)$/;
const PATH_LINE = /^(.+):(\d+\*?)$/;

/** A move line: `m A..B > C`, `m A..B < C`, `m A..B > PATH:C`, `m A..B > PATH` (`c` copies). */
function moveAt(m: RegExpExecArray, n: number): MoveOp {
  const [, sym, source, side, dest] = m;
  const [start, end] = range(source, n);
  const op: MoveOp = { op: sym === "m" ? "move" : "copy", start };
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

function parseText(
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
  let afterDelete = false;
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
        afterDelete
          ? `Cannot parse patch line ${n}: a "~" line cannot follow a delete ("-"), which takes no new lines; use "=" to replace lines instead.`
          : `Cannot parse patch line ${n}: a "~" line must follow an op that takes new lines ("=", "+" or "<").`,
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
      afterDelete = false;
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
      afterDelete = false;
      continue;
    }
    const m = OP_LINE.exec(row);
    if (!m) {
      throw new SyntaxError(
        `Cannot parse patch line ${n}: ${
          JSON.stringify(row.slice(0, 80))
        } is not a patch line; each line starts with "@@ PATH", "=", "-", "+", "<", "m", "c" or "~".`,
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
    let op: PatchOp;
    if (sym === "=" || sym === "-") {
      if (!arg) {
        throw new SyntaxError(
          `Cannot parse patch line ${n}: "${sym}" needs an anchor or a range, as in "${sym} 12:a3" or "${sym} 12:a3..14:0e".`,
        );
      }
      const [start, end] = range(arg, n);
      op = sym === "="
        ? { op: "replace", start, ...(end ? { end } : {}), lines: [] }
        : { op: "delete", start, ...(end ? { end } : {}) };
    } else if (arg) {
      if (sym === "+" && !isAnchor(arg) && !/^\d/.test(arg)) {
        // "+text" written as a new line: new lines start with "~".
        throw new SyntaxError(
          `Cannot parse patch line ${n}: ${
            JSON.stringify(row.slice(0, 80))
          } is not an insert: "+ A" inserts the "~" lines after anchor A, and new lines start with "~" (write "~${
            arg.slice(0, 60)
          }").`,
        );
      }
      op = {
        op: sym === "+" ? "insert_after" : "insert_before",
        anchor: opAnchor(arg, n),
        lines: [],
      };
    } else {
      op = { op: sym === "+" ? "append" : "prepend", lines: [] };
    }
    file.ops.push(op);
    open = "lines" in op ? op.lines : null;
    afterDelete = op.op === "delete";
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

/**
 * Writes a patch in the compact text form; {@link parsePatch} reads it back
 * to the same patch. A single file with path `""` is written without `@@`
 * (read it back with `headerless: true`). The text form has no `literal`
 * flag: an op that needs it is refused here.
 *
 * @param patch A patch, one file's patch, or a bare list of ops.
 * @returns The text form, ending with a newline (`""` for no ops).
 * @throws {TypeError} When a new line holds a line break or ends with `\r`,
 *   a `literal` op holds a line starting with a read prefix, or a file other
 *   than the first has an empty path — the text form cannot carry those.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatPatchText, parsePatch } from "./parse.ts";
 * const text = formatPatchText({ files: [{ path: "a.txt", ops: [
 *   { op: "insert_after", anchor: "3:0e", lines: ["// note"] },
 *   { op: "append", lines: ["end"] },
 * ] }] });
 * assert.equal(text, "@@ a.txt\n+ 3:0e\n~// note\n+\n~end\n");
 * assert.deepEqual(parsePatch(text).files[0].ops[1], { op: "append", lines: ["end"] });
 * ```
 */
export function formatPatchText(patch: Patch | FilePatch | PatchOp[]): string {
  const files: FilePatch[] = Array.isArray(patch)
    ? [{ path: "", ops: patch }]
    : "files" in patch
    ? patch.files
    : [patch];
  const out: string[] = [];
  files.forEach((file, i) => {
    if (file.path !== "" || i > 0) {
      if (file.path.trim() === "" || /[\r\n]/.test(file.path)) {
        throw new TypeError(
          `Cannot write patch text: file ${i + 1} has path ${
            JSON.stringify(file.path)
          }, which "@@ PATH" cannot carry.`,
        );
      }
      const head = file.create ? "@@+" : file.delete ? "@@-" : "@@";
      out.push(
        `${head} ${file.path}${
          file.rename !== undefined ? ` -> ${file.rename}` : ""
        }`,
      );
    }
    for (const op of file.ops) {
      switch (op.op) {
        case "replace":
          out.push(`= ${op.start}${op.end ? `..${op.end}` : ""}`);
          break;
        case "delete":
          out.push(`- ${op.start}${op.end ? `..${op.end}` : ""}`);
          break;
        case "insert_after":
          out.push(`+ ${op.anchor}`);
          break;
        case "insert_before":
          out.push(`< ${op.anchor}`);
          break;
        case "append":
          out.push("+");
          break;
        case "prepend":
          out.push("<");
          break;
      }
      if ("lines" in op) {
        for (const line of op.lines) {
          if (line.includes("\n") || line.endsWith("\r")) {
            throw new TypeError(
              `Cannot write patch text: the new line ${
                JSON.stringify(line.slice(0, 40))
              } holds a line break; give each line as its own entry.`,
            );
          }
          if (op.literal === true && readPrefixOf(line)) {
            throw new TypeError(
              `Cannot write patch text: the new line ${
                JSON.stringify(line.slice(0, 40))
              } starts with a read prefix, which only the JSON form's "literal": true can carry.`,
            );
          }
          out.push(`~${line}`);
        }
      }
    }
    for (const mv of file.moves ?? []) out.push(moveText(mv));
  });
  return out.length ? `${out.join("\n")}\n` : "";
}

function moveText(mv: MoveOp): string {
  const source = `${mv.start}${mv.end ? `..${mv.end}` : ""}`;
  const at = mv.after ?? mv.before;
  const side = mv.before !== undefined ? "<" : ">";
  const dest = mv.to !== undefined
    ? at !== undefined ? `${mv.to}:${at}` : mv.to
    : at ?? "";
  return `${mv.op === "move" ? "m" : "c"} ${source} ${side} ${dest}`;
}
