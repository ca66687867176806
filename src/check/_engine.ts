/**
 * The tree-sitter side of a check: loads `web-tree-sitter` and a grammar's
 * Wasm on first use (bytes read through the runtime's package resolution, so
 * Deno, Bun and Node load them alike), parses under a deadline and lists the
 * syntax errors of the tree.
 *
 * @module
 */
import type { SyntaxNode } from "../block/_node.ts";
import { changedSpan, pointAt } from "./_regions.ts";
import { lazy } from "../_internal/lazy.ts";
import type { Grammar } from "./languages.ts";

/** One syntax error of a parse, as a receipt keeps it. */
export interface RawError {
  /** 1-based line where the error starts. */
  line: number;
  /** 1-based column (UTF-16 code units) where it starts. */
  column: number;
  /** A node the grammar required but the text lacks, or text that fits nowhere. */
  kind: "missing" | "unexpected";
  /** What is missing, or the start of the unexpected text. */
  token: string;
}

/** A parsed tree, owned by the caller (free it with `delete`). */
export interface ParsedTree {
  /** Frees the tree's memory in the Wasm heap. */
  delete(): void;
}

/** A parse's answer: its errors and tree, or why there is none. */
export type ParseAnswer =
  | { kind: "parsed"; errors: RawError[]; tree: ParsedTree }
  | { kind: "timeout" };

/**
 * A parse run a slice at a time, the thread left to other work (module
 * loads, file reads) between slices.
 */
export interface SlicedParse {
  /** The text being parsed. */
  readonly text: string;
  /**
   * Runs what is left of the parse at once, for at most `limitMs`, and gives
   * its answer; undefined when it needs longer (it then goes on in slices).
   */
  finish(limitMs?: number): ParseAnswer | undefined;
  /** Settles with the answer when the slices end it (never rejects). */
  readonly done: Promise<ParseAnswer>;
}

/** A grammar ready to parse, with the identity its receipts are keyed by. */
export interface LoadedGrammar {
  /** `package@version/language`. */
  identity: string;
  /** Whether an edit may be judged by its region alone (see `Grammar.regions`). */
  regions: boolean;
  /**
   * Parses `text` and lists its errors; `timeout` when it ran past the
   * deadline. Given the tree of the text before an edit (`base`), only the
   * changed part is parsed again (tree-sitter's incremental parse).
   */
  parse(
    text: string,
    timeoutMs: number,
    base?: { text: string; tree: ParsedTree },
  ): ParseAnswer;
  /**
   * Parses `text` from scratch a slice at a time, on a parser of its own
   * (so a `parse` in between is not disturbed); `timeout` when the slices
   * together ran past `timeoutMs`.
   */
  parseInSlices(text: string, timeoutMs: number): SlicedParse;
}

/** Longest slice of a parse run between other work, in milliseconds. */
const SLICE_MS = 4;

// The next turn of the event loop, after pending I/O callbacks; a chain of
// zero timeouts would be held to 4 ms each.
const nextTurn: (task: () => void) => void =
  typeof (globalThis as { setImmediate?: unknown }).setImmediate === "function"
    ? (task) =>
      (globalThis as unknown as { setImmediate(f: () => void): void })
        .setImmediate(task)
    : (task) => void setTimeout(task, 0);

/**
 * The root node of a parsed tree, for the structure rules of `src/block/`.
 *
 * @param tree A tree from {@link LoadedGrammar.parse}.
 * @returns Its root node.
 */
export function rootOf(tree: ParsedTree): SyntaxNode {
  return (tree as unknown as { rootNode: SyntaxNode }).rootNode;
}

/** Most errors kept from one parse (the first ones, in text order). */
const MAX_ERRORS = 50;

interface Point {
  row: number;
  column: number;
}

interface Tree {
  rootNode: TreeNode;
  delete(): void;
  copy(): Tree;
  edit(edit: {
    startIndex: number;
    oldEndIndex: number;
    newEndIndex: number;
    startPosition: Point;
    oldEndPosition: Point;
    newEndPosition: Point;
  }): void;
}

