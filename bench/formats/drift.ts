/**
 * What happens to a file between the read and the edit, as other tools
 * change files: each drift kind turns the file as read into the file on disk
 * when the edit arrives, and says what the right result is.
 *
 * @module
 */
import { diffArrays } from "diff";
import { createRng, deriveSeed } from "./_rng.ts";
import { fromLines, toLines } from "./_lines.ts";
import type { Hunk } from "./fixes.ts";
import type { Task } from "./tasks.ts";

/** The drift kinds, in report order. */
export const DRIFT_KINDS = [
  "none",
  "insert_above",
  "delete_above",
  "target_edited",
  "adjacent_edited",
  "copy_above",
  "copy_directly_above",
  "copy_directly_below",
  "reformat",
  "crlf",
] as const;

/** One drift kind. */
export type DriftKind = typeof DRIFT_KINDS[number];

/** What is done to the file, and the ideal outcome of an edit arriving after it. */
export const DRIFT_NOTES: Readonly<
  Record<DriftKind, { what: string; ideal: string }>
> = {
  none: { what: "no change (control)", ideal: "CORRECT" },
  insert_above: {
    what: "a comment line inserted 1–8 lines above the target",
    ideal: "CORRECT (the fix lands on the moved lines); REFUSED is safe",
  },
  delete_above: {
    what: "a line deleted 2–9 lines above the target",
    ideal: "CORRECT; REFUSED is safe",
  },
  target_edited: {
    what:
      "the target line itself edited (`/* edited */` put in the middle of its code)",
    ideal:
      "REFUSED: the fix was made for text that no longer stands; any write is WRONG",
  },
  adjacent_edited: {
    what:
      "the line next to the region edited (above it; below an insertion point)",
    ideal: "CORRECT: both changes kept (a merge); REFUSED is safe",
  },
  copy_above: {
    what: "a copy of the target's text inserted 2–6 lines above it",
    ideal:
      "CORRECT (the original target fixed, the copy kept); REFUSED is safe",
  },
  copy_directly_above: {
    what:
      "a copy of the target's lines inserted directly above them (for an insertion, of its anchor line)",
    ideal:
      "REFUSED: the file fits two placements equally well (the copy or the original); any write is WRONG",
  },
  copy_directly_below: {
    what:
      "a copy of the target's lines inserted directly below them (for an insertion, of its anchor line)",
    ideal:
      "REFUSED: the file fits two placements equally well (the copy or the original); any write is WRONG",
  },
  reformat: {
    what: "the whole file reformatted with prettier (defaults)",
    ideal:
      "REFUSED, or CORRECT if the result is the reformatted fixed file; the fix's own new lines may keep the style they were written in",
  },
  crlf: {
    what: "line ends converted to CRLF",
    ideal: "CORRECT: the fixed file with CRLF line ends",
  },
};

/**
 * Drift kinds after which the file fits two placements of the fix's lines
 * equally well: a copy stands right beside the original, so the lines as
 * read align with either. Only a refusal is right there, and comparisons of
 * correct counts leave these trials out.
 */
export const TWO_PLACEMENTS: ReadonlySet<DriftKind> = new Set<DriftKind>([
  "copy_directly_above",
  "copy_directly_below",
]);

/** The file on disk when the edit arrives, and the result that counts as correct. */
export interface Drifted {
  /** Kind. */
  kind: DriftKind;
  /** Content on disk after the drift. */
  content: string;
  /** The correct result; `null` when the only right answer is to refuse. */
  expected: string | null;
  /** What was done, with line numbers. */
  note: string;
  /**
   * For `reformat` only: whether a written result that is not exactly
   * `expected` still put the fix where it belongs, with only the fix's own
   * new lines in the style they were written in (see {@link restyledOnly}).
   */
  restyled?: (content: string) => Promise<boolean>;
}

/**
 * Whether `content` is the reformatted fixed file except that some of the
 * fix's own new lines keep the style they were written in: every line of
 * `content` missing from `expected` (by a line diff) is one of `fixLines`,
 * and formatting `content` again gives exactly `expected`. Such a result has
 * every line where it belongs and every change of the drift kept; only text
 * the edit itself brought is unformatted, which no tool can know to restyle.
 * A result that undid the reformat anywhere else fails the first test.
 *
 * @param content The written result.
 * @param expected The reformatted fixed file.
 * @param fixLines The fix's new lines, as written (from the read).
 * @param reformat Formats a whole file.
 * @returns `true` when only the fix's lines differ in style.
 */
export async function restyledOnly(
  content: string,
  expected: string,
  fixLines: readonly string[],
  reformat: (text: string) => Promise<string>,
): Promise<boolean> {
  const own = new Set(fixLines);
  const parts = diffArrays(toLines(content), toLines(expected));
  for (const part of parts) {
    if (part.removed && part.value.some((line) => !own.has(line))) return false;
  }
  try {
    return await reformat(content) === expected;
  } catch {
    return false;
  }
}

