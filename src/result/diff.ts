/**
 * The unified diff of an edit result (docs/patch-format.md "Results"),
 * worked out in bounded work: each cluster of edits is searched line by
 * line only while its changed span and the edit length it needs stay within
 * the bounds of `patch/diff_bounds.ts`; past them the span is shown as one
 * hunk (its old lines removed, its new lines added), built only as far as
 * the result can show. The `+`/`-` counts are always those of the whole
 * diff, never of the part shown.
 *
 * @module
 */
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import type { StructuredPatchHunk } from "diff";
import { formatLine } from "../anchor/format.ts";
import {
  DIFF_SEARCH_MAX_CHARS,
  DIFF_SEARCH_MAX_LINES,
  diffEditCap,
} from "../patch/diff_bounds.ts";
import type { PlannedEdit } from "../patch/types.ts";
import { utf8Length } from "../_internal/names.ts";

/** Lines of context around each change in the diff. */
export const DIFF_CONTEXT = 3;

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
  /** Most bytes of anchors and diff for this file (default: 64 KiB). */
  maxResultBytes?: number;
  /** False to leave out the fresh anchors (and the lines they show). */
  anchors?: boolean;
}

/** Edits near each other, diffed together over their old lines and context. */
export interface Cluster {
  oldStart: number;
  oldEnd: number;
  newStart: number;
  edits: PlannedEdit[];
  newLines?: string[];
  complete: boolean;
}

/** A line as the read view shows it: cut past the display limit, with its `[+N chars]` marker. */
function displayed(text: string, maxLineChars: number): string {
  if (text.length <= maxLineChars) return text;
  const row = formatLine(1, text, maxLineChars, 0);
  return row.slice(row.indexOf("|") + 1);
}

/**
 * A diff's lines: all of them, or (for a change too large to show whole)
 * the first ones, more than any result's budget holds, and how many there
 * are in all.
 */
export interface DiffLines {
  lines: string[];
  total: number;
  /** Lines the whole diff marks `+`. */
  added: number;
  /** Lines the whole diff marks `-`. */
  removed: number;
}

/**
 * Past the bounds of `patch/diff_bounds.ts`, a cluster whose edits only
 * remove or only insert lines has its diff written from the plan (those
 * lines removed or added, the rest context) instead of searched for line by
 * line: the search would find the same lines, short of which of several
 * equal lines it names. A cluster that replaces lines is searched within
 * those bounds, so lines a whole write keeps as they were stay context.
 */
function searchable(c: Cluster, input: EditInput): boolean {
  if (c.edits.some((e) => e.deleteCount > 0 && e.lines.length > 0)) {
    return true;
  }
  let lines = c.newLines!.length;
  let chars = 0;
  for (const l of c.newLines!) chars += l.length;
  for (let n = c.oldStart; n <= c.oldEnd; n++) {
    if (++lines > DIFF_SEARCH_MAX_LINES) return false;
    const line = input.oldLine(n);
    // A line not collected (a streamed file): the search path says so.
    if (line === undefined) return true;
    chars += line.length;
    if (chars > DIFF_SEARCH_MAX_CHARS) return false;
  }
  return lines <= DIFF_SEARCH_MAX_LINES;
}

/** A hunk and what it stands for: its lines in all (built or not), `+` and `-`. */
interface Counted {
  hunk: StructuredPatchHunk;
  total: number;
  added: number;
  removed: number;
}

/**
 * A large cluster's hunk written from its plan: context, removed and added
 * lines in order, the lines themselves only while they fit in `room` bytes
 * (the rest is counted, never built); null when a line it needs was not
 * collected.
 */
function plannedHunk(
  c: Cluster,
  input: EditInput,
  room: number,
): Counted | null {
  let missing = false;
  const lines: string[] = [];
  let total = 0;
  let bytes = 0;
  let removed = 0;
  let added = 0;
  const put = (mark: string, t: string) => {
    total++;
    const line = mark +
      (t.length > input.maxLineChars ? displayed(t, input.maxLineChars) : t);
    bytes += utf8Length(line) + 1;
    lines.push(line);
  };
  // Old lines `from` to `to - 1`: fetched while there is room, past it only counted.
  const olds = (mark: string, from: number, to: number) => {
    let n = from;
    for (; n < to && bytes <= room; n++) {
      const line = input.oldLine(n);
      if (line === undefined) missing = true;
      put(mark, line ?? "");
    }
    total += to - n;
  };
  let next = c.oldStart;
  for (const e of c.edits) {
    if (next < e.at) olds(" ", next, e.at);
    olds("-", e.at, e.at + e.deleteCount);
    let i = 0;
    for (; i < e.lines.length && bytes <= room; i++) put("+", e.lines[i]);
    total += e.lines.length - i;
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
    added,
    removed,
  };
}

/** Lines both sides share at their start and (apart from those) at their end. */
function sharedEnds(
  old: readonly string[],
  neu: readonly string[],
): [number, number] {
  const both = Math.min(old.length, neu.length);
  let head = 0;
  while (head < both && old[head] === neu[head]) head++;
  let tail = 0;
  while (
    tail < both - head &&
    old[old.length - 1 - tail] === neu[neu.length - 1 - tail]
  ) tail++;
  return [head, tail];
}

