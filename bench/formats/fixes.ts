/**
 * The minimal correct fix of a task in every edit format, as a model would
 * write it: the bare payload and the same payload inside a minimal tool call.
 *
 * @module
 */
import { formatPatchText, lineHash, type PatchOp } from "../../mod.ts";
import { countOccurrences, toLines } from "./_lines.ts";
import type { Task } from "./tasks.ts";

/** The edit formats whose payloads are counted. */
export const FORMATS = [
  "hashline_text",
  "hashline_json",
  "str_replace",
  "unified_diff",
  "apply_patch",
  "aider_blocks",
  "whole_file",
] as const;

/** One edit format. */
export type FormatName = typeof FORMATS[number];

/** How each format is written. */
export const FORMAT_NOTES: Readonly<Record<FormatName, string>> = {
  hashline_text: "hashline text form (`@@ PATH`, `= L:HH`, `~line`)",
  hashline_json: "hashline JSON ops (`{path, ops}`)",
  str_replace:
    "str_replace, old/new strings of whole lines with the least context that is unique",
  unified_diff: "unified diff (`diff -u`, 3 lines of context)",
  apply_patch:
    "Codex `apply_patch` (`*** Update File`, 3 lines of context, `@@ line` when that is not unique)",
  aider_blocks:
    "Aider SEARCH/REPLACE block (same old/new text as str_replace; plain reply text, no tool call)",
  whole_file: "whole-file rewrite (the fixed file)",
};

/** The changed region: in the buggy file, `deleteCount` lines from `start` give way to `lines`. */
export interface Hunk {
  /** 0-based first line of the region in the buggy file. */
  start: number;
  /** Lines of the buggy file replaced. */
  deleteCount: number;
  /** The original lines that stand there instead. */
  lines: string[];
}

/** Everything the appliers and the token counts need about a task's fix. */
export interface Fix {
  /** The region. */
  hunk: Hunk;
  /** Hashline ops (anchors from a read of the buggy file). */
  ops: PatchOp[];
  /** Hashline text form. */
  hashlineText: string;
  /** str_replace old text (whole lines, least unique context). */
  oldString: string;
  /** str_replace new text. */
  newString: string;
  /** The old text's lines (a SEARCH block). */
  oldLines: string[];
  /** The new text's lines (a REPLACE block). */
  newLines: string[];
  /** Unified diff, `a/`/`b/` prefixes, 3 lines of context. */
  unifiedDiff: string;
  /** Codex `apply_patch` envelope. */
  codexPatch: string;
  /** The fixed file. */
  wholeFile: string;
  /** Payloads per format: bare, and as a minimal tool call. */
  payloads: Record<FormatName, { bare: string; wrapped: string }>;
}

/**
 * Computes the changed region between two texts (common prefix and suffix
 * of their lines).
 *
 * @param buggy The text read.
 * @param original The text wanted.
 * @returns The region.
 * @throws {RangeError} When the texts have the same lines.
 */
export function hunkOf(buggy: string, original: string): Hunk {
  const b = toLines(buggy);
  const o = toLines(original);
  let p = 0;
  while (p < b.length && p < o.length && b[p] === o[p]) p++;
  let q = 0;
  while (
    q < b.length - p && q < o.length - p &&
    b[b.length - 1 - q] === o[o.length - 1 - q]
  ) q++;
  if (p === b.length && p === o.length) {
    throw new RangeError(
      "Cannot build a fix: the two texts have the same lines.",
    );
  }
  return {
    start: p,
    deleteCount: b.length - p - q,
    lines: o.slice(p, o.length - q),
  };
}

function anchor(lines: readonly string[], index: number): string {
  return `${index + 1}:${lineHash(lines[index])}`;
}

/**
 * Hashline ops for a region, anchored on the lines as read.
 *
 * @param lines The lines read.
 * @param hunk The region.
 * @returns One op.
 */
export function hashlineOps(lines: readonly string[], hunk: Hunk): PatchOp[] {
  const { start, deleteCount, lines: fresh } = hunk;
  if (deleteCount > 0) {
    const range = {
      start: anchor(lines, start),
      ...(deleteCount > 1
        ? { end: anchor(lines, start + deleteCount - 1) }
        : {}),
    };
    return fresh.length === 0
      ? [{ op: "delete", ...range }]
      : [{ op: "replace", ...range, lines: fresh }];
  }
  return start > 0
    ? [{ op: "insert_after", anchor: anchor(lines, start - 1), lines: fresh }]
    : [{ op: "insert_before", anchor: anchor(lines, 0), lines: fresh }];
}

/**
 * The smallest window of whole lines around the region whose text occurs
 * exactly once in the file (fewest added lines; above before below on a tie).
 *
 * @param content The file.
 * @param lines Its lines.
 * @param hunk The region.
 * @returns `[lo, hi)` line indices of the window.
 */
