/**
 * The unified diff an edit returns, cut to a size a model can take.
 *
 * @module
 */
import { createTwoFilesPatch } from "diff";
import { MAX_DIFF_CHARS } from "./limits.ts";

/** Time a diff may take before a coarser one (one hunk over the changed span) is used. */
const DIFF_TIMEOUT_MS = 1000;

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
      timeout: DIFF_TIMEOUT_MS,
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
