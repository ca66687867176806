/**
 * Syntax checks after edits (docs/syntax-checks.md): the new content is
 * parsed with the file's tree-sitter grammar and every syntax error the edit
 * introduced is reported with its anchor and the lines around it; answers
 * are kept as receipts so unchanged content is never parsed twice. The
 * answer for one text, from the texts kept lately, the receipts, the region
 * an edit changed or a parse, is this file's; the kept texts are
 * `_trees.ts`', parses run ahead are `_prime.ts`', guessing a language is
 * `_sniff.ts`' and the text a model reads is `report.ts`'.
 *
 * @module
 */
import { splitLines } from "../anchor/split.ts";
import {
  type LoadedGrammar,
  loadGrammar,
  type RawError,
  rootOf,
} from "./_engine.ts";
import type { BlockSource } from "../block/expand.ts";
import { introducedErrors } from "./_introduced.ts";
import { sameTokensInPlace } from "./_lexical.ts";
import { Primer } from "./_prime.ts";
import { type Answer, Receipts, sha256Hex } from "./_receipts.ts";
import {
  type CutNode,
  cutsOf,
  joinCuts,
  plausibleCuts,
  regionOf,
  rowCount,
} from "./_regions.ts";
import { sniffGrammar } from "./_sniff.ts";
import { utf8Length } from "./_text.ts";
import { stripBom } from "../anchor/split.ts";
import { type Kept, KEPT_TREES, KeptTrees } from "./_trees.ts";
import { grammarFor } from "./languages.ts";
import { issueOf } from "./report.ts";
import type {
  Checker,
  CheckerOptions,
  CheckInput,
  SyntaxCheck,
} from "./types.ts";

export { CHECK_MODES, type CheckMode, checkMode } from "./modes.ts";
export { describeCheck, syntaxProblems } from "./report.ts";
export type {
  Checker,
  CheckerOptions,
  CheckInput,
  SyntaxCheck,
  SyntaxIssue,
} from "./types.ts";

const MiB = 1024 ** 2;

/**
 * Whether a receipt could belong to `text`: each error on a line it has,
 * and its cuts, if any, rows it has.
 */
function plausible({ errors, cuts }: Answer, text: string): boolean {
  if (cuts !== undefined && !plausibleCuts(cuts, rowCount(text))) return false;
  let last = 0;
  for (const e of errors) last = Math.max(last, e.line);
  let at = -1;
  for (let line = 1; line < last; line++) {
    at = text.indexOf("\n", at + 1);
    if (at < 0) return false;
  }
  return true;
}

class TreeSitterChecker implements Checker {
  parses = 0;
  readonly trees = new KeptTrees();
  readonly maxBytes: number;
  readonly timeoutMs: number;
  private readonly receipts: Receipts;
  private readonly options: string;
  private readonly saveAll: boolean;
  private readonly primer: Primer;

  constructor(options: CheckerOptions) {
    this.saveAll = options.saveAll === true;
    this.maxBytes = options.maxBytes ?? 2 * MiB;
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.options = `maxBytes=${this.maxBytes}`;
    const folder = options.stateDir
      ? `${options.stateDir.replace(/[\\/]+$/, "")}/checks`
      : null;
    this.receipts = new Receipts(
      folder,
      options.memoryEntries ?? 512,
      {},
      options.notice,
    );
    this.primer = new Primer({
      maxBytes: this.maxBytes,
      timeoutMs: this.timeoutMs,
      trees: this.trees,
      cleanCuts: (grammar, text) => this.cleanCuts(grammar, text),
      counted: () => void this.parses++,
    });
  }

  /** Receipt keys of the texts hashed lately. */
  private readonly keys = new Map<
    string,
    { identity: string; key: Promise<string> }
  >();

  holds(path: string): boolean {
    return this.trees.holds(path);
  }

  prime(path: string, text: string): void {
    this.primer.prime(path, text);
  }

  private keyOf(grammar: LoadedGrammar, text: string): Promise<string> {
    const known = this.keys.get(text);
    if (known?.identity === grammar.identity) return known.key;
    const key = sha256Hex(text).then((sha) =>
      this.receipts.keyOf(sha, grammar.identity, this.options)
    );
    this.keys.delete(text);
    this.keys.set(text, { identity: grammar.identity, key });
    if (this.keys.size > KEPT_TREES) {
      this.keys.delete(this.keys.keys().next().value!);
    }
    return key;
  }