export function uniqueWindow(
  content: string,
  lines: readonly string[],
  hunk: Hunk,
): [number, number] {
  let lo = hunk.start;
  let hi = hunk.start + hunk.deleteCount;
  if (lo === hi) {
    if (lo > 0) lo--;
    else hi++;
  }
  for (let extra = 0; extra <= lines.length; extra++) {
    for (let above = extra; above >= 0; above--) {
      const a = lo - above;
      const b = hi + extra - above;
      if (a < 0 || b > lines.length) continue;
      if (countOccurrences(content, lines.slice(a, b).join("\n")) === 1) {
        return [a, b];
      }
    }
  }
  return [0, lines.length];
}

function unifiedDiff(
  path: string,
  lines: readonly string[],
  hunk: Hunk,
): string {
  const end = hunk.start + hunk.deleteCount;
  const before = Math.min(3, hunk.start);
  const after = Math.min(3, lines.length - end);
  const ctxA = lines.slice(hunk.start - before, hunk.start);
  const ctxB = lines.slice(end, end + after);
  const oldLen = before + hunk.deleteCount + after;
  const newLen = before + hunk.lines.length + after;
  const from = hunk.start - before + 1;
  const out = [
    `--- a/${path}`,
    `+++ b/${path}`,
    `@@ -${oldLen === 0 ? from - 1 : from},${oldLen} +${
      newLen === 0 ? from - 1 : from
    },${newLen} @@`,
    ...ctxA.map((l) => " " + l),
    ...lines.slice(hunk.start, end).map((l) => "-" + l),
    ...hunk.lines.map((l) => "+" + l),
    ...ctxB.map((l) => " " + l),
  ];
  return out.join("\n") + "\n";
}

function codexPatch(
  path: string,
  content: string,
  lines: readonly string[],
  hunk: Hunk,
): string {
  const end = hunk.start + hunk.deleteCount;
  const a = Math.max(0, hunk.start - 3);
  const b = Math.min(lines.length, end + 3);
  const chunk = lines.slice(a, b).join("\n");
  let header = "";
  if (countOccurrences(content, chunk) !== 1) {
    const indent = (s: string): number => /^\s*/.exec(s)![0].length;
    const depth = indent(lines[hunk.start] ?? "");
    for (let i = a - 1; i >= 0; i--) {
      const t = lines[i].trim();
      if (t === "" || indent(lines[i]) >= depth) continue;
      if (lines.filter((l) => l.trim() === t).length === 1) {
        header = " " + t;
        break;
      }
    }
  }
  return [
    "*** Begin Patch",
    `*** Update File: ${path}`,
    `@@${header}`,
    ...lines.slice(a, hunk.start).map((l) => " " + l),
    ...lines.slice(hunk.start, end).map((l) => "-" + l),
    ...hunk.lines.map((l) => "+" + l),
    ...lines.slice(end, b).map((l) => " " + l),
    "*** End Patch",
  ].join("\n") + "\n";
}

function call(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ name, arguments: args });
}

/**
 * Builds the fix of a task in every format.
 *
 * @param task The task.
 * @returns The fix.
 */
export function buildFix(task: Task): Fix {
  const lines = toLines(task.buggy);
  const hunk = hunkOf(task.buggy, task.original);
  const ops = hashlineOps(lines, hunk);
  const hashlineText = formatPatchText({ files: [{ path: task.path, ops }] });
  const [lo, hi] = uniqueWindow(task.buggy, lines, hunk);
  const end = hunk.start + hunk.deleteCount;
  const oldLines = lines.slice(lo, hi);
  const newLines = [
    ...lines.slice(lo, hunk.start),
    ...hunk.lines,
    ...lines.slice(end, hi),
  ];
  const oldString = oldLines.join("\n");
  const newString = newLines.join("\n");
  const diff = unifiedDiff(task.path, lines, hunk);
  const codex = codexPatch(task.path, task.buggy, lines, hunk);
  const aider = [
    task.path,
    "```",
    "<<<<<<< SEARCH",
    ...oldLines,
    "=======",
    ...newLines,
    ">>>>>>> REPLACE",
    "```",
  ].join("\n") + "\n";
  const json = JSON.stringify({ path: task.path, ops });
  return {
    hunk,
    ops,
    hashlineText,
    oldString,
    newString,
    oldLines,
    newLines,
    unifiedDiff: diff,
    codexPatch: codex,
    wholeFile: task.original,
    payloads: {
      hashline_text: {
        bare: hashlineText,
        wrapped: call("edit_file", { patch: hashlineText }),
      },
      hashline_json: {
        bare: json,
        wrapped: call("edit_file", { path: task.path, ops }),
      },
      str_replace: {
        bare: oldString + "\n" + newString,
        wrapped: call("edit_file", {
          path: task.path,
          old_string: oldString,
          new_string: newString,
        }),
      },
      unified_diff: { bare: diff, wrapped: call("apply_diff", { diff }) },
      apply_patch: {
        bare: codex,
        wrapped: call("apply_patch", { input: codex }),
      },
      aider_blocks: { bare: aider, wrapped: aider },
      whole_file: {
        bare: task.original,
        wrapped: call("write_file", {
          path: task.path,
          content: task.original,
        }),
      },
    },
  };
}
