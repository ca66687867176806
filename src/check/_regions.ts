/**
 * Checking only the part of a text an edit changed (docs/syntax-checks.md,
 * "Regions"). A clean parse of the text before the edit leaves its **cuts**:
 * rows where a top-level statement starts and no top-level node (comments
 * included) runs across from the rows above. The text above a cut parses
 * the same whatever follows it, as long as the first statement after the
 * cut is unchanged; the text below a cut parses the same whatever precedes
 * it, as long as the parser arrives at the cut between two statements.
 *
 * So an edit is judged by parsing one **region** alone: from a cut with a
 * whole unchanged statement below it before the edit's first changed row,
 * to the end of the first whole unchanged statement after its last one.
 * The region must parse without an error, and the parser must arrive
 * between two statements where that last unchanged statement starts (the
 * edit did not run into it, as automatic semicolon insertion would when a
 * changed line and the next one join). Then the whole new text parses
 * without an error, and its cuts follow from the old ones and the region's.
 * Anything else (an error in the region, the last statement run into) is
 * no answer: the caller parses the whole text.
 *
 * Grammars whose scanners keep state across statements (Python's
 * indentation) are not judged this way; see `regions` in `languages.ts`.
 *
 * @module
 */
import type { NodePoint } from "../block/_node.ts";

/** The members of a tree-sitter node that cuts are read from. */
export interface CutNode {
  /** Where the node starts. */
  readonly startPosition: NodePoint;
  /** Where the node ends (exclusive). */
  readonly endPosition: NodePoint;
  /** Whether the grammar lets it stand anywhere (a comment). */
  readonly isExtra: boolean;
  /** Direct children, named and anonymous. */
  readonly children: (CutNode | null)[];
}

/** Most cuts a receipt keeps; a longer list is thinned (any subset is still cuts). */
export const MAX_CUTS = 4096;

/**
 * The cuts of a clean parse: 0-based rows, ascending, each above 0.
 *
 * @param root The tree's root node.
 * @returns The rows (at most {@link MAX_CUTS}).
 */
export function cutsOf(root: CutNode): number[] {
  const out: number[] = [];
  let reach = -1;
  for (const kid of root.children) {
    if (!kid) continue;
    const start = kid.startPosition.row;
    const end = kid.endPosition;
    // A node that ends at column 0 ends with the line break above.
    const last = end.column === 0 && end.row > start ? end.row - 1 : end.row;
    if (!kid.isExtra && start > reach && start > 0) out.push(start);
    if (last > reach) reach = last;
  }
  return thin(out);
}

function thin(cuts: number[]): number[] {
  if (cuts.length <= MAX_CUTS) return cuts;
  const step = Math.ceil(cuts.length / MAX_CUTS);
  return cuts.filter((_, i) => i % step === 0);
}

/** Whether `cuts` could be cuts of a text of `rows` rows (a receipt from disk is checked so). */
export function plausibleCuts(cuts: unknown, rows: number): cuts is number[] {
  if (!Array.isArray(cuts) || cuts.length > MAX_CUTS) return false;
  let last = 0;
  for (const c of cuts) {
    if (!Number.isSafeInteger(c) || c <= last || c >= rows) return false;
    last = c;
  }
  return true;
}

/** The number of rows of a text (line breaks plus one). */
export function rowCount(text: string): number {
  return pointAt(text, text.length).row + 1;
}

/** Where each row starts, up to row `upTo` (or all). */
function rowStarts(text: string, upTo = Infinity): number[] {
  const starts = [0];
  for (
    let i = text.indexOf("\n");
    i !== -1 && starts.length <= upTo;
    i = text.indexOf("\n", i + 1)
  ) starts.push(i + 1);
  return starts;
}

/**
 * Where a UTF-16 index falls in a text: its 0-based row and column.
 *
 * @param text The text.
 * @param index An index into it.
 * @returns The row and column.
 */
export function pointAt(text: string, index: number): NodePoint {
  let row = 0;
  let last = -1;
  for (
    let i = text.indexOf("\n");
    i !== -1 && i < index;
    i = text.indexOf("\n", i + 1)
  ) {
    row++;
    last = i;
  }
  return { row, column: index - last - 1 };
}

