/**
 * The few members of a tree-sitter node that block resolution and outlines
 * read, declared structurally so the rules run on any tree that has them
 * (web-tree-sitter's, or a hand-built one in a test).
 *
 * @module
 */

/** A position in a parsed text: 0-based row, column in UTF-16 code units. */
export interface NodePoint {
  /** 0-based row. */
  row: number;
  /** 0-based column (UTF-16 code units). */
  column: number;
}

/**
 * A cursor over a tree (web-tree-sitter's `TreeCursor`): it keeps the path
 * it walked, so stepping down costs the same at any depth, where a node's
 * `parent` is found again from the root each time.
 */
export interface NodeCursor {
  /** Where the current node starts. */
  readonly startPosition: NodePoint;
  /** Where the current node ends (exclusive). */
  readonly endPosition: NodePoint;
  /** The current node. */
  readonly currentNode: SyntaxNode;
  /** Moves to the first child that contains or starts after `goal`; false when there is none. */
  gotoFirstChildForPosition(goal: NodePoint): boolean;
  /** Moves to the next sibling; false when there is none. */
  gotoNextSibling(): boolean;
  /** Frees the cursor. */
  delete(): void;
}

/** One node of a syntax tree. */
export interface SyntaxNode {
  /** The grammar's name for the node (`function_declaration`, `pair`, …). */
  readonly type: string;
  /** Whether the parser could not fit this text (an `ERROR` node). */
  readonly isError: boolean;
  /** Where the node starts. */
  readonly startPosition: NodePoint;
  /** Where the node ends (exclusive). */
  readonly endPosition: NodePoint;
  /** The enclosing node, or null at the root. */
  readonly parent: SyntaxNode | null;
  /** Direct children, named and anonymous. */
  readonly children: (SyntaxNode | null)[];
  /** Direct named children. */
  readonly namedChildren: (SyntaxNode | null)[];
  /** The smallest node that spans the position. */
  descendantForPosition(start: NodePoint): SyntaxNode | null;
  /** A cursor from this node (absent on hand-built trees, which are walked by `children`). */
  walk?(): NodeCursor;
}
