/**
 * The unified diff an edit returns, cut to a size a model can take.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import { diffEditCap } from "../patch/diff_bounds.ts";
import { MAX_DIFF_CHARS } from "./limits.ts";

/** Lines of a text as the line diff cuts it. */
function lineCount(text: string): number {
  let n = text.length > 0 && !text.endsWith("\n") ? 1 : 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    n++;
  }
  return n;
}

/**
 * A unified diff from one revision to another, at most 8000 chars.
 *
 * @param before Source of the parent.
 * @param after Source of the new revision.
 * @param fromName Label of the parent (its handle).
 * @param toName Label of the new revision (its handle).
 */
export function revisionDiff(
  before: string,
  after: string,
  fromName: string,
  toName: string,
): { diff: string; diffTruncated: boolean } {
  const full =
    createTwoFilesPatch(fromName, toName, before, after, undefined, undefined, {
      context: 3,
      // Bounded by work, not by a clock: a search that would need more
      // falls back to the changed span (docs/store.md).
      maxEditLength: diffEditCap(lineCount(before) + lineCount(after)),
    }) ?? spanDiff(before, after, fromName, toName);
  const diff = full.replace(/^=+\n/, "");
  if (diff.length <= MAX_DIFF_CHARS) return { diff, diffTruncated: false };
  let cut = diff.lastIndexOf("\n", MAX_DIFF_CHARS - 1) + 1;
  if (cut === 0) {
    cut = MAX_DIFF_CHARS;
    const c = diff.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
  }
  return { diff: diff.slice(0, cut), diffTruncated: true };
}

/**
 * One hunk replacing every line between the common first and last lines: the
 * coarse diff used when a fine one would take too long.
 *
 * @param before Source of the parent.
 * @param after Source of the new revision.
 * @param fromName Label of the parent.
 * @param toName Label of the new revision.
 */
export function spanDiff(
  before: string,
  after: string,
  fromName: string,
  toName: string,
): string {
  const a = before.split("\n");
  const b = after.split("\n");
  const both = Math.min(a.length, b.length);
  let head = 0;
  while (head < both && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < both - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const gone = a.slice(head, a.length - tail);
  const come = b.slice(head, b.length - tail);
  return [
    `--- ${fromName}`,
    `+++ ${toName}`,
    `@@ -${gone.length ? head + 1 : head},${gone.length} +${
      come.length ? head + 1 : head
    },${come.length} @@`,
    ...gone.map((l) => "-" + l),
    ...come.map((l) => "+" + l),
    "",
  ].join("\n");
}
