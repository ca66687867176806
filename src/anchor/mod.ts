/**
 * Line splitting, anchors (`LINE:HH`) and anchored reads (`LINE:HH|content`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatHashlines, parseAnchor } from "./mod.ts";
 * const view = formatHashlines("x\ny");
 * assert.equal(view.text, "1:26|x\n2:4a|y");
 * assert.deepEqual(parseAnchor("2:4a|"), { line: 2, hash: "4a" });
 * ```
 *
 * @module
 */

export {
  joinLines,
  type SplitContent,
  splitLines,
  type Terminator,
} from "./split.ts";
export {
  type Anchor,
  formatAnchor,
  parseAnchor,
  readPrefixOf,
} from "./anchor.ts";
export {
  type AnchorForm,
  anchorForm,
  type BareAnchor,
  leanLines,
  parseBareAnchor,
} from "./lean.ts";
export {
  DEFAULT_LIMIT,
  DEFAULT_MAX_LINE_CHARS,
  formatHashlines,
  formatLine,
  type FormatOptions,
  type HashlineView,
  type ReadWindow,
  readWindow,
} from "./format.ts";
