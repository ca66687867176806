/**
 * Reading patches in either form (docs/patch-format.md#forms): JSON (text or
 * a value) and the compact text form, plus the way back to text.
 *
 * @module
 */

import { invalidUtf8At } from "../_internal/utf8.ts";
import * as z from "zod";
import { checkShape } from "./_shape.ts";
import { dialectOf } from "./dialects/value.ts";
import {
  EntryOpSchema,
  LooseFileEntrySchema,
  PatchEntriesSchema,
  toFilePatch,
} from "./schema.ts";
import type { EntryOp, Patch } from "./types.ts";
import { parseText } from "./parse_text.ts";

export { formatPatchText } from "./format_text.ts";

const OpsSchema: z.ZodType<EntryOp[]> = z.array(EntryOpSchema);

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
      const file = checkShape(LooseFileEntrySchema, value, "");
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
