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
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import type { StructuredPatchHunk } from "diff";
import { formatLine } from "../anchor/format.ts";
import { lineHash32 } from "../hash/fnv.ts";
import {
  CONTEXT,
  existsIn,
  renderListing,
  runsOf,
  window,
} from "../patch/fresh.ts";
import type { Shown } from "../patch/problems.ts";
import { utf8Length } from "../_internal/names.ts";
import { MAX_RESULT_BYTES } from "./_result_notes.ts";
import type { ChangedRegion, LineLookup, PlannedEdit } from "../patch/types.ts";

/** Lines of context around each change in the diff. */
const DIFF_CONTEXT = 3;
export { MAX_RESULT_BYTES };

/** The old file as far as a summary needs it. */
export interface EditInput {
  /** Path shown in the diff. */
  display: string;
  /** Lines in the old file. */
  oldCount: number;
  /** Old line n (1-based); undefined when it was not collected (huge ranges of a streamed file). */
  oldLine(n: number): string | undefined;
  /** The validated plan. */
  plan: PlannedEdit[];
  /** Display limit per line for the anchors. */
  maxLineChars: number;
  /** The file is being created. */
  created: boolean;
  /** Most bytes of anchors and diff for this file (default {@link MAX_RESULT_BYTES}). */
  maxResultBytes?: number;
}

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
}

interface Cluster {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  edits: PlannedEdit[];
  newLines?: string[];
  complete: boolean;
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
  for (const r of regions) {
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
  const rendered: string[] = [];
  const shown: Shown[] = [];
  for (const [from, to] of windows) {
    const listing = window(exists, now, from, to);
    if (listing.length === 0) continue;
    rendered.push(
      ...renderListing(now, listing, input.maxLineChars).split("\n"),
    );
    shown.push(...runsOf(listing));
  }
  const budget = input.maxResultBytes ?? MAX_RESULT_BYTES;
  const diff = diffOf(input, clusters, budget);
  const bounded = bound(
    rendered,
    diff,
    budget,
    input.display,
    regions,
  );
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
  };
}

