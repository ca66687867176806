/**
 * Which grammar checks which file: one table from file extension to the npm
 * package that ships the grammar's prebuilt Wasm (an optional peer of this
 * package) and the file inside it.
 *
 * @module
 */

/** A tree-sitter grammar as shipped on npm. */
export interface Grammar {
  /** Language name reported in results (`typescript`, `python`, …). */
  language: string;
  /** The npm package that ships the grammar's Wasm. */
  package: string;
  /** The Wasm file's path inside the package. */
  wasm: string;
  /**
   * Whether an edit may be judged by parsing the region around it alone
   * (`_regions.ts`): the grammar's scanner keeps no state from one
   * top-level statement to the next, and its text's meaning does not hang
   * on columns.
   */
  regions?: true;
}

function grammar(
  language: string,
  pkg: string,
  more: Pick<Grammar, "regions"> = {},
): Grammar {
  return {
    language,
    package: pkg,
    wasm: `tree-sitter-${language}.wasm`,
    ...more,
  };
}

const TYPESCRIPT = grammar("typescript", "tree-sitter-typescript", {
  regions: true,
});
const TSX = grammar("tsx", "tree-sitter-typescript", { regions: true });
const JAVASCRIPT = grammar("javascript", "tree-sitter-javascript", {
  regions: true,
});
const PYTHON = grammar("python", "tree-sitter-python");
const HTML = grammar("html", "tree-sitter-html");
const YAML = grammar("yaml", "@tree-sitter-grammars/tree-sitter-yaml");
const BASH = grammar("bash", "tree-sitter-bash");

/** File extension (lower case, with its dot) to grammar. */
export const GRAMMARS: Readonly<Record<string, Grammar>> = {
  ".ts": TYPESCRIPT,
  ".mts": TYPESCRIPT,
  ".cts": TYPESCRIPT,
  ".tsx": TSX,
  ".js": JAVASCRIPT,
  ".mjs": JAVASCRIPT,
  ".cjs": JAVASCRIPT,
  ".jsx": JAVASCRIPT,
  ".json": grammar("json", "tree-sitter-json"),
  ".py": PYTHON,
  ".pyi": PYTHON,
  ".go": grammar("go", "tree-sitter-go"),
  ".rs": grammar("rust", "tree-sitter-rust"),
  ".css": grammar("css", "tree-sitter-css"),
  ".html": HTML,
  ".htm": HTML,
  ".yaml": YAML,
  ".yml": YAML,
  ".toml": grammar("toml", "@tree-sitter-grammars/tree-sitter-toml"),
  ".sh": BASH,
  ".bash": BASH,
};

/**
 * The grammar that checks a file, by its extension.
 *
 * @param path A file path (any separators).
 * @returns The grammar, or null when no grammar covers the extension.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { grammarFor } from "./languages.ts";
 * assert.equal(grammarFor("src/App.TSX")?.language, "tsx");
 * assert.equal(grammarFor("notes.md"), null);
 * ```
 */
export function grammarFor(path: string): Grammar | null {
  const name = path.slice(
    Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1,
  );
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  const ext = name.slice(dot).toLowerCase();
  return Object.hasOwn(GRAMMARS, ext) ? GRAMMARS[ext] : null;
}
