/**
 * Patching content held in memory: all-or-nothing, with the file's
 * line-ending style, BOM and final-newline state kept (DESIGN §3, §9).
 *
 * @module
 */

import { z } from "zod";
import { joinLines, splitLines } from "../anchor/split.ts";
import { formatLine } from "../anchor/format.ts";
import { PatchRefusedError } from "../errors.ts";
import { foldHash } from "../hash/fnv.ts";
import { applyPlan } from "./_apply_plan.ts";
import { checkShape } from "./_shape.ts";
import { parsePatch } from "./parse.ts";
import { PatchOpSchema } from "./schema.ts";
import type {
  ChangedRegion,
  LineLookup,
  Patch,
  PatchOp,
  ReadMemory,
} from "./types.ts";
import { lookupFromLines, planOps, validateOps } from "./validate.ts";

/** What an edit did to content. */
export interface EditOutcome {
  /** The new content. */
  content: string;
  /** Lines written (new or replacing). */
  added: number;
  /** Lines removed (deleted or replaced). */
  removed: number;
  /** Changed line ranges in the new content, for fresh anchors. */
  regions: ChangedRegion[];
}

const OpsSchema: z.ZodType<PatchOp[]> = z.array(PatchOpSchema);

/**
 * Applies ops to content after checking them all (see `validateOps`); any
 * problem refuses the whole edit.
 *
 * @param content The content the ops were addressed against.
 * @param ops The ops, with anchors from a read of `content`.
 * @param options `memory` (full hashes from the read, to catch drift the
 *   2-hex fold misses) and `path` (named in problems).
 * @returns The new content, line counts, and the changed regions.
 * @throws {PatchRefusedError} Listing every problem; nothing is changed.
 * @throws {TypeError} When `content` is not a string or an op is malformed.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editContent } from "./apply.ts";
 * const out = editContent("a\r\nb\r\nc\r\n", [
 *   { op: "replace", start: "2:23", lines: ["B", "B2"] },
 * ]);
 * assert.equal(out.content, "a\r\nB\r\nB2\r\nc\r\n");
 * assert.deepEqual([out.added, out.removed], [2, 1]);
 * assert.deepEqual(out.regions, [{ start: 2, end: 3 }]);
 * ```
 */
export function editContent(
  content: string,
  ops: PatchOp[],
  options: { memory?: ReadMemory; path?: string } = {},
): EditOutcome {
  if (typeof content !== "string") {
    throw new TypeError(
      `Cannot edit: content must be a string, got ${typeof content}.`,
    );
  }
  const checked = checkShape(OpsSchema, ops, "ops");
  const split = splitLines(content);
  const problems = validateOps(checked, lookupFromLines(split.lines), options);
  if (problems.length > 0) throw new PatchRefusedError(problems);
  const applied = applyPlan(split, planOps(checked, split.lines.length));
  return {
    content: joinLines(applied),
    added: applied.added,
    removed: applied.removed,
    regions: applied.regions,
  };
}

/**
 * Applies a patch to content (the public `applyPatch` of DESIGN §8).
 *
 * @param content The content the patch was addressed against.
 * @param patch An array of ops, a patch naming exactly one file (its path
 *   is not looked at), or patch text in JSON or text form.
 * @returns The new content.
 * @throws {PatchRefusedError} Listing every problem (message starts
 *   `Rejected — nothing written.`); nothing is changed.
 * @throws {SyntaxError} When patch text cannot be parsed.
 * @throws {TypeError} When the patch has the wrong shape or names several files.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyPatch } from "./apply.ts";
 * assert.equal(applyPatch("x\ny", "+ 1:26\n~between"), "x\nbetween\ny");
 * assert.throws(
 *   () => applyPatch("x\ny", [{ op: "delete", start: "1:ff" }]),
 *   /^PatchRefusedError: Rejected — nothing written\./,
 * );
 * ```
 */
export function applyPatch(
  content: string,
  patch: PatchOp[] | Patch | string,
): string {
  const parsed = Array.isArray(patch) ? null : parsePatch(patch);
  let ops: PatchOp[];
  if (!parsed) {
    ops = patch as PatchOp[];
  } else if (parsed.files.length === 0) {
    ops = [];
  } else if (parsed.files.length === 1) {
    ops = parsed.files[0].ops;
  } else {
    throw new TypeError(
      `Cannot apply a patch naming ${parsed.files.length} files to one content: send the ops of one file.`,
    );
  }
  return editContent(content, ops).content;
}

/**
 * Renders the lines around a changed region in read format
 * (`LINE:HH|content`), so the next edit needs no new read.
 *
 * @param source The new content, or a lookup over it.
 * @param region Changed lines (`end = start - 1` for a deletion before `start`).
 * @param radius Lines of context on each side (default 2).
 * @returns The lines joined with `\n`; `""` when the content has no lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshAnchors } from "./apply.ts";
 * assert.equal(freshAnchors("a\nb\nc\nd\n", { start: 4, end: 4 }, 1), "3:94|c\n4:ba|d");
 * ```
 */
export function freshAnchors(
  source: string | LineLookup,
  region: ChangedRegion,
  radius = 2,
): string {
  const now = typeof source === "string"
    ? lookupFromLines(splitLines(source).lines)
    : source;
  const out: string[] = [];
  const last = Math.min(now.lineCount, region.end + radius);
  for (let n = Math.max(1, region.start - radius); n <= last; n++) {
    out.push(formatLine(n, now.text(n), undefined, foldHash(now.hash32(n))));
  }
  return out.join("\n");
}
