/**
 * What a patch tells the model (docs/patch-format.md): the changed regions,
 * their fresh anchors (±2 lines) and a unified diff. Everything is worked
 * out from the old lines near each edit and the plan, so a file held in
 * memory and a file streamed from disk give the same answer. The answer
 * follows the read view's display rules (a line over the display limit is
 * cut with its `[+N chars]` marker, in the anchors and in the diff) and is
 * cut at {@link MAX_RESULT_BYTES} with a note naming the lines to read, so a
 * small edit beside a minified line never floods a model's context.
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import {
  CONTEXT,
  existsIn,
  renderListing,
  runsOf,
  window,
} from "../patch/fresh.ts";
import type { Shown } from "../patch/problems.ts";
import { pushAll } from "../_internal/arrays.ts";
import { utf8Length } from "../_internal/names.ts";
import { MAX_RESULT_BYTES } from "./notes.ts";
import {
  type Cluster,
  DIFF_CONTEXT,
  type DiffLines,
  diffOf,
  type EditInput,
} from "./diff.ts";
import type { ChangedRegion, LineLookup, PlannedEdit } from "../patch/types.ts";

export { MAX_RESULT_BYTES };
export type { EditInput };

/** The summary of one file's edit. */
export interface EditSummary {
  added: number;
  removed: number;
  newCount: number;
  regions: ChangedRegion[];
  /** Fresh anchors of the changed regions (±2 lines), `LINE:HH|content` lines. */
  anchors: string;
  /** Unified diff (`""` when nothing changed). */
  diff: string;
  /** Lines of the new content shown in `anchors`, for the read record. */
  shown: { start: number; hashes: number[] }[];
  /**
   * Lines the whole diff marks `+` and `-` (a whole-file write's counts),
   * counted in full even when `diff` is cut.
   */
  diffCounts: { added: number; removed: number };
}

/** Old line ranges `[from, to]` an edit needs for its diff context. */
export function contextRange(
  edit: Pick<PlannedEdit, "at" | "deleteCount">,
  oldCount: number,
): [number, number] {
  return [
    Math.max(1, edit.at - DIFF_CONTEXT),
    Math.min(oldCount, edit.at + edit.deleteCount - 1 + DIFF_CONTEXT),
  ];
}

/** Changed regions in the new content, merged where they touch (as the in-memory editor does). */
export function regionsOf(plan: readonly PlannedEdit[]): ChangedRegion[] {
  const regions: ChangedRegion[] = [];
  let shift = 0;
  for (const edit of plan) {
    const start = edit.at + shift;
    const region = { start, end: start + edit.lines.length - 1 };
    shift += edit.lines.length - edit.deleteCount;
    const last = regions[regions.length - 1];
    if (last && region.start <= last.end + 1) {
      last.end = Math.max(last.end, region.end);
    } else regions.push(region);
  }
  return regions;
}

/**
 * Summarizes one file's edit.
 *
 * @param input The old lines near the edits and the plan.
 * @returns Counts, regions, fresh anchors, diff and the lines shown.
 */
export function summarizeEdit(input: EditInput): EditSummary {
  const { plan, oldCount } = input;
  let added = 0;
  let removed = 0;
  for (const e of plan) {
    added += e.lines.length;
    removed += e.deleteCount;
  }
  const newCount = oldCount + added - removed;
  const clusters: Cluster[] = [];
  let shift = 0;
  for (const edit of plan) {
    const [from, to] = contextRange(edit, oldCount);
    const last = clusters[clusters.length - 1];
    if (last && from <= last.oldEnd + 1) {
      last.oldEnd = Math.max(last.oldEnd, to);
      last.edits.push(edit);
    } else {
      clusters.push({
        oldStart: from,
        oldEnd: to,
        newStart: from + shift,
        edits: [edit],
        complete: true,
      });
    }
    shift += edit.lines.length - edit.deleteCount;
  }
  for (const c of clusters) c.newLines = applyWindow(c, input);

  const regions = regionsOf(plan);
  const newLine = (n: number): string | undefined => {
    for (const c of clusters) {
      const i = n - c.newStart;
      if (i >= 0 && i < c.newLines!.length) return c.newLines![i];
    }
    return undefined;
  };
  const windows: [number, number][] = [];
  // A whole-file write shows no anchors (its session records every line).
  for (const r of input.anchors === false ? [] : regions) {
    const from = Math.max(1, r.start - CONTEXT);
    const to = Math.min(newCount, r.end + CONTEXT);
    if (to < from) continue;
    const last = windows[windows.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else windows.push([from, to]);
  }
  // The new lines near the changes, as the one fresh-anchor renderer of
  // patch/ reads them (a window stops at the first line not worked out).
  const now: LineLookup = {
    lineCount: newCount,
    has: (n) => n <= newCount && newLine(n) !== undefined,
    text: (n) => newLine(n) ?? "",
    hash32: (n) => lineHash32(newLine(n) ?? ""),
    linesWithHash: () => [],
  };
  const exists = existsIn(now);
  const budget = input.maxResultBytes ?? MAX_RESULT_BYTES;
  // Rows past the budget are never shown: they are counted, not rendered
  // (their lines still count as shown to the session).
  const rows: AnchorRows = { rows: [], total: 0, last: 0 };
  let rowBytes = 0;
  const shown: Shown[] = [];
  for (const [from, to] of windows) {
    const listing = window(exists, now, from, to);
    if (listing.length === 0) continue;
    for (const pair of listing) {
      rows.total++;
      rows.last = pair[0];
      if (rowBytes > budget) continue;
      const row = renderListing(now, [pair], input.maxLineChars);
      rowBytes += utf8Length(row) + 1;
      rows.rows.push(row);
    }
    pushAll(shown, runsOf(listing));
  }
  const diff = diffOf(input, clusters, budget);
  const bounded = bound(rows, diff, budget, input.display, regions);
  return {
    // As git diff --numstat counts them: lines a replace leaves as they
    // were are not counted (tests/workspace/numstat.test.ts).
    added: diff.added,
    removed: diff.removed,
    newCount,
    regions,
    anchors: bounded.anchors,
    diff: bounded.diff,
    shown,
    diffCounts: { added: diff.added, removed: diff.removed },
  };
}

/** How many of `lines` (joined with `\n`) fit in `budget` bytes. */
function fitting(lines: readonly string[], budget: number): number {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += utf8Length(lines[i]) + 1;
    if (used > budget) return i;
  }
  return lines.length;
}

