/**
 * Which block a block anchor names (docs/patch-format.md, "Block anchors"): the outermost syntax node
 * that starts at the line's first non-blank character and ends on a later
 * line. A pure function of a parsed tree, the file's lines and a line
 * number; Markdown needs no tree.
 *
 * @module
 */
import type { SyntaxNode } from "./_node.ts";
import { markdownSectionEnd } from "./markdown.ts";

export type { NodePoint, SyntaxNode } from "./_node.ts";

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
}

/** The answer of {@link resolveBlock}. */
export type BlockAnswer = BlockSpan | BlockMiss;

/** Text after a node on its last line that still lets the line be replaced whole. */
const TRAILING = /^\s*[,;]?\s*(?:(?:\/\/|#|--).*|\/\*.*\*\/\s*)?$/;

function rootContent(
  root: SyntaxNode,
): [number, number, number, number] | null {
  const kids = root.children.filter((k): k is SyntaxNode => k !== null);
  if (kids.length === 0) return null;
  const a = kids[0].startPosition;
  const b = kids[kids.length - 1].endPosition;
  return [a.row, a.column, b.row, b.column];
}

function before(ar: number, ac: number, br: number, bc: number): boolean {
  return ar < br || (ar === br && ac <= bc);
}

/** The last line a node covers, 1-based: an end at column 0 counts as the line before. */
export function lastLineOf(node: SyntaxNode): number {
  const end = node.endPosition;
  return end.column === 0 ? end.row : end.row + 1;
}

/**
 * Resolves the block that opens on `line`.
 *
 * @param root The parsed tree's root node, or null for Markdown (`lines` alone decide).
 * @param lines The file's lines, as parsed (without a BOM).
 * @param line 1-based line the anchor names.
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
  let node = root.descendantForPosition({ row, column });
  let best: SyntaxNode | null = null;
  while (node && node.parent) {
    const s = node.startPosition;
    if (s.row !== row || s.column !== column) break;
    const spansAll = content !== null &&
      before(s.row, s.column, content[0], content[1]) &&
      before(
        content[2],
        content[3],
        node.endPosition.row,
        node.endPosition.column,
      );
    if (
      !node.isError && node.type !== "ERROR" && !spansAll &&
      lastLineOf(node) > line
    ) {
      best = node;
    }
    node = node.parent;
  }
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
  for (let n = line - 1; n >= Math.max(1, line - reach); n--) {
    if (resolveBlock(root, lines, n).kind === "block") {
      out.above = n;
      break;
    }
  }
  for (let n = line + 1; n <= Math.min(lines.length, line + reach); n++) {
    if (resolveBlock(root, lines, n).kind === "block") {
      out.below = n;
      break;
    }
  }
  return out;
}
