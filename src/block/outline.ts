/**
 * Outline reads (docs/reads.md, "Outline reads"): which lines an outline shows — the first line
 * of every node at depth 1–2 (each top-level declaration or statement, and
 * each member of a top-level class, interface, enum, struct, trait, impl,
 * module or object literal), or every Markdown heading — and the marker
 * line that stands for each run of hidden lines.
 *
 * @module
 */
import type { SyntaxNode } from "./_node.ts";
import { markdownHeadings } from "./markdown.ts";

/** Nodes that only wrap a declaration (`export`, decorators): they add no depth. */
const WRAPPERS = new Set([
  "export_statement",
  "decorated_definition",
  "ambient_declaration",
]);

/** Declarations whose members an outline shows. */
const CONTAINER =
  /class|interface|enum|struct|trait|impl|module|namespace|mod_item|type_declaration|type_alias|lexical_declaration|variable_declaration|object|expression_statement/;

/** The nodes that hold a container's members. */
const BODIES = new Set([
  "class_body",
  "interface_body",
  "object_type",
  "enum_body",
  "declaration_list",
  "field_declaration_list",
  "enum_variant_list",
  "block",
  "statement_block",
  "object",
  "field_declaration_list",
]);

function named(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((n): n is SyntaxNode => n !== null);
}

function isComment(node: SyntaxNode): boolean {
  return node.type.includes("comment");
}

function unwrap(node: SyntaxNode): SyntaxNode {
  let at = node;
  while (WRAPPERS.has(at.type)) {
    const inner = named(at).filter((n) =>
      n.type !== "decorator" && !isComment(n)
    );
    if (inner.length === 0) break;
    at = inner[inner.length - 1];
  }
  return at;
}

/** Statements whose members are shown only when they hold an object literal. */
const VALUE_HOLDERS =
  /^(?:lexical_declaration|variable_declaration|expression_statement)$/;
/** Nodes whose insides are code, never members. */
const CODE = /function|arrow|lambda|call|method|closure/;

function bodyOf(node: SyntaxNode): SyntaxNode | null {
  if (BODIES.has(node.type)) return node;
  if (!CONTAINER.test(node.type)) return null;
  const objectsOnly = VALUE_HOLDERS.test(node.type);
  const fits = (n: SyntaxNode) =>
    objectsOnly ? n.type === "object" : BODIES.has(n.type);
  let level = named(node);
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const hit = level.find(fits);
    if (hit) return hit;
    level = level.filter((n) => !CODE.test(n.type)).flatMap(named);
  }
  return null;
}

/**
 * The lines an outline shows, 1-based and ascending.
 *
 * @param root The parsed tree's root, or null for Markdown (headings).
 * @param lines The file's lines.
 * @returns The shown lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outlineLines } from "./outline.ts";
 * assert.deepEqual(outlineLines(null, ["# A", "x", "## B", "y"]), [1, 3]);
 * ```
 */
export function outlineLines(
  root: SyntaxNode | null,
  lines: readonly string[],
): number[] {
  if (root === null) return markdownHeadings(lines).map((h) => h.line);
  const shown = new Set<number>();
  for (const top of named(root)) {
    if (isComment(top)) continue;
    shown.add(top.startPosition.row + 1);
    const inner = unwrap(top);
    // The declaration's own line (after decorators) names it.
    shown.add(inner.startPosition.row + 1);
    const body = bodyOf(inner);
    if (!body) continue;
    for (const member of named(body)) {
      if (isComment(member)) continue;
      shown.add(member.startPosition.row + 1);
      shown.add(unwrap(member).startPosition.row + 1);
    }
  }
  return [...shown].filter((n) => n >= 1 && n <= lines.length).sort((a, b) =>
    a - b
  );
}

/**
 * The line that stands for a run of hidden lines in an outline: `…` and the
 * run's first and last line numbers. It starts with `…`, so no parser takes
 * it for an anchor line, and a patch that copies it into new lines is
 * refused as a pasted prefix.
 *
 * @param first First hidden line.
 * @param last Last hidden line.
 * @returns e.g. `…13–40`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outlineMarker } from "./outline.ts";
 * assert.equal(outlineMarker(13, 40), "…13–40");
 * assert.equal(outlineMarker(7, 7), "…7");
 * ```
 */
export function outlineMarker(first: number, last: number): string {
  return first === last ? `…${first}` : `…${first}–${last}`;
}