/** Fresh-anchor rows: those rendered (up to past the budget), how many in all, the last one's line. */
interface AnchorRows {
  rows: string[];
  total: number;
  last: number;
}

/** Bytes of `lines` joined with `\n`, counted up to just past `cap`. */
function sizeWithin(lines: readonly string[], cap: number): number {
  let n = 0;
  for (let i = 0; i < lines.length && n <= cap; i++) {
    n += utf8Length(lines[i]) + 1;
  }
  return n;
}

/**
 * Anchors and diff within `budget` bytes: the anchors get what they need up
 * to half of it, the diff the rest; each part that is cut ends with a note
 * naming the lines to read instead.
 */
function bound(
  { rows: anchors, total: rowCount, last }: AnchorRows,
  { lines: diff, total }: DiffLines,
  budget: number,
  display: string,
  regions: readonly ChangedRegion[],
): { anchors: string; diff: string } {
  if (
    anchors.length === rowCount && diff.length === total &&
    sizeWithin(anchors, budget) + sizeWithin(diff, budget) <= budget
  ) {
    return { anchors: anchors.join("\n"), diff: diff.join("\n") };
  }
  const note = 200;
  const anchorBudget = Math.min(
    sizeWithin(anchors, budget),
    Math.floor(budget / 2),
  );
  const keptAnchors = fitting(anchors, Math.max(0, anchorBudget - note));
  const outAnchors = anchors.slice(0, keptAnchors);
  if (keptAnchors < rowCount) {
    const from = Number(/^\d+/.exec(anchors[keptAnchors])![0]);
    outAnchors.push(
      `… ${
        rowCount - keptAnchors
      } more lines not shown (the result is capped at ${
        Math.round(budget / 1024)
      } KiB): read lines ${from}–${last} of ${display} for their anchors.`,
    );
  }
  const diffBudget = budget - sizeWithin(outAnchors, budget) - note;
  const keptDiff = fitting(diff, Math.max(0, diffBudget));
  const outDiff = diff.slice(0, keptDiff);
  if (keptDiff < total) {
    const from = Math.max(1, regions[0]?.start ?? 1);
    const to = Math.max(from, regions[regions.length - 1]?.end ?? from);
    outDiff.push(
      `… diff cut after ${keptDiff} of ${total} lines (the result is capped at ${
        Math.round(budget / 1024)
      } KiB): read lines ${from}–${to} of ${display} to see the new text.`,
    );
  }
  return { anchors: outAnchors.join("\n"), diff: outDiff.join("\n") };
}

/** The new lines of a cluster's window: its old lines with its edits applied. */
function applyWindow(c: Cluster, input: EditInput): string[] {
  const out: string[] = [];
  let next = c.oldStart;
  const copy = (stop: number) => {
    for (; next < stop && next <= c.oldEnd; next++) {
      const line = input.oldLine(next);
      if (line === undefined) c.complete = false;
      out.push(line ?? "");
    }
  };
  for (const e of c.edits) {
    copy(e.at);
    for (const l of e.lines) out.push(l);
    next = Math.max(next, e.at + e.deleteCount);
  }
  copy(c.oldEnd + 1);
  return out;
}
