/**
 * Patching content held in memory: all-or-nothing, with the file's
 * line-ending style, BOM and final-newline state kept
 * (docs/patch-format.md#terminators). The content is indexed lazily and only
 * the edited stretches are rebuilt, so an edit costs the size of the edit
 * plus one scan to its last line, not a split and join of the whole content.
 *
 * @module
 */

import * as z from "zod";
import { PatchRefusedError } from "../errors.ts";
import { ContentIndex, splicePlan } from "./_content.ts";
import { checkShape } from "./_shape.ts";
import { freshRegion } from "./fresh.ts";
import { parsePatch } from "./parse.ts";
import { refuseFileParts } from "./one_content.ts";
import { dialectOps } from "./dialects/one_content.ts";
import { planPatch } from "./plan.ts";
import { PatchOpSchema } from "./schema.ts";
import type {
  ChangedRegion,
  LineLookup,
  Patch,
  PatchOp,
  PlannedEdit,
  ReadMemory,
} from "./types.ts";

/** Options of {@link editContent} and {@link applyPatch}. */
export interface EditOptions {
  /** Full hashes from the read, to catch drift the 2-hex fold misses (and for rebase). */
  memory?: ReadMemory;
  /** Named in problems. */
  path?: string;
  /**
   * Re-address ops whose lines only moved since the read
   * (docs/patch-format.md#rebase); needs `memory`. Off by default.
   */
  rebase?: boolean;
  /**
   * Lines the session's last commit replaced one for one, with the full
   * hash of the line each replaced: an anchor that fits both is refused as
   * ambiguous.
   */
  replaced?: ReadonlyMap<number, number>;
  /** The terminator new lines take when the content has none yet (default `\n`). */
  eol?: string;
  /**
   * The content is known unchanged since `memory` was recorded (same size
   * and content hash): the drift alignment is skipped
   * (docs/patch-format.md#drift).
   */
  unchanged?: boolean;
}

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
  /** With `rebase`: one note per op that was re-addressed, such as `op 2: lines 40–42 → 43–45`. */
  rebased: string[];
  /** The ops as applied (re-addressed where `rebased` says so). */
  ops: PatchOp[];
}

const OpsSchema: z.ZodType<PatchOp[]> = z.array(PatchOpSchema);

/**
 * Applies ops to content after checking them all (see `validateOps`); any
 * problem refuses the whole edit.
 *
 * @param content The content the ops were addressed against.
 * @param ops The ops, with anchors from a read of `content`.
 * @param options `memory` (full hashes from the read, to catch drift the
 *   2-hex fold misses), `path` (named in problems) and `rebase`.
 * @returns The new content, line counts, the changed regions and rebase notes.
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
  options: EditOptions = {},
): EditOutcome {
  return editIndexed(content, ops, options).outcome;
}

/**
 * {@link editContent}, also giving the line index of the old content it
 * built on the way, so a caller that needs old lines (their count, one
 * line's text) reads them from there instead of splitting the content again.
 *
 * @internal
 */
export function editIndexed(
  content: string,
  ops: PatchOp[],
  options: EditOptions = {},
): { outcome: EditOutcome; old: LineLookup; plan: PlannedEdit[] } {
  if (typeof content !== "string") {
    throw new TypeError(
      `Cannot edit: content must be a string, got ${typeof content}.`,
    );
  }
  const checked = checkShape(OpsSchema, ops, "ops");
  const idx = new ContentIndex(content);
  const planned = planPatch(idx, checked, options);
  if (planned.problems.length > 0) {
    throw new PatchRefusedError(planned.problems);
  }
  const out = splicePlan(idx, planned.plan, options.eol);
  return {
    outcome: { ...out, rebased: planned.rebased, ops: planned.ops },
    old: idx,
    plan: planned.plan,
  };
}

/**
 * Applies a patch to content. Patch text may leave out the `@@ PATH` line
 * (it is parsed with `headerless: true`), since it addresses this content.
 * Without `memory` (a session's read record) anchors are checked by their
 * 2-hex fold only, and a line named by its number alone (`12`) is refused
 * with `BAD_ANCHOR`; with `memory`, by the full hash and the drift alignment
 * (docs/patch-format.md#drift). An `apply_patch` or unified diff text of one
 * updated file is compiled first: each hunk is located in `memory`, or in
 * the whole content when there is none (docs/patch-format.md#other-dialects).
 *
 * @param content The content the patch was addressed against.
 * @param patch An array of ops, a patch naming exactly one file (its path
 *   is not looked at), or patch text in JSON or text form, `apply_patch` or
 *   a unified diff.
 * @param options `memory`, `path` and `rebase`, as for {@link editContent}.
 * @returns The new content.
 * @throws {PatchRefusedError} Listing every problem (message starts
 *   `Rejected — nothing written.`); nothing is changed.
 * @throws {SyntaxError} When patch text cannot be parsed.
 * @throws {TypeError} When the patch has the wrong shape or names several
 *   files, or moves or copies lines or creates, deletes or renames a file
 *   (only a workspace's patch can).
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
  options: EditOptions = {},
): string {
  const parsed = Array.isArray(patch)
    ? null
    : parsePatch(patch, { headerless: true });
  let ops: PatchOp[];
  if (parsed) {
    refuseFileParts(
      parsed,
      "the content given",
      "a workspace's patch (openWorkspace(root).patch)",
    );
  }
  if (!parsed) {
    ops = patch as PatchOp[];
  } else if (parsed.dialect) {
    ops = dialectOps(content, parsed.dialect, options.memory);
  } else if (parsed.files.length === 0) {
    ops = [];
  } else if (parsed.files.length === 1) {
    ops = parsed.files[0].ops;
  } else {
    throw new TypeError(
      `Cannot apply a patch naming ${parsed.files.length} files to one content: send the ops of one file.`,
    );
  }
  return editContent(content, ops, options).content;
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
  const now = typeof source === "string" ? new ContentIndex(source) : source;
  return freshRegion(now, region, radius);
}