/** The edit turning `before` into `after`, as one changed span (UTF-16 units, as web-tree-sitter counts). */
function spanEdit(before: string, after: string): Parameters<Tree["edit"]>[0] {
  const { head, tail } = changedSpan(before, after);
  const oldEnd = before.length - tail;
  const newEnd = after.length - tail;
  return {
    startIndex: head,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(after, head),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

interface TreeNode {
  readonly type: string;
  readonly isError: boolean;
  readonly isMissing: boolean;
  readonly hasError: boolean;
  readonly startPosition: { row: number; column: number };
  readonly text: string;
  readonly children: (TreeNode | null)[];
}

interface TreeSitter {
  Parser: {
    init(options?: object): Promise<void>;
    new (): {
      setLanguage(language: unknown): unknown;
      parse(
        text: string | ((index: number) => string),
        old?: Tree | null,
        options?: { progressCallback?: (state: unknown) => boolean },
      ): Tree | null;
      reset(): void;
    };
  };
  Language: { load(bytes: Uint8Array): Promise<unknown> };
}

const RUNTIME_PACKAGE = "web-tree-sitter";

// Loaded through `lazy()`, as the gate does when a patch arrives, so both
// join the round of module loading under way then.
const loadTreeSitter = lazy<typeof import("./_tree_sitter.ts")>(
  import.meta.url,
  "./_tree_sitter.ts",
);
const loadPackages = lazy<typeof import("../_runtime/packages.ts")>(
  import.meta.url,
  "../_runtime/packages.ts",
);

let runtime: Promise<TreeSitter | null> | undefined;
const grammars = new Map<string, Promise<LoadedGrammar | string>>();

async function packageVersion(name: string): Promise<string | null> {
  const { readPackageFile } = await loadPackages();
  const bytes = await readPackageFile(`${name}/package.json`);
  if (!bytes) return null;
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes)).version;
    return typeof v === "string" ? v : "unknown";
  } catch {
    return "unknown";
  }
}

/** Starts loading `web-tree-sitter` (its glue and Wasm), the part every grammar shares. */
export function warmRuntime(): void {
  void loadRuntime();
}

function loadRuntime(): Promise<TreeSitter | null> {
  return runtime ??= (async () => {
    try {
      const { readPackageFile } = await loadPackages();
      // The bytes are read while the module loads: each step of a cold
      // start waits its turn behind whatever else the process is doing.
      const [wasm, mod] = await Promise.all([
        readPackageFile(`${RUNTIME_PACKAGE}/web-tree-sitter.wasm`),
        loadTreeSitter().then(
          (m) => m as unknown as TreeSitter,
          () => null,
        ),
      ]);
      if (!wasm || !mod) return null;
      await mod.Parser.init({ wasmBinary: wasm });
      return mod;
    } catch {
      return null;
    }
  })();
}

function firstLine(text: string): string {
  const nl = text.indexOf("\n");
  const line = (nl === -1 ? text : text.slice(0, nl)).trim();
  return line.length > 24 ? `${line.slice(0, 24)}…` : line;
}

/** The outermost error and missing nodes, in text order; subtrees without errors are skipped. */
export function errorsOf(root: TreeNode): RawError[] {
  const out: RawError[] = [];
  if (!root.hasError) return out;
  const stack: TreeNode[] = [root];
  while (stack.length > 0 && out.length < MAX_ERRORS) {
    const node = stack.pop()!;
    if (node.isMissing || node.isError) {
      const at = node.startPosition;
      out.push({
        line: at.row + 1,
        column: at.column + 1,
        kind: node.isMissing ? "missing" : "unexpected",
        token: node.isMissing ? node.type : firstLine(node.text),
      });
      continue;
    }
    if (!node.hasError) continue;
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) {
      const kid = kids[i];
      if (kid) stack.push(kid);
    }
  }
  return out;
}

/**
 * Loads a grammar (and `web-tree-sitter` itself) on first use.
 *
 * @param grammar Which grammar.
 * @returns The loaded grammar, or a note naming the package to install.
 */
export function loadGrammar(grammar: Grammar): Promise<LoadedGrammar | string> {
  const key = `${grammar.package}/${grammar.wasm}`;
  let found = grammars.get(key);
  if (!found) {
    found = loadUncached(grammar);
    grammars.set(key, found);
  }
  return found;
}

