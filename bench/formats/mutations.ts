/**
 * Mechanical bugs found on the syntax tree (the TypeScript compiler API):
 * each is one small edit of a real source file, and the task is to undo it.
 *
 * @module
 */
import ts from "typescript";

/** The mutation kinds, in report order. */
export const MUTATION_KINDS = [
  "comparison",
  "arithmetic",
  "logical",
  "boolean",
  "negation",
  "off_by_one",
  "rename",
  "optional_chain",
  "string_literal",
  "await_removed",
  "args_swapped",
  "if_else_swap",
  "identical_line",
  "deleted_line",
  "missing_line",
] as const;

/** One mutation kind. */
export type MutationKind = typeof MUTATION_KINDS[number];

/** What each kind does to the code (the fix undoes it). */
export const KIND_NOTES: Readonly<Record<MutationKind, string>> = {
  comparison:
    "comparison operator swapped (`<`↔`<=`, `>`↔`>=`, `===`↔`!==`, `==`↔`!=`)",
  arithmetic: "arithmetic operator swapped (`+`↔`-`, `*`↔`/`)",
  logical: "logical operator swapped (`&&`↔`||`, `??`→`||`)",
  boolean: "boolean literal flipped",
  negation: "a `!` dropped",
  off_by_one: "integer literal off by one",
  rename: "identifier renamed at one use site (to another name of the file)",
  optional_chain: "optional chaining removed (`?.` → `.`)",
  string_literal: "string literal changed (one letter's case)",
  await_removed: "`await` removed",
  args_swapped: "two call arguments swapped",
  if_else_swap: "if/else branches swapped",
  identical_line:
    "one token changed so the line equals another line of the file",
  deleted_line: "a statement line duplicated (the fix deletes the copy)",
  missing_line: "a statement line removed (the fix inserts it back)",
};

/** One edit of a file's text that introduces a bug. */
export interface Mutation {
  /** Kind. */
  kind: MutationKind;
  /** First UTF-16 offset replaced. */
  start: number;
  /** Offset after the last one replaced. */
  end: number;
  /** Replacement text. */
  text: string;
  /** 0-based first and last line the mutation touches in the original. */
  firstLine: number;
  /** See `firstLine`. */
  lastLine: number;
  /** Short description (`< → <=`). */
  note: string;
}

const COMPARISON: ReadonlyMap<ts.SyntaxKind, string> = new Map([
  [ts.SyntaxKind.LessThanToken, "<="],
  [ts.SyntaxKind.LessThanEqualsToken, "<"],
  [ts.SyntaxKind.GreaterThanToken, ">="],
  [ts.SyntaxKind.GreaterThanEqualsToken, ">"],
  [ts.SyntaxKind.EqualsEqualsEqualsToken, "!=="],
  [ts.SyntaxKind.ExclamationEqualsEqualsToken, "==="],
  [ts.SyntaxKind.EqualsEqualsToken, "!="],
  [ts.SyntaxKind.ExclamationEqualsToken, "=="],
]);
const ARITHMETIC: ReadonlyMap<ts.SyntaxKind, string> = new Map([
  [ts.SyntaxKind.PlusToken, "-"],
  [ts.SyntaxKind.MinusToken, "+"],
  [ts.SyntaxKind.AsteriskToken, "/"],
  [ts.SyntaxKind.SlashToken, "*"],
]);
const LOGICAL: ReadonlyMap<ts.SyntaxKind, string> = new Map([
  [ts.SyntaxKind.AmpersandAmpersandToken, "||"],
  [ts.SyntaxKind.BarBarToken, "&&"],
  [ts.SyntaxKind.QuestionQuestionToken, "||"],
]);

function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (path.endsWith(".ts")) return ts.ScriptKind.TS;
  return ts.ScriptKind.JS;
}

function isJsDoc(node: ts.Node): boolean {
  return node.kind >= ts.SyntaxKind.FirstJSDocNode &&
    node.kind <= ts.SyntaxKind.LastJSDocNode;
}

/** Identifier positions where a rename breaks a use, not a declaration. */
function isUseSite(id: ts.Identifier): boolean {
  const p = id.parent;
  if (!p || id.text === "undefined") return false;
  if (ts.isPropertyAccessExpression(p)) return p.expression === id;
  if (ts.isVariableDeclaration(p)) return p.initializer === id;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return true;
  return ts.isBinaryExpression(p) || ts.isReturnStatement(p) ||
    ts.isConditionalExpression(p) || ts.isPrefixUnaryExpression(p) ||
    ts.isParenthesizedExpression(p) || ts.isElementAccessExpression(p) ||
    ts.isArrayLiteralExpression(p) || ts.isIfStatement(p) ||
    ts.isExpressionStatement(p) || ts.isSpreadElement(p);
}

function declaredNames(sf: ts.SourceFile): string[] {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) ||
        ts.isParameter(node)) &&
      node.name && ts.isIdentifier(node.name) &&
      node.name.text.length >= 2
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...names].sort();
}

