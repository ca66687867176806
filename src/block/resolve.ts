/**
 * Which block a block anchor names (docs/patch-format.md "Block anchors"):
 * the outermost syntax node that starts at the line's first non-blank
 * character and ends on a later line. A pure function of a parsed tree,
 * the file's lines and a line number; Markdown needs no tree.
 *
 * @module
 */
import type { NodePoint, SyntaxNode } from "./_node.ts";
import { markdownSectionEnd } from "./markdown.ts";

export type { NodeCursor, NodePoint, SyntaxNode } from "./_node.ts";

/**
 * Most syntax levels between the root and a line's first character that
 * resolving a block anchor walks through; a line deeper than that is
 * refused (`NOT_A_BLOCK`), so the work of one resolution stays bounded
 * whatever the nesting (tests/block/deep.test.ts).
 */
export const MAX_BLOCK_DEPTH = 1_000;

/** Syntax levels {@link nearestOpeners} walks through in all. */
const NEAREST_STEPS = 20 * MAX_BLOCK_DEPTH;

/** A resolved block: lines `start..end`, 1-based, inclusive. */
export interface BlockSpan {
  /** Always ok. */
  kind: "block";
  /** The line the anchor names. */
  start: number;
  /** The block's last line (replaced whole). */
  end: number;
  /** The node's type (`function_declaration`, `section`, …). */
  node: string;
}

/** Why a line opens no block. */
export interface BlockMiss {
  /** Not a block. */
  kind: "none";
  /** A sentence saying why, without the line's anchor. */
  reason: string;
  /** A range that covers what was meant, when one is known (code after the node on its last line). */
  range?: { start: number; end: number };
  /** The line lies more than {@link MAX_BLOCK_DEPTH} levels deep: it was not looked at. */
  tooDeep?: true;
}

/** The answer of {@link resolveBlock}. */
export type BlockAnswer = BlockSpan | BlockMiss;