/** Formats a whole file (prettier); throws when it cannot parse it. */
export type Reformat = (path: string, text: string) => Promise<string>;

/**
 * Applies one drift kind to a task's file as read.
 *
 * @param task The task.
 * @param hunk Its fix region.
 * @param kind The drift kind.
 * @param options `seed`, and `reformat` for the `reformat` kind.
 * @returns The drifted file, or `undefined` when the kind does not apply
 *   (prettier could not parse the file).
 */
export async function drift(
  task: Task,
  hunk: Hunk,
  kind: DriftKind,
  options: { seed: number; reformat: Reformat },
): Promise<Drifted | undefined> {
  const b = toLines(task.buggy);
  const o = toLines(task.original);
  const rng = createRng(deriveSeed(options.seed, "drift", task.id, kind));
  const { start, deleteCount } = hunk;
  const target = deleteCount > 0 ? start : start - 1;
  const indent = (s: string): string => /^\s*/.exec(s)![0];
  const toOriginal = (i: number): number =>
    i < start ? i : i - deleteCount + hunk.lines.length;
  const splice = (
    xs: string[],
    at: number,
    del: number,
    ...add: string[]
  ): string[] => {
    const c = xs.slice();
    c.splice(at, del, ...add);
    return c;
  };
  switch (kind) {
    case "none":
      return { kind, content: task.buggy, expected: task.original, note: "" };
    case "insert_above": {
      const p = target + 1 - rng.between(1, 8);
      const line = indent(b[p] ?? "") + "// drift: inserted line";
      return {
        kind,
        content: fromLines(splice(b, p, 0, line)),
        expected: fromLines(splice(o, p, 0, line)),
        note: `line inserted before line ${p + 1}`,
      };
    }
    case "delete_above": {
      const p = target - rng.between(2, 9);
      return {
        kind,
        content: fromLines(splice(b, p, 1)),
        expected: fromLines(splice(o, p, 1)),
        note: `line ${p + 1} deleted`,
      };
    }
    case "target_edited": {
      // Inside the code, so no text match of the old whole line can still succeed.
      const line = b[target];
      const lead = indent(line).length;
      const mid = lead + Math.floor((line.length - lead) / 2);
      let at = line.indexOf(" ", mid);
      if (at < 0) at = line.lastIndexOf(" ", mid);
      const cut = at > lead ? at + 1 : lead;
      const edited = line.slice(0, cut) + "/* edited */ " + line.slice(cut);
      return {
        kind,
        content: fromLines(splice(b, target, 1, edited)),
        expected: null,
        note: `line ${target + 1} edited`,
      };
    }
    case "adjacent_edited": {
      const a = deleteCount > 0 ? start - 1 : start;
      const edited = b[a] + " // edited";
      return {
        kind,
        content: fromLines(splice(b, a, 1, edited)),
        expected: fromLines(splice(o, toOriginal(a), 1, edited)),
        note: `line ${a + 1} edited`,
      };
    }
    case "copy_above": {
      const copy = deleteCount > 0
        ? b.slice(start, start + deleteCount)
        : [b[target]];
      const p = target - rng.between(2, 6);
      return {
        kind,
        content: fromLines(splice(b, p, 0, ...copy)),
        expected: fromLines(splice(o, p, 0, ...copy)),
        note: `${copy.length} line(s) copied before line ${p + 1}`,
      };
    }
    case "copy_directly_above":
    case "copy_directly_below": {
      // The region's lines (an insertion's anchor line), copied next to themselves.
      const from = deleteCount > 0 ? start : Math.max(0, target);
      const count = deleteCount > 0 ? deleteCount : 1;
      const copy = b.slice(from, from + count);
      const p = kind === "copy_directly_above" ? from : from + count;
      return {
        kind,
        content: fromLines(splice(b, p, 0, ...copy)),
        expected: null,
        note: `${copy.length} line(s) copied ${
          kind === "copy_directly_above" ? "directly above" : "directly below"
        } line ${from + 1}`,
      };
    }
    case "reformat": {
      try {
        const expected = await options.reformat(task.path, task.original);
        return {
          kind,
          content: await options.reformat(task.path, task.buggy),
          expected,
          note: "prettier",
          restyled: (content) =>
            restyledOnly(
              content,
              expected,
              hunk.lines,
              (text) => options.reformat(task.path, text),
            ),
        };
      } catch {
        return undefined;
      }
    }
    case "crlf":
      return {
        kind,
        content: task.buggy.replaceAll("\n", "\r\n"),
        expected: task.original.replaceAll("\n", "\r\n"),
        note: "CRLF",
      };
  }
}