/** A statement that is the only thing on its line (indentation aside). */
function wholeLine(
  sf: ts.SourceFile,
  lines: readonly string[],
  node: ts.Node,
): number | undefined {
  const start = node.getStart(sf);
  const a = sf.getLineAndCharacterOfPosition(start);
  const b = sf.getLineAndCharacterOfPosition(node.getEnd());
  if (a.line !== b.line) return undefined;
  const line = lines[a.line];
  return line.trim() === node.getText(sf) ? a.line : undefined;
}

/**
 * Finds every candidate mutation of a file, in source order.
 *
 * @param path The file's path (its extension picks TS or JS parsing).
 * @param text The file's text.
 * @param kinds Only these kinds (default all).
 * @returns The candidates, in source order.
 */
export function findMutations(
  path: string,
  text: string,
  kinds?: readonly MutationKind[],
): Mutation[] {
  const sf = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    scriptKind(path),
  );
  const lines = text.split("\n");
  const lineStarts = sf.getLineStarts();
  const lineOf = (pos: number): number =>
    sf.getLineAndCharacterOfPosition(pos).line;
  const out: Mutation[] = [];
  const add = (
    kind: MutationKind,
    start: number,
    end: number,
    replacement: string,
    note: string,
  ): void => {
    const firstLine = lineOf(start);
    const lastLine = lineOf(Math.max(start, end - 1));
    if (text.slice(start, end) === replacement) return;
    out.push({
      kind,
      start,
      end,
      text: replacement,
      firstLine,
      lastLine,
      note,
    });
  };
  const names = declaredNames(sf);

  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      const from = op.getText(sf);
      for (
        const [kind, map] of [
          ["comparison", COMPARISON],
          ["arithmetic", ARITHMETIC],
          ["logical", LOGICAL],
        ] as const
      ) {
        const to = map.get(op.kind);
        if (
          to !== undefined &&
          lineOf(node.left.getEnd()) === lineOf(op.getStart(sf))
        ) {
          add(kind, op.getStart(sf), op.getEnd(), to, `${from} → ${to}`);
        }
      }
    } else if (
      node.kind === ts.SyntaxKind.TrueKeyword ||
      node.kind === ts.SyntaxKind.FalseKeyword
    ) {
      const from = node.getText(sf);
      const to = from === "true" ? "false" : "true";
      add("boolean", node.getStart(sf), node.getEnd(), to, `${from} → ${to}`);
    } else if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.ExclamationToken
    ) {
      add(
        "negation",
        node.getStart(sf),
        node.operand.getStart(sf),
        "",
        "`!` dropped",
      );
    } else if (ts.isNumericLiteral(node) && /^\d+$/.test(node.getText(sf))) {
      const from = node.getText(sf);
      const to = String(Number(from) + 1);
      add(
        "off_by_one",
        node.getStart(sf),
        node.getEnd(),
        to,
        `${from} → ${to}`,
      );
    } else if (ts.isIdentifier(node) && isUseSite(node) && names.length > 1) {
      const from = node.text;
      let h = node.getStart(sf) >>> 0;
      h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
      let to = names[h % names.length];
      if (to === from) to = names[(h + 1) % names.length];
      add("rename", node.getStart(sf), node.getEnd(), to, `${from} → ${to}`);
    } else if (ts.isStringLiteral(node)) {
      const p = node.parent;
      const moduleName = ts.isImportDeclaration(p) ||
        ts.isExportDeclaration(p) ||
        ts.isExternalModuleReference(p) || ts.isExpressionStatement(p) ||
        (ts.isCallExpression(p) && p.expression.getText(sf) === "require");
      const start = node.getStart(sf);
      const raw = text.slice(start + 1, node.getEnd() - 1);
      const at = raw.search(/[A-Za-z]/);
      if (
        !moduleName && !raw.includes("\\") && at >= 0 && !raw.includes("\n")
      ) {
        const ch = raw[at];
        const flipped = ch === ch.toLowerCase()
          ? ch.toUpperCase()
          : ch.toLowerCase();
        add(
          "string_literal",
          start + 1 + at,
          start + 2 + at,
          flipped,
          `"${raw}" → "${raw.slice(0, at)}${flipped}${raw.slice(at + 1)}"`,
        );
      }
    } else if (ts.isAwaitExpression(node)) {
      add(
        "await_removed",
        node.getStart(sf),
        node.expression.getStart(sf),
        "",
        "`await` removed",
      );
    }

    if (
      (ts.isPropertyAccessExpression(node) ||
        ts.isElementAccessExpression(node) ||
        ts.isCallExpression(node)) && node.questionDotToken
    ) {
      const q = node.questionDotToken;
      const to = ts.isPropertyAccessExpression(node) ? "." : "";
      add(
        "optional_chain",
        q.getStart(sf),
        q.getEnd(),
        to,
        `?. → ${to === "" ? "(none)" : "."}`,
      );
    }
    if (ts.isCallExpression(node) && node.arguments.length === 2) {
      const [a, b] = node.arguments;
      const at = a.getStart(sf);
      if (
        !ts.isSpreadElement(a) && !ts.isSpreadElement(b) &&
        lineOf(at) === lineOf(b.getEnd()) && a.getText(sf) !== b.getText(sf)
      ) {
        const between = text.slice(a.getEnd(), b.getStart(sf));
        add(
          "args_swapped",
          at,
          b.getEnd(),
          b.getText(sf) + between + a.getText(sf),
          `(${a.getText(sf)}, ${b.getText(sf)}) swapped`,
        );
      }
    }
    if (
      ts.isIfStatement(node) && node.elseStatement &&
      ts.isBlock(node.thenStatement) && ts.isBlock(node.elseStatement)
    ) {
      const t = node.thenStatement;
      const e = node.elseStatement;
      const tText = t.getText(sf);
      const eText = e.getText(sf);
      const span = lineOf(e.getEnd()) - lineOf(t.getStart(sf));
      if (
        tText !== eText && span <= 14 &&
        lineOf(t.getEnd()) - lineOf(t.getStart(sf)) <= 8
      ) {
        add(
          "if_else_swap",
          t.getStart(sf),
          e.getEnd(),
          eText + text.slice(t.getEnd(), e.getStart(sf)) + tText,
          "then and else blocks swapped",
        );
      }
    }
    if (
      ts.isExpressionStatement(node) || ts.isVariableStatement(node) ||
      ts.isReturnStatement(node) || ts.isBreakStatement(node)
    ) {
      const n = wholeLine(sf, lines, node);
      const p = node.parent;
      const siblings = p && (ts.isBlock(p) || ts.isSourceFile(p))
        ? p.statements.length
        : 0;
      if (n !== undefined && siblings >= 2) {
        const lineEnd = n + 1 < lineStarts.length
          ? lineStarts[n + 1]
          : text.length;
        if (ts.isExpressionStatement(node)) {
          add(
            "deleted_line",
            lineEnd,
            lineEnd,
            lines[n] + "\n",
            "statement line duplicated",
          );
        }
        add(
          "missing_line",
          lineStarts[n],
          lineEnd,
          "",
          "statement line removed",
        );
      }
    }
    if (!isJsDoc(node)) ts.forEachChild(node, visit);
  };
  visit(sf);
  if (!kinds || kinds.includes("identical_line")) {
    out.push(...identicalLines(sf, lines, lineStarts));
  }
  return kinds ? out.filter((m) => kinds.includes(m.kind)) : out;
}