/**
 * How much two texts share at their start and, after that, at their end
 * (UTF-16 code units; the two never overlap).
 *
 * @param before One text.
 * @param after The other.
 * @returns The lengths of the shared start (`head`) and end (`tail`).
 */
export function changedSpan(
  before: string,
  after: string,
): { head: number; tail: number } {
  const most = Math.min(before.length, after.length);
  // Whole blocks compare natively; the last block char by char.
  const BLOCK = 4096;
  let head = 0;
  while (
    head + BLOCK <= most &&
    before.slice(head, head + BLOCK) === after.slice(head, head + BLOCK)
  ) head += BLOCK;
  while (head < most && before.charCodeAt(head) === after.charCodeAt(head)) {
    head++;
  }
  const room = most - head;
  let tail = 0;
  while (
    tail + BLOCK <= room &&
    before.slice(before.length - tail - BLOCK, before.length - tail) ===
      after.slice(after.length - tail - BLOCK, after.length - tail)
  ) tail += BLOCK;
  while (
    tail < room &&
    before.charCodeAt(before.length - 1 - tail) ===
      after.charCodeAt(after.length - 1 - tail)
  ) tail++;
  return { head, tail };
}

/** The part of a new text to parse alone, and how it maps back. */
export interface Region {
  /** The region's text: whole rows of the new text. */
  text: string;
  /** Where the region starts in the new text (UTF-16 index). */
  start: number;
  /** Its first row (the same in the old and the new text). */
  from: number;
  /**
   * Its last unchanged statement's first row within the region (where the
   * parser must arrive between statements), or null when it runs to the end.
   */
  tailAt: number | null;
  /** The old text's cuts from that statement's row on, moved to new rows. */
  below: number[];
  /** The old text's cuts up to `from` (with `from` itself when it is a cut). */
  above: number[];
}

/**
 * The region of `after` that judges the edit from `before`.
 *
 * @param before The old text (it parsed without an error).
 * @param after The new text.
 * @param cuts The old text's cuts.
 * @returns The region, or null when the texts are the same or the region
 *   would be most of the new text (a whole parse costs no more).
 */
export function regionOf(
  before: string,
  after: string,
  cuts: readonly number[],
): Region | null {
  const { head, tail } = changedSpan(before, after);
  if (head === before.length && head === after.length) return null;
  const firstRow = pointAt(before, head).row;
  const lastRow = pointAt(before, before.length - tail).row;
  const shift = rowCount(after) - rowCount(before);
  // From: the cut above the last cut at or above the first changed row, so
  // one whole unchanged statement leads into the change (or the very top).
  let at = -1;
  while (at + 1 < cuts.length && cuts[at + 1] <= firstRow) at++;
  const from = at >= 1 ? cuts[at - 1] : 0;
  // To: the first cut below the last changed row, and its statement whole.
  let next = at + 1;
  while (next < cuts.length && cuts[next] <= lastRow) next++;
  const tailRow = next < cuts.length ? cuts[next] : null;
  const endRow = next + 1 < cuts.length ? cuts[next + 1] : null;
  const starts = rowStarts(after, endRow === null ? from : endRow + shift);
  const text = after.slice(
    starts[from],
    endRow === null ? after.length : starts[endRow + shift],
  );
  if (text.length * 2 > after.length) return null;
  return {
    text,
    start: starts[from],
    from,
    tailAt: tailRow === null ? null : tailRow + shift - from,
    below: tailRow === null ? [] : cuts.slice(next).map((c) => c + shift),
    above: cuts.slice(0, Math.max(0, at)),
  };
}

/**
 * The new text's cuts, when the region's clean parse proves the whole text
 * clean; null when it does not (the parser ran into the last unchanged
 * statement).
 *
 * @param region The region parsed.
 * @param regionCuts The cuts of the region's own clean parse.
 * @returns The new text's cuts, or null.
 */
export function joinCuts(
  region: Region,
  regionCuts: readonly number[],
): number[] | null {
  if (region.tailAt !== null && !regionCuts.includes(region.tailAt)) {
    return null;
  }
  const inside = regionCuts
    .filter((c) => region.tailAt === null || c < region.tailAt)
    .map((c) => c + region.from);
  return thin([
    ...region.above,
    ...inside,
    ...region.below,
  ]);
}
