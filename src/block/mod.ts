/**
 * Edits by structure (docs/patch-format.md, "Block anchors"): which block a block anchor (`12:a3*`)
 * names, on a tree-sitter tree or a Markdown file's headings, and block
 * anchors resolved in a patch's ops.
 *
 * @module
 */
export {
  BLOCK_SUFFIX,
  type BlockExpansion,
  type BlockSource,
  expandBlocks,
  hasBlockAnchors,
  isBlockAnchor,
  tooLargeForBlocks,
} from "./expand.ts";
export {
  type Heading,
  isMarkdown,
  markdownHeadings,
  markdownSectionEnd,
} from "./markdown.ts";
export {
  type BlockAnswer,
  type BlockMiss,
  type BlockSpan,
  lastLineOf,
  MAX_BLOCK_DEPTH,
  nearestOpeners,
  resolveBlock,
  type StepBudget,
} from "./resolve.ts";
export type { NodeCursor, NodePoint, SyntaxNode } from "./_node.ts";