/** Text after a node on its last line that still lets the line be replaced whole. */
const TRAILING = /^\s*[,;]?\s*(?:(?:\/\/|#|--).*|\/\*.*\*\/\s*)?$/;

type Span = [number, number, number, number];

/** The root's content span, worked out once per tree (a root may hold many children). */
const CONTENT = new WeakMap<SyntaxNode, Span | null>();

function rootContent(root: SyntaxNode): Span | null {
  if (CONTENT.has(root)) return CONTENT.get(root)!;
  const kids = root.children.filter((k): k is SyntaxNode => k !== null);
  if (kids.length === 0) {
    CONTENT.set(root, null);
    return null;
  }
  const a = kids[0].startPosition;
  const b = kids[kids.length - 1].endPosition;
  const span: Span = [a.row, a.column, b.row, b.column];
  CONTENT.set(root, span);
  return span;
}

function before(ar: number, ac: number, br: number, bc: number): boolean {
  return ar < br || (ar === br && ac <= bc);
}

/** The last line a node covers, 1-based: an end at column 0 counts as the line before. */
export function lastLineOf(node: SyntaxNode): number {
  const end = node.endPosition;
  return end.column === 0 ? end.row : end.row + 1;
}

/** Syntax levels a resolution may still walk through, shared by the calls that spend it. */
export interface StepBudget {
  /** Levels left. */
  left: number;
}

function after(a: NodePoint, b: NodePoint): boolean {
  return a.row > b.row || (a.row === b.row && a.column > b.column);
}

/**
 * The outermost node below the root that starts exactly at `goal` and
 * `opens` a block, found walking down from the root along the nodes that
 * hold `goal`: one step per level (a cursor keeps its path), where walking
 * up from the smallest node would find each `parent` again from the root.
 * `"deep"` when the walk would pass the budget.
 */
function outermostOpener(
  root: SyntaxNode,
  goal: NodePoint,
  opens: (node: SyntaxNode) => boolean,
  steps: StepBudget,
): SyntaxNode | null | "deep" {
  const at = (p: NodePoint) => p.row === goal.row && p.column === goal.column;
  if (!root.walk) {
    let node = root;
    for (;;) {
      const child = node.children.find((k): k is SyntaxNode =>
        k !== null && !after(k.startPosition, goal) &&
        after(k.endPosition, goal)
      );
      if (!child) return null;
      if (--steps.left < 0) return "deep";
      if (at(child.startPosition) && opens(child)) return child;
      node = child;
    }
  }
  const cursor = root.walk();
  try {
    while (cursor.gotoFirstChildForPosition(goal)) {
      // A child that ends where the goal starts does not hold it.
      while (!after(cursor.endPosition, goal)) {
        if (!cursor.gotoNextSibling()) return null;
      }
      if (after(cursor.startPosition, goal)) return null;
      if (--steps.left < 0) return "deep";
      if (at(cursor.startPosition)) {
        const node = cursor.currentNode;
        if (opens(node)) return node;
      }
    }
    return null;
  } finally {
    cursor.delete();
  }
}

/**
 * Resolves the block that opens on `line`.
 *
 * @param root The parsed tree's root node, or null for Markdown (`lines` alone decide).
 * @param lines The file's lines, as parsed (without a BOM).
 * @param line 1-based line the anchor names.
 * @param steps Syntax levels it may still walk through (default {@link MAX_BLOCK_DEPTH}); spent as it walks.
 * @returns The span, or why it is not a block.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveBlock } from "./resolve.ts";
 * const md = ["# A", "text", "## B", "x"];
 * assert.deepEqual(resolveBlock(null, md, 1), { kind: "block", start: 1, end: 4, node: "section" });
 * assert.equal(resolveBlock(null, md, 2).kind, "none");
 * ```
 */
export function resolveBlock(
  root: SyntaxNode | null,
  lines: readonly string[],
  line: number,
  steps: StepBudget = { left: MAX_BLOCK_DEPTH },
): BlockAnswer {
  if (line < 1 || line > lines.length) {
    return { kind: "none", reason: `the file has no line ${line}` };
  }
  if (root === null) {
    const end = markdownSectionEnd(lines, line);
    return end === null
      ? {
        kind: "none",
        reason: "the line is no Markdown heading (outside fenced code)",
      }
      : { kind: "block", start: line, end, node: "section" };
  }
  const text = lines[line - 1];
  const column = text.search(/\S/);
  if (column < 0) return { kind: "none", reason: "the line is blank" };
  const row = line - 1;
  const content = rootContent(root);
  const opens = (node: SyntaxNode): boolean => {
    const s = node.startPosition;
    const spansAll = content !== null &&
      before(s.row, s.column, content[0], content[1]) &&
      before(
        content[2],
        content[3],
        node.endPosition.row,
        node.endPosition.column,
      );
    return !node.isError && node.type !== "ERROR" && !spansAll &&
      lastLineOf(node) > line;
  };
  const walked = outermostOpener(root, { row, column }, opens, steps);
  if (walked === "deep") {
    return {
      kind: "none",
      reason:
        `the line lies more than ${MAX_BLOCK_DEPTH} syntax levels deep, past what a block anchor resolves`,
      tooDeep: true,
    };
  }
  const best = walked;
  if (!best) {
    return {
      kind: "none",
      reason: "no multi-line node starts at the line's first character",
    };
  }
  const end = lastLineOf(best);
  const rest = best.endPosition.column === 0
    ? ""
    : lines[end - 1].slice(best.endPosition.column);
  if (!TRAILING.test(rest)) {
    return {
      kind: "none",
      reason: `the ${best.type} ends on line ${end} with other code after it`,
      range: { start: line, end },
    };
  }
  return { kind: "block", start: line, end, node: best.type };
}

/**
 * The nearest lines above and below `line` that open a block, looking at
 * most `reach` lines each way.
 *
 * @param root The tree's root, or null for Markdown.
 * @param lines The file's lines.
 * @param line 1-based line.
 * @param reach Lines looked at in each direction (default 200).
 * @returns The line above and the line below, each undefined when none is found.
 */
export function nearestOpeners(
  root: SyntaxNode | null,
  lines: readonly string[],
  line: number,
  reach = 200,
): { above?: number; below?: number } {
  const out: { above?: number; below?: number } = {};
  // One budget for the whole search, so 2 × reach deep lines cost no more
  // than a few deep resolutions.
  const total = { left: NEAREST_STEPS };
  const opens = (n: number): boolean | null => {
    if (total.left <= 0) return null;
    const steps = { left: Math.min(MAX_BLOCK_DEPTH, total.left) };
    const from = steps.left;
    const kind = resolveBlock(root, lines, n, steps).kind;
    total.left -= from - Math.max(0, steps.left);
    return kind === "block";
  };
  for (let n = line - 1; n >= Math.max(1, line - reach); n--) {
    const found = opens(n);
    if (found === null) break;
    if (found) {
      out.above = n;
      break;
    }
  }
  for (let n = line + 1; n <= Math.min(lines.length, line + reach); n++) {
    const found = opens(n);
    if (found === null) break;
    if (found) {
      out.below = n;
      break;
    }
  }
  return out;
}