/**
 * Whether more than `cap` lines of either side have no equal on the other
 * (counted with multiplicity): each must be removed or added, so the search
 * would give up; a rewrite is found so in one pass instead of a failed search.
 */
function unmatched(
  a: readonly string[],
  b: readonly string[],
  cap: number,
): boolean {
  const count = new Map<string, number>();
  for (const l of a) count.set(l, (count.get(l) ?? 0) + 1);
  let edits = 0;
  for (const l of b) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else if (++edits > cap) return true;
  }
  for (const n of count.values()) {
    edits += n;
    if (edits > cap) return true;
  }
  return false;
}

/**
 * A cluster's hunks found line by line, or null when the search would pass
 * the bounds of `patch/diff_bounds.ts`. The lines both sides share at its
 * ends are set aside first (but for the context), so a whole write that
 * changes a few lines searches only those.
 */
function searchedHunks(
  c: Cluster,
  old: readonly string[],
  input: EditInput,
): Counted[] | null {
  const neu = c.newLines!;
  const [head, tail] = sharedEnds(old, neu);
  const from = Math.max(0, head - DIFF_CONTEXT);
  const cut = Math.max(0, tail - DIFF_CONTEXT);
  const a = old.slice(from, old.length - cut);
  const b = neu.slice(from, neu.length - cut);
  const lines = a.length + b.length;
  let chars = 0;
  for (const l of a) chars += l.length;
  for (const l of b) chars += l.length;
  // The work is bounded by the edit length looked for (diffEditCap), so
  // many lines with few changes between them are still searched.
  if (chars > DIFF_SEARCH_MAX_CHARS) return null;
  const cap = diffEditCap(lines);
  if (unmatched(a, b, cap)) return null;
  const text = (ls: string[]) => (ls.length ? ls.join("\n") + "\n" : "");
  const part = structuredPatch(
    input.display,
    input.display,
    text(a),
    text(b),
    undefined,
    undefined,
    { context: DIFF_CONTEXT, maxEditLength: cap },
  );
  if (!part) return null;
  return part.hunks.map((h) => {
    let added = 0;
    let removed = 0;
    for (const l of h.lines) {
      if (l[0] === "+") added++;
      else if (l[0] === "-") removed++;
    }
    return {
      hunk: {
        ...h,
        oldStart: h.oldStart + c.oldStart - 1 + from,
        newStart: h.newStart + c.newStart - 1 + from,
        // Diffed whole, shown cut: a change past the display limit is still
        // found, and a minified line is never shown whole.
        lines: h.lines.map((l) =>
          l.length > input.maxLineChars + 1
            ? l[0] + displayed(l.slice(1), input.maxLineChars)
            : l
        ),
      },
      total: h.lines.length,
      added,
      removed,
    };
  });
}

/**
 * A cluster too large to search, as the one edit over its changed span
 * (the lines between those both sides share at its ends), with context.
 */
function spanCluster(c: Cluster, old: readonly string[]): Cluster {
  const neu = c.newLines!;
  const [head, tail] = sharedEnds(old, neu);
  const skip = Math.max(0, head - DIFF_CONTEXT);
  const keep = Math.max(0, tail - DIFF_CONTEXT);
  return {
    oldStart: c.oldStart + skip,
    oldEnd: c.oldEnd - keep,
    newStart: c.newStart + skip,
    edits: [{
      at: c.oldStart + head,
      deleteCount: old.length - head - tail,
      lines: neu.slice(head, neu.length - tail),
    }],
    complete: true,
  };
}

/**
 * The diff of an edit's clusters, built only as far as `budget` bytes can
 * show; its counts are those of the whole diff.
 *
 * @param input The old file and the plan.
 * @param clusters The edits grouped with their context.
 * @param budget Most bytes the result may show.
 * @returns The diff's lines, its full length and its `+`/`-` counts.
 */
export function diffOf(
  input: EditInput,
  clusters: Cluster[],
  budget: number,
): DiffLines {
  const hunks: StructuredPatchHunk[] = [];
  // Bytes of diff lines built so far: past `budget`, lines are only counted.
  let spent = 0;
  const room = () => Math.max(0, budget - spent);
  let shown = 0;
  let total = 0;
  let added = 0;
  let removed = 0;
  const take = (h: Counted) => {
    for (const l of h.hunk.lines) {
      if (spent > budget) break;
      spent += utf8Length(l) + 1;
    }
    hunks.push(h.hunk);
    shown += h.hunk.lines.length + 1;
    total += h.total + 1;
    added += h.added;
    removed += h.removed;
  };
  for (const c of clusters) {
    if (c.complete && !searchable(c, input)) {
      const planned = plannedHunk(c, input, room());
      if (planned) {
        take(planned);
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
      const gone = c.edits.reduce((s, e) => s + e.deleteCount, 0);
      const come = c.edits.reduce((s, e) => s + e.lines.length, 0);
      take({
        hunk: {
          oldStart: c.oldStart,
          oldLines: 0,
          newStart: c.newStart,
          newLines: 0,
          lines: [
            ` (${gone} lines removed and ${come} written here: too large to show in the diff)`,
          ],
        },
        total: 1,
        added: come,
        removed: gone,
      });
      continue;
    }
    const found = searchedHunks(c, old, input);
    if (found) {
      for (const h of found) take(h);
      continue;
    }
    take(plannedHunk(spanCluster(c, old), input, room())!);
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