/** A line as the read view shows it: cut past the display limit, with its `[+N chars]` marker. */
function displayed(text: string, maxLineChars: number): string {
  if (text.length <= maxLineChars) return text;
  const row = formatLine(1, text, maxLineChars, 0);
  return row.slice(row.indexOf("|") + 1);
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

/**
 * Anchors and diff within `budget` bytes: the anchors get what they need up
 * to half of it, the diff the rest; each part that is cut ends with a note
 * naming the lines to read instead.
 */
function bound(
  anchors: string[],
  { lines: diff, total }: DiffLines,
  budget: number,
  display: string,
  regions: readonly ChangedRegion[],
): { anchors: string; diff: string } {
  const size = (lines: string[]) =>
    lines.reduce((n, l) => n + utf8Length(l) + 1, 0);
  if (diff.length === total && size(anchors) + size(diff) <= budget) {
    return { anchors: anchors.join("\n"), diff: diff.join("\n") };
  }
  const note = 200;
  const anchorBudget = Math.min(size(anchors), Math.floor(budget / 2));
  const keptAnchors = fitting(anchors, Math.max(0, anchorBudget - note));
  const outAnchors = anchors.slice(0, keptAnchors);
  if (keptAnchors < anchors.length) {
    const from = Number(/^\d+/.exec(anchors[keptAnchors])![0]);
    const to = Number(/^\d+/.exec(anchors[anchors.length - 1])![0]);
    outAnchors.push(
      `… ${
        anchors.length - keptAnchors
      } more lines not shown (the result is capped at ${
        Math.round(budget / 1024)
      } KiB): read lines ${from}–${to} of ${display} for their anchors.`,
    );
  }
  const diffBudget = budget - size(outAnchors) - note;
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

/**
 * A diff's lines: all of them, or (for a change too large to show whole)
 * the first ones, more than any result's budget holds, and how many there
 * are in all.
 */
interface DiffLines {
  lines: string[];
  total: number;
  /** Lines the diff adds and removes, as `git diff --numstat` counts them. */
  added: number;
  removed: number;
}

/**
 * Past this many lines (old and new together) or UTF-16 units, a cluster
 * whose edits only remove or only insert lines has its diff written from
 * the plan (those lines removed or added, the rest context) instead of
 * searched for line by line: the search would find the same lines, short
 * of which of several equal lines it names, only its head can be shown, and
 * it would hold the whole change several times over. A cluster that
 * replaces lines is always searched, so lines a whole write keeps as they
 * were stay context.
 */
const SEARCHED_MAX_LINES = 20_000;
const SEARCHED_MAX_CHARS = 4 * 1024 ** 2;

/** Whether a cluster is searched for its diff (see {@link SEARCHED_MAX_LINES}). */
function searchable(c: Cluster, input: EditInput): boolean {
  if (c.edits.some((e) => e.deleteCount > 0 && e.lines.length > 0)) {
    return true;
  }
  let lines = c.newLines!.length;
  let chars = 0;
  for (const l of c.newLines!) chars += l.length;
  for (let n = c.oldStart; n <= c.oldEnd; n++) {
    if (++lines > SEARCHED_MAX_LINES) return false;
    const line = input.oldLine(n);
    // A line not collected (a streamed file): the search path says so.
    if (line === undefined) return true;
    chars += line.length;
    if (chars > SEARCHED_MAX_CHARS) return false;
  }
  return lines <= SEARCHED_MAX_LINES;
}

/**
 * A large cluster's hunk written from its plan: context, removed and added
 * lines in order, the lines themselves only up to `room` (the rest is
 * counted, never built); null when a line it needs was not collected.
 */
function plannedHunk(
  c: Cluster,
  input: EditInput,
  room: number,
): { hunk: StructuredPatchHunk; total: number } | null {
  let missing = false;
  const lines: string[] = [];
  let total = 0;
  let removed = 0;
  let added = 0;
  const put = (mark: string, t: string) => {
    total++;
    lines.push(
      mark +
        (t.length > input.maxLineChars ? displayed(t, input.maxLineChars) : t),
    );
  };
  // Old lines `from` to `to - 1`: fetched while there is room, past it only counted.
  const olds = (mark: string, from: number, to: number) => {
    const stop = Math.min(to, from + Math.max(0, room - total));
    for (let n = from; n < stop; n++) {
      const line = input.oldLine(n);
      if (line === undefined) missing = true;
      put(mark, line ?? "");
    }
    total += to - stop;
  };
  let next = c.oldStart;
  for (const e of c.edits) {
    if (next < e.at) olds(" ", next, e.at);
    olds("-", e.at, e.at + e.deleteCount);
    for (const l of e.lines) {
      if (total < room) put("+", l);
      else total++;
    }
    removed += e.deleteCount;
    added += e.lines.length;
    next = Math.max(next, e.at + e.deleteCount);
  }
  if (next <= c.oldEnd) olds(" ", next, c.oldEnd + 1);
  if (missing) return null;
  const oldLines = c.oldEnd - c.oldStart + 1;
  return {
    hunk: {
      oldStart: c.oldStart,
      oldLines,
      newStart: c.newStart,
      newLines: oldLines - removed + added,
      lines,
    },
    total,
  };
}

function diffOf(
  input: EditInput,
  clusters: Cluster[],
  budget: number,
): DiffLines {
  const hunks: StructuredPatchHunk[] = [];
  // More lines than `budget` bytes can show (each line costs 2 at least).
  const room = Math.ceil(budget / 2) + 2;
  let shown = 0;
  let total = 0;
  let added = 0;
  let removed = 0;
  // A cluster's counts as its plan says them: exact for one that only
  // inserts or only removes lines, and for one too large to diff.
  const countPlan = (c: Cluster) => {
    for (const e of c.edits) {
      added += e.lines.length;
      removed += e.deleteCount;
    }
  };
  for (const c of clusters) {
    if (c.complete && !searchable(c, input)) {
      const planned = plannedHunk(c, input, Math.max(0, room - shown));
      if (planned) {
        countPlan(c);
        hunks.push(planned.hunk);
        shown += planned.hunk.lines.length + 1;
        total += planned.total + 1;
        continue;
      }
      c.complete = false;
    }
    const old: string[] = [];
    for (let n = c.oldStart; c.complete && n <= c.oldEnd; n++) {
      const line = input.oldLine(n);
      if (line === undefined) c.complete = false;
      old.push(line ?? "");
    }
    if (!c.complete) {
      const cut = c.edits.reduce((s, e) => s + e.deleteCount, 0);
      const put = c.edits.reduce((s, e) => s + e.lines.length, 0);
      countPlan(c);
      hunks.push({
        oldStart: c.oldStart,
        oldLines: 0,
        newStart: c.newStart,
        newLines: 0,
        lines: [
          ` (${cut} lines removed and ${put} written here: too large to show in the diff)`,
        ],
      });
      shown += 2;
      total += 2;
      continue;
    }
    const text = (
      lines: string[],
    ) => (lines.length ? lines.join("\n") + "\n" : "");
    const part = structuredPatch(
      input.display,
      input.display,
      text(old),
      text(c.newLines!),
      "",
      "",
      { context: DIFF_CONTEXT },
    );
    for (const h of part.hunks) {
      for (const l of h.lines) {
        if (l[0] === "+") added++;
        else if (l[0] === "-") removed++;
      }
      shown += h.lines.length + 1;
      total += h.lines.length + 1;
      hunks.push({
        ...h,
        oldStart: h.oldStart + c.oldStart - 1,
        newStart: h.newStart + c.newStart - 1,
        // Diffed whole, shown cut: a change past the display limit is still
        // found, and a minified line is never shown whole.
        lines: h.lines.map((l) =>
          l.length > input.maxLineChars + 1
            ? l[0] + displayed(l.slice(1), input.maxLineChars)
            : l
        ),
      });
    }
  }
  if (hunks.length === 0) return { lines: [], total: 0, added, removed };
  const lines = formatPatch(
    {
      oldFileName: input.created ? "/dev/null" : input.display,
      newFileName: input.display,
      oldHeader: undefined,
      newHeader: undefined,
      hunks,
    },
    FILE_HEADERS_ONLY,
  ).trimEnd().split("\n");
  // Whole, it counts as it reads; cut, the two file headers and every
  // line not built count too.
  return {
    lines,
    total: shown === total ? lines.length : total + 2,
    added,
    removed,
  };
}
