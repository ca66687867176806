/**
 * Syntax checks after edits: tree-sitter grammars (optional npm peers,
 * loaded on first use) find the syntax errors an edit introduced; receipts
 * keep each answer by content, grammar and options.
 *
 * @module
 */
export {
  CHECK_MODES,
  type Checker,
  type CheckerOptions,
  type CheckInput,
  type CheckMode,
  checkMode,
  createChecker,
  describeCheck,
  type SyntaxCheck,
  type SyntaxIssue,
  syntaxProblems,
} from "./checker.ts";
export { type Grammar, grammarFor, GRAMMARS } from "./languages.ts";
export { type GateOutcome, SyntaxGate } from "./gate.ts";
