/**
 * Which dialect a patch text is written in (docs/patch-format.md#other-dialects),
 * told by its first non-blank line alone — `*** Begin Patch` for
 * `apply_patch`, `diff --git` or `--- ` for a unified diff, anything else
 * hashline's own forms — never guessed line by line.
 *
 * @module
 */
import * as z from "zod";
import { checkShape } from "../_shape.ts";
import { parseApplyPatch } from "./apply_patch.ts";
import type { DialectName, DialectPatch } from "./types.ts";
import { parseUnifiedDiff } from "./unified_diff.ts";

/**
 * The dialect of a patch text, from its first non-blank line.
 *
 * @param text Patch text (after any Markdown fence is taken off).
 * @returns `"apply_patch"`, `"unified_diff"`, or null for hashline's forms.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectDialect } from "./detect.ts";
 * assert.equal(detectDialect("\n*** Begin Patch\n"), "apply_patch");
 * assert.equal(detectDialect("diff --git a/x b/x\n"), "unified_diff");
 * assert.equal(detectDialect("--- a/x\n+++ b/x\n"), "unified_diff");
 * assert.equal(detectDialect("@@ x\n- 1:aa\n"), null);
 * ```
 */
export function detectDialect(text: string): DialectName | null {
  const first = /^(?:[ \t]*\r?\n)*([^\n]*)/.exec(text)![1].replace(/\r$/, "");
  if (first.trim() === "*** Begin Patch") return "apply_patch";
  if (first.startsWith("diff --git ") || first.startsWith("--- ")) {
    return "unified_diff";
  }
  return null;
}

/**
 * Parses a text written in another dialect, or answers null for hashline's
 * own forms.
 *
 * @param text Patch text (after any Markdown fence is taken off).
 * @param firstLine The number of the text's first line in what was sent.
 * @returns The parsed dialect patch, or null.
 * @throws {SyntaxError} A dialect text that cannot be parsed (naming the line).
 */
export function parseDialect(
  text: string,
  firstLine = 1,
): DialectPatch | null {
  switch (detectDialect(text)) {
    case "apply_patch":
      return parseApplyPatch(text, firstLine);
    case "unified_diff":
      return parseUnifiedDiff(text, firstLine);
    default:
      return null;
  }
}

const RowSchema = z.object({
  kind: z.enum([" ", "-", "+"]),
  text: z.string(),
});
const HunkSchema = z.object({
  rows: z.array(RowSchema),
  header: z.string().optional(),
  atEnd: z.boolean().optional(),
  oldStart: z.number().int().min(0).optional(),
  line: z.number().int(),
});
const FileSchema = z.object({
  kind: z.enum(["update", "add", "delete"]),
  path: z.string(),
  moveTo: z.string().optional(),
  hunks: z.array(HunkSchema),
  lines: z.array(z.string()).optional(),
  line: z.number().int(),
});

/** The shape of a parsed dialect patch, for values handed back in (`parsePatch`'s own output). */
export const DialectPatchSchema: z.ZodType<DialectPatch> = z.object({
  name: z.enum(["apply_patch", "unified_diff"]),
  files: z.array(FileSchema),
});

/**
 * The dialect patch a `parsePatch` input holds, if any: a text in another
 * dialect (after `unfence` takes off a Markdown fence), or a value that is
 * `parsePatch`'s own answer for one (`{ files: [], dialect }`).
 *
 * @param input What `parsePatch` was given (bytes already decoded).
 * @param unfence Takes one Markdown fence off a text, keeping line numbers.
 * @returns The dialect patch, or null for hashline's own forms.
 * @throws {SyntaxError} A dialect text that cannot be parsed.
 * @throws {TypeError} A value whose `dialect` has the wrong shape.
 */
export function dialectOf(
  input: unknown,
  unfence: (text: string) => { text: string; firstLine: number },
): DialectPatch | null {
  if (typeof input === "string") {
    if (detectDialect(input) === null && !input.includes("```")) return null;
    const { text, firstLine } = unfence(input);
    return parseDialect(text, firstLine);
  }
  if (
    input !== null && typeof input === "object" && "dialect" in input &&
    input.dialect !== undefined
  ) {
    return checkShape(DialectPatchSchema, input.dialect, "dialect");
  }
  return null;
}