  /** The cuts of `text` from a receipt of a clean parse; null when there is none. */
  private async cleanCuts(
    grammar: LoadedGrammar,
    text: string,
  ): Promise<number[] | null> {
    const stored = await this.receipts.get(await this.keyOf(grammar, text));
    if (!stored?.cuts || stored.errors.length > 0) return null;
    return plausible(stored, text) ? stored.cuts : null;
  }

  /**
   * The cuts of `text`, when the region `before` → `text` changed parses
   * clean alone and so proves the whole text clean (`_regions.ts`); null when
   * it does not.
   */
  private parseRegion(
    grammar: LoadedGrammar,
    text: string,
    before: string,
    cuts: readonly number[],
    deadline: number,
  ): number[] | null {
    const region = regionOf(before, text, cuts);
    if (!region) return null;
    // A comment the region alone cannot see end would lex it otherwise.
    if (
      !sameTokensInPlace(text, region.start, region.start + region.text.length)
    ) return null;
    const budget = Math.min(this.timeoutMs, deadline - performance.now());
    if (budget <= 0) return null;
    this.parses++;
    const parsed = grammar.parse(region.text, budget);
    if (parsed.kind !== "parsed") return null;
    try {
      if (parsed.errors.length > 0) return null;
      return joinCuts(
        region,
        cutsOf(rootOf(parsed.tree) as unknown as CutNode),
      );
    } finally {
      parsed.tree.delete();
    }
  }

  /**
   * The errors of `text`: from a text parsed lately; else, when the text
   * before the edit was parsed lately, by the region the edit changed
   * (`_regions.ts`, the cuts from that text) or an incremental parse (both
   * cheaper than a lookup); else from a receipt; else by the region, when
   * the text before has a receipt with cuts; else by a whole parse. Null when
   * the parse ran past the deadline.
   */
  private async answer(
    grammar: LoadedGrammar,
    text: string,
    before?: string | null,
    deadline = Infinity,
  ): Promise<{ errors: RawError[]; reused: boolean } | null> {
    await this.primer.looked();
    this.primer.settle(grammar, text, deadline - performance.now());
    if (typeof before === "string") {
      this.primer.settle(grammar, before, deadline - performance.now());
    }
    const recalled = this.trees.find(grammar, text);
    if (recalled) return { errors: recalled.errors, reused: true };
    const known = typeof before === "string"
      ? this.trees.find(grammar, before)
      : undefined;
    if (known?.unsaved) {
      known.unsaved = false;
      await this.receipts.put(
        await this.keyOf(grammar, known.text),
        this.trees.answerOf(grammar, known),
      );
    }
    const base = known && this.trees.baseFor(grammar, before);
    // The cuts of the text before: from its kept tree (or the region that
    // judged it), else from its receipt once the new text has none.
    let oldCuts = known ? this.trees.cutsOf(grammar, known) : null;
    let key: string | undefined;
    if (!oldCuts && !base) {
      key = await this.keyOf(grammar, text);
      const stored = await this.receipts.get(key);
      if (stored && plausible(stored, text)) {
        return { errors: stored.errors, reused: true };
      }
      if (typeof before === "string" && grammar.regions) {
        oldCuts = await this.cleanCuts(grammar, before);
      }
    }
    if (oldCuts) {
      // A few statements parsed alone cost less than stepping over every
      // top-level node of the tree, as an incremental parse does.
      const cuts = this.parseRegion(grammar, text, before!, oldCuts, deadline);
      if (cuts) {
        this.trees.keep(grammar, { text, tree: null, errors: [], cuts });
        // Written as a full parse's answer is (see below).
        if (key !== undefined || this.saveAll) {
          await this.receipts.put(key ?? await this.keyOf(grammar, text), {
            errors: [],
            cuts,
          });
        }
        return { errors: [], reused: false };
      }
    }
    const budget = Math.min(this.timeoutMs, deadline - performance.now());
    if (budget <= 0) return null;
    this.parses++;
    const parsed = grammar.parse(
      text,
      budget,
      base && { text: base.text, tree: base.tree! },
    );
    if (parsed.kind !== "parsed") return null;
    const errors = parsed.errors;
    const kept: Kept = { text, tree: parsed.tree, errors };
    this.trees.keep(grammar, kept);
    // A full parse's answer is written to the state folder too (the write
    // is small beside the parse); an incremental one stays in memory with its
    // tree (unless `saveAll`): redoing it costs less than a file write, which
    // the next edit's flush would have to carry.
    if (!base || this.saveAll) {
      await this.receipts.put(
        key ?? await this.keyOf(grammar, text),
        this.trees.answerOf(grammar, kept),
      );
    }
    return { errors, reused: false };
  }