async function loadUncached(grammar: Grammar): Promise<LoadedGrammar | string> {
  const { readPackageFile } = await loadPackages();
  // The grammar's bytes and both versions are read while the runtime starts.
  const [ts, bytes, version, runtimeVersion] = await Promise.all([
    loadRuntime(),
    readPackageFile(`${grammar.package}/${grammar.wasm}`),
    packageVersion(grammar.package),
    packageVersion(RUNTIME_PACKAGE),
  ]);
  if (!ts) {
    return `not checked: install the npm package ${RUNTIME_PACKAGE} (and ${grammar.package}) to check ${grammar.language} syntax`;
  }
  if (!bytes || !version) {
    return `not checked: install the npm package ${grammar.package} to check ${grammar.language} syntax`;
  }
  let language: unknown;
  try {
    language = await ts.Language.load(bytes);
  } catch (error) {
    return `not checked: the grammar in ${grammar.package}@${version} did not load (${
      String((error as Error)?.message || error)
    }); install a version built for ${RUNTIME_PACKAGE}`;
  }
  const parser = new ts.Parser();
  parser.setLanguage(language);
  let sliced: InstanceType<TreeSitter["Parser"]> | undefined;
  // Settles when every sliced parse started so far has ended.
  let slicing: Promise<unknown> = Promise.resolve();
  // The sliced parse the parser holds cut short, if any: a parse that is
  // cut short resumes on the parser's next call, whatever text that names.
  let holder: object | null = null;
  const parse: LoadedGrammar["parse"] = (text, timeoutMs, base) => {
    const deadline = performance.now() + timeoutMs;
    let old: Tree | null = null;
    if (base) {
      old = (base.tree as Tree).copy();
      old.edit(spanEdit(base.text, text));
    }
    // Chunks, not the rest of the string on every call: long files stay linear.
    const tree = parser.parse((i) => text.slice(i, i + 16384), old, {
      progressCallback: () => performance.now() > deadline,
    });
    old?.delete();
    if (!tree) {
      parser.reset();
      return { kind: "timeout" };
    }
    return { kind: "parsed", errors: errorsOf(tree.rootNode), tree };
  };
  return {
    identity:
      `${grammar.package}@${version}/${grammar.language}+${RUNTIME_PACKAGE}@${runtimeVersion}`,
    regions: grammar.regions === true,
    parse,
    parseInSlices(text, timeoutMs): SlicedParse {
      let answer: ParseAnswer | undefined;
      let settle!: (a: ParseAnswer) => void;
      const done = new Promise<ParseAnswer>((r) => settle = r);
      let spent = 0;
      const input = (i: number) => text.slice(i, i + 16384);
      // One parse at a time on the sliced parser: this one starts when every
      // one before it ended (one finished on the main parser ends early).
      const ready = slicing;
      slicing = ready.then(() => done);
      let started = false;
      const me = {};
      const step = (sliceMs: number): ParseAnswer | undefined => {
        if (answer) return answer;
        const p = sliced ??= (() => {
          const q = new ts.Parser();
          q.setLanguage(language);
          return q;
        })();
        // Never resume another text's parse: start this one over instead.
        if (holder !== null && holder !== me) p.reset();
        holder = me;
        const t0 = performance.now();
        const stop = t0 + Math.min(sliceMs, timeoutMs - spent);
        try {
          const tree = p.parse(input, null, {
            progressCallback: () => performance.now() > stop,
          });
          spent += performance.now() - t0;
          if (tree) {
            answer = { kind: "parsed", errors: errorsOf(tree.rootNode), tree };
          } else if (spent >= timeoutMs) answer = { kind: "timeout" };
        } catch {
          answer = { kind: "timeout" };
        }
        if (answer) {
          if (answer.kind === "timeout") p.reset();
          holder = null;
          settle(answer);
        }
        return answer;
      };
      const tick = () => {
        if (!step(SLICE_MS)) nextTurn(tick);
      };
      void ready.then(() => {
        started = true;
        tick();
      });
      return {
        text,
        done,
        finish(limitMs = Infinity): ParseAnswer | undefined {
          // Not started: the parse before it has not ended, so this one
          // runs on the main parser instead, leaving that one be.
          if (!started && !answer) {
            answer = parse(text, Math.min(timeoutMs, limitMs));
            settle(answer);
          }
          return step(limitMs);
        },
      };
    },
  };
}
