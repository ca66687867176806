/**
 * A dialect patch inside what `parsePatch` was given
 * (docs/patch-format.md#other-dialects): a text in another dialect, or the
 * `{ files: [], dialect }` value `parsePatch` answers for one, checked
 * against its shape when it is handed back.
 *
 * @module
 */
import * as z from "zod";
import { checkShape } from "../_shape.ts";
import { detectDialect, parseDialect } from "./detect.ts";
import type { DialectPatch } from "./types.ts";

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