  async structure(path: string, text: string): Promise<BlockSource> {
    const grammar = grammarFor(path);
    if (!grammar) {
      return {
        kind: "none",
        reason: "no grammar covers this kind of file",
      };
    }
    if (utf8Length(text, this.maxBytes) > this.maxBytes) {
      return {
        kind: "none",
        reason: `the file is over the ${
          this.maxBytes / MiB
        } MiB limit of syntax parsing`,
      };
    }
    const loaded = await loadGrammar(grammar);
    if (typeof loaded === "string") {
      return {
        kind: "none",
        reason: `there is no ${grammar.language} grammar at hand (${
          loaded.replace(/^not checked: /, "")
        })`,
      };
    }
    const body = stripBom(text);
    this.primer.settle(loaded, body);
    this.trees.saw(path, loaded, body);
    let kept = this.trees.find(loaded, body);
    if (!kept?.tree) {
      this.parses++;
      // The tree parsed last (most often of this file before its last edit)
      // serves as the base of an incremental parse.
      const last = this.trees.baseFor(loaded);
      const parsed = loaded.parse(
        body,
        this.timeoutMs,
        last && { text: last.text, tree: last.tree! },
      );
      if (parsed.kind !== "parsed") {
        return {
          kind: "none",
          reason: `parsing took over ${this.timeoutMs} ms and was stopped`,
        };
      }
      kept = { text: body, tree: parsed.tree, errors: parsed.errors };
      this.trees.keep(loaded, kept);
    }
    return { kind: "tree", root: rootOf(kept.tree!) };
  }

  async check(input: CheckInput): Promise<SyntaxCheck | null> {
    let grammar = grammarFor(input.path);
    if (!grammar && input.sniff) {
      const basis = input.before ?? input.after;
      if (basis !== null) {
        grammar = await sniffGrammar(basis, (g, t) => this.answer(g, t));
      }
    }
    if (!grammar) return null;
    const result = (
      status: SyntaxCheck["status"],
      extra: Partial<SyntaxCheck> = {},
    ): SyntaxCheck => ({
      path: input.path,
      language: grammar.language,
      status,
      errors: [],
      reused: false,
      ...extra,
    });
    const size = input.after === null
      ? input.bytes ?? Infinity
      : utf8Length(input.after, this.maxBytes);
    if (input.after === null || size > this.maxBytes) {
      return result("skipped", {
        note: size > this.maxBytes
          ? `not checked: the file is over the ${
            this.maxBytes / MiB
          } MiB limit of syntax checks`
          : "not checked: the file was edited as a stream, without its text in memory",
      });
    }
    const loaded = await loadGrammar(grammar);
    if (typeof loaded === "string") return result("skipped", { note: loaded });
    const after = stripBom(input.after);
    const beforeText = input.before === null ? null : stripBom(input.before);
    const deadline = input.deadline ?? Infinity;
    this.trees.saw(input.path, loaded, after);
    const now = await this.answer(loaded, after, beforeText, deadline);
    if (!now) {
      return result("skipped", {
        note: performance.now() >= deadline
          ? "not checked: the edit's checks ran out of their time"
          : `not checked: parsing took over ${this.timeoutMs} ms and was stopped`,
      });
    }
    if (now.errors.length === 0) return result("ok", { reused: now.reused });
    const before = input.before === null ||
        utf8Length(input.before, this.maxBytes) > this.maxBytes
      ? null
      : stripBom(input.before);
    const then = before === null
      ? null
      : await this.answer(loaded, before, undefined, deadline);
    const afterLines = splitLines(after).lines;
    const found = introducedErrors(
      then && before !== null
        ? { lines: splitLines(before).lines, errors: then.errors }
        : null,
      { lines: afterLines, errors: now.errors },
    );
    return result(found.length > 0 ? "broken" : "ok", {
      errors: found.map((e) => issueOf(e, afterLines)),
      reused: now.reused,
    });
  }
}

/**
 * Creates a syntax checker. Nothing is loaded until the first check of a file
 * with a grammar: then `web-tree-sitter` and that grammar's Wasm (optional
 * npm peers) are read through the runtime's package resolution.
 *
 * @param options Receipt folder, size and time limits.
 * @returns The checker.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createChecker } from "./checker.ts";
 * const checker = createChecker();
 * assert.equal(
 *   await checker.check({ path: "notes.md", before: null, after: "# hi" }),
 *   null,
 * );
 * ```
 */
export function createChecker(options: CheckerOptions = {}): Checker {
  return new TreeSitterChecker(options);
}