/** Pairs of code lines that differ in exactly one token: turning one into the other. */
function identicalLines(
  sf: ts.SourceFile,
  lines: readonly string[],
  lineStarts: readonly number[],
): Mutation[] {
  const tokens: string[][] = lines.map(() => []);
  const bad = new Uint8Array(lines.length);
  const leaves = (node: ts.Node): void => {
    if (isJsDoc(node)) return;
    const kids = node.getChildren(sf);
    if (kids.length === 0) {
      const a = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const b = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (node.getEnd() === node.getStart(sf)) return;
      if (a !== b) { for (let i = a; i <= b; i++) bad[i] = 1; }
      else tokens[a].push(node.getText(sf));
      return;
    }
    for (const k of kids) leaves(k);
  };
  leaves(sf);
  const groups = new Map<string, number[]>();
  tokens.forEach((t, i) => {
    if (bad[i] || t.length < 3) return;
    const indent = /^\s*/.exec(lines[i])![0];
    const key = `${t.length}|${indent}`;
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  });
  const out: Mutation[] = [];
  for (const g of groups.values()) {
    for (let x = 0; x < g.length; x++) {
      for (let y = x + 1; y < g.length; y++) {
        const a = tokens[g[x]];
        const b = tokens[g[y]];
        let diff = 0;
        for (let k = 0; k < a.length && diff < 2; k++) {
          if (a[k] !== b[k]) diff++;
        }
        if (diff !== 1 || lines[g[x]] === lines[g[y]]) continue;
        for (const [i, j] of [[g[x], g[y]], [g[y], g[x]]]) {
          out.push({
            kind: "identical_line",
            start: lineStarts[i],
            end: lineStarts[i] + lines[i].length,
            text: lines[j],
            firstLine: i,
            lastLine: i,
            note: `line ${i + 1} made equal to line ${j + 1}`,
          });
        }
      }
    }
  }
  return out;
}

/**
 * Applies a mutation to the text it was found in.
 *
 * @param text The original text.
 * @param m A mutation of that text.
 * @returns The mutated text.
 */
export function applyMutation(text: string, m: Mutation): string {
  return text.slice(0, m.start) + m.text + text.slice(m.end);
}
