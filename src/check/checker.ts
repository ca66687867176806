/**
 * Syntax checks after edits (DESIGN §11): the new content is parsed with the
 * file's tree-sitter grammar and every syntax error the edit introduced is
 * reported with its anchor and the lines around it; answers are kept as
 * receipts so unchanged content is never parsed twice.
 *
 * @module
 */
import { formatLine } from "../anchor/format.ts";
import { splitLines } from "../anchor/split.ts";
import type { Problem } from "../errors.ts";
import {
  type LoadedGrammar,
  loadGrammar,
  type ParseAnswer,
  type ParsedTree,
  type RawError,
  rootOf,
  type SlicedParse,
} from "./_engine.ts";
import type { BlockSource } from "../block/expand.ts";
import { introducedErrors } from "./_introduced.ts";
import { type Answer, Receipts, sha256Hex } from "./_receipts.ts";
import {
  type CutNode,
  cutsOf,
  joinCuts,
  plausibleCuts,
  regionOf,
  rowCount,
} from "./_regions.ts";

export { CHECK_MODES, type CheckMode, checkMode } from "./modes.ts";
import { type Grammar, grammarFor, GRAMMARS } from "./languages.ts";

/** One syntax error an edit introduced. */
export interface SyntaxIssue {
  /** 1-based line in the new content. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** The line's anchor in the new content, `LINE:HH`. */
  anchor: string;
  /** `missing "}"` or `unexpected "foo"`. */
  message: string;
  /** The new lines around it (±2) as `LINE:HH|content`, joined with `\n`. */
  context: string;
}

/** The answer of one check. */
export interface SyntaxCheck {
  /** The file checked (as the caller named it). */
  path: string;
  /** The grammar's language (`typescript`, `python`, …). */
  language: string;
  /** `ok`: no error introduced; `broken`: see `errors`; `skipped`: not checked, see `note`. */
  status: "ok" | "broken" | "skipped";
  /** The errors the edit introduced (errors the old content had are left out). */
  errors: SyntaxIssue[];
  /** Why the content was not checked (too large, too slow, grammar not installed). */
  note?: string;
  /** The new content's parse came from a receipt, without parsing. */
  reused: boolean;
}

/** Options of {@link createChecker}. */
export interface CheckerOptions {
  /** State folder; receipts are kept in `<stateDir>/checks/` (default: memory only). */
  stateDir?: string | null;
  /** Largest content checked, in UTF-8 bytes (default 2 MiB). */
  maxBytes?: number;
  /** Longest parse, in milliseconds, before it is abandoned (default 1000). */
  timeoutMs?: number;
  /** Most receipts kept in memory (default 512). */
  memoryEntries?: number;
  /**
   * Writes every answer to the state folder, those of incremental parses
   * too (default false: those stay in memory with their trees). For a
   * process that ends after one edit, such as the CLI: the next process
   * then judges its edit of the same file by the region the edit changed.
   */
  saveAll?: boolean;
}

/** One edit to check. */
export interface CheckInput {
  /** The file's path; its extension picks the grammar. */
  path: string;
  /** The content before the edit, or null for a new file (or when unknown). */
  before: string | null;
  /** The content as the edit leaves it, or null when it is not at hand (see `bytes`). */
  after: string | null;
  /** Size of the new content in bytes, when `after` is null (a streamed file). */
  bytes?: number;
  /**
   * When no grammar covers `path` (a stored revision has no file name), use
   * the first installed grammar under which the old content (else the new
   * one) parses without error.
   */
  sniff?: boolean;
  /**
   * When the checks this one belongs to must stop (`performance.now()`
   * time): a parse gets at most the time left, and none is started after it.
   */
  deadline?: number;
}

/** Parses edited content and reports the syntax errors each edit introduced. */
export interface Checker {
  /**
   * Checks one edit.
   *
   * @returns The answer, or null when no grammar covers the file's extension.
   */
  check(input: CheckInput): Promise<SyntaxCheck | null>;
  /**
   * The syntax tree of a file's content, for block anchors and outlines; the
   * parse is kept, so a check of an edit of this content parses only what
   * changed. Optional: a checker without it resolves no blocks.
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content (a leading BOM is ignored).
   * @returns The tree's root, or why there is none.
   */
  structure?(path: string, text: string): Promise<BlockSource>;
  /**
   * Starts parsing a file's current content a slice at a time, between
   * other work, so the check of an edit of it parses only what the edit
   * changed. Optional; it never fails (a file it cannot parse is left be).
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content as it stands (a leading BOM is ignored).
   */
  prime?(path: string, text: string): void;
  /**
   * Whether the tree of the text last checked or parsed under `path` is
   * still kept (then a prime of it would parse nothing new). Optional.
   *
   * @param path The file's path, as checks name it.
   */
  holds?(path: string): boolean;
  /** Parses run so far (a receipt hit runs none). */
  readonly parses: number;
}

const MiB = 1024 ** 2;
/**
 * Trees kept per grammar, so the next edit of a text parses incrementally
 * (and as many texts judged by their region, kept with their cuts).
 */
const KEPT_TREES = 4;
/** Paths whose last text is remembered (see {@link Checker.holds}). */
const RECENT_PATHS = 256;

/**
 * A text parsed lately: its errors, and its tree, or (for a text judged by
 * its region) no tree but its cuts.
 */
interface Kept {
  text: string;
  tree: ParsedTree | null;
  errors: RawError[];
  /** Its cuts once known (clean texts of grammars with regions only). */
  cuts?: number[];
  /** A whole parse run ahead of a check, whose receipt the check writes. */
  unsaved?: boolean;
}
/** Largest content whose language is guessed by parsing it. */
const SNIFF_BYTES = 256 * 1024;
/** Grammars tried when guessing, strictest first (YAML and Bash accept much). */
const SNIFF_ORDER: readonly Grammar[] = [
  ".json",
  ".ts",
  ".py",
  ".go",
  ".rs",
  ".css",
  ".toml",
  ".yaml",
  ".sh",
].map((ext) => GRAMMARS[ext]);
const BOM = "\uFEFF";

function utf8Length(text: string, over: number): number {
  if (text.length * 3 <= over) return text.length;
  return new TextEncoder().encode(text).length;
}

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

function messageOf(e: RawError): string {
  if (e.kind === "missing") return `missing "${e.token}"`;
  return e.token === "" ? "unexpected text" : `unexpected "${e.token}"`;
}

function issueOf(e: RawError, lines: readonly string[]): SyntaxIssue {
  const line = Math.max(1, Math.min(e.line, lines.length));
  const shown: string[] = [];
  for (
    let n = Math.max(1, line - 2);
    n <= Math.min(lines.length, line + 2);
    n++
  ) {
    shown.push(formatLine(n, lines[n - 1]));
  }
  const here = lines.length > 0 ? formatLine(line, lines[line - 1]) : "1:00|";
  return {
    line,
    column: e.column,
    anchor: here.slice(0, here.indexOf("|")),
    message: messageOf(e),
    context: shown.join("\n"),
  };
}

class TreeSitterChecker implements Checker {
  parses = 0;
  private readonly receipts: Receipts;
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly options: string;
  private readonly saveAll: boolean;

  constructor(options: CheckerOptions) {
    this.saveAll = options.saveAll === true;
    this.maxBytes = options.maxBytes ?? 2 * MiB;
    this.timeoutMs = options.timeoutMs ?? 1000;
    this.options = `maxBytes=${this.maxBytes}`;
    const folder = options.stateDir
      ? `${options.stateDir.replace(/[\\/]+$/, "")}/checks`
      : null;
    this.receipts = new Receipts(folder, options.memoryEntries ?? 512);
  }

  /** The texts parsed last per grammar, with their trees and errors. */
  private readonly kept = new Map<string, Kept[]>();
  /** Parses running in slices, per grammar (see {@link prime}). */
  private readonly priming = new Map<string, SlicedParse[]>();
  /** Primes still looking for a receipt before they parse anything. */
  private readonly looking = new Set<Promise<void>>();
  /** Receipt keys of the texts hashed lately. */
  private readonly keys = new Map<
    string,
    { identity: string; key: Promise<string> }
  >();
  /** The text last checked or parsed per path, with its grammar's identity. */
  private readonly recent = new Map<
    string,
    { identity: string; text: string }
  >();

  holds(path: string): boolean {
    const last = this.recent.get(path);
    return last !== undefined &&
      (this.kept.get(last.identity)?.some((k) => k.text === last.text) ??
        false);
  }

  private saw(path: string, grammar: LoadedGrammar, text: string): void {
    this.recent.delete(path);
    this.recent.set(path, { identity: grammar.identity, text });
    if (this.recent.size > RECENT_PATHS) {
      this.recent.delete(this.recent.keys().next().value!);
    }
  }

  prime(path: string, text: string): void {
    const grammar = grammarFor(path);
    if (!grammar || utf8Length(text, this.maxBytes) > this.maxBytes) return;
    const body = text.startsWith(BOM) ? text.slice(1) : text;
    const looked = loadGrammar(grammar).then(async (loaded) => {
      if (typeof loaded === "string" || this.find(loaded, body)) return;
      // A receipt with cuts judges an edit of this text by its region:
      // nothing to parse ahead.
      if (loaded.regions && await this.cleanCuts(loaded, body)) return;
      if (this.find(loaded, body)) return;
      const jobs = this.priming.get(loaded.identity) ?? [];
      if (jobs.some((j) => j.text === body)) return;
      const job = loaded.parseInSlices(body, this.timeoutMs);
      this.priming.set(loaded.identity, [...jobs, job]);
      void job.done.then((answer) => this.primed(loaded, job, answer));
    }).catch(() => {});
    this.looking.add(looked);
    void looked.then(() => this.looking.delete(looked));
  }

  /** Keeps the tree of a sliced parse that ended (once). */
  private primed(
    grammar: LoadedGrammar,
    job: SlicedParse,
    answer: ParseAnswer,
  ): void {
    const jobs = this.priming.get(grammar.identity);
    const at = jobs?.indexOf(job) ?? -1;
    if (!jobs || at < 0) return;
    jobs.splice(at, 1);
    if (jobs.length === 0) this.priming.delete(grammar.identity);
    if (answer.kind !== "parsed") return;
    this.parses++;
    if (this.find(grammar, job.text)?.tree) return answer.tree.delete();
    // A whole parse: the check that uses it writes its receipt, as it
    // would its own (never a write after the answer, nor for an edit
    // refused before its check).
    this.keep(grammar, {
      text: job.text,
      tree: answer.tree,
      errors: answer.errors,
      unsaved: true,
    });
  }

  /** What a receipt keeps of a kept text: its errors, and its cuts when clean. */
  private answerOf(grammar: LoadedGrammar, kept: Kept): Answer {
    const cuts = this.cutsOfKept(grammar, kept);
    return cuts ? { errors: kept.errors, cuts } : { errors: kept.errors };
  }

  /**
   * Ends now (within `limitMs`) the sliced parse of `text`, if one runs, so
   * its tree can serve.
   */
  private settlePrime(
    grammar: LoadedGrammar,
    text: string | null | undefined,
    limitMs = this.timeoutMs,
  ): void {
    const job = this.priming.get(grammar.identity)?.find((j) =>
      j.text === text
    );
    const answer = job?.finish(Math.max(0, limitMs));
    if (job && answer) this.primed(grammar, job, answer);
  }

  private find(grammar: LoadedGrammar, text: string): Kept | undefined {
    const list = this.kept.get(grammar.identity);
    const at = list?.findIndex((k) => k.text === text) ?? -1;
    if (!list || at < 0) return undefined;
    const [hit] = list.splice(at, 1);
    list.unshift(hit);
    return hit;
  }

  private keep(grammar: LoadedGrammar, entry: Kept): void {
    let list = this.kept.get(grammar.identity);
    if (!list) this.kept.set(grammar.identity, list = []);
    const same = list.findIndex((k) => k.text === entry.text);
    if (same >= 0) list.splice(same, 1)[0].tree?.delete();
    list.unshift(entry);
    // Up to KEPT_TREES of each kind: texts judged by their region do not push
    // out the trees that an edit their region cannot judge parses from.
    let trees = 0;
    let bare = 0;
    const kept = list.filter((k) =>
      k.tree ? ++trees <= KEPT_TREES : ++bare <= KEPT_TREES
    );
    for (const gone of list) if (!kept.includes(gone)) gone.tree?.delete();
    this.kept.set(grammar.identity, kept);
  }

  /** The tree kept lately closest to `text` (its own, else the newest), as the base of an incremental parse. */
  private baseFor(
    grammar: LoadedGrammar,
    text?: string | null,
  ): Kept | undefined {
    const list = this.kept.get(grammar.identity) ?? [];
    return list.find((k) => k.tree && k.text === text) ??
      list.find((k) => k.tree);
  }

  /** The cuts of a kept clean text (read from its tree once). */
  private cutsOfKept(grammar: LoadedGrammar, kept: Kept): number[] | null {
    if (!grammar.regions || kept.errors.length > 0) return null;
    if (!kept.cuts && kept.tree) {
      kept.cuts = cutsOf(rootOf(kept.tree) as unknown as CutNode);
    }
    return kept.cuts ?? null;
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
    if (this.looking.size > 0) await Promise.all(this.looking);
    this.settlePrime(grammar, text, deadline - performance.now());
    if (typeof before === "string") {
      this.settlePrime(grammar, before, deadline - performance.now());
    }
    const recalled = this.find(grammar, text);
    if (recalled) return { errors: recalled.errors, reused: true };
    const known = typeof before === "string"
      ? this.find(grammar, before)
      : undefined;
    if (known?.unsaved) {
      known.unsaved = false;
      await this.receipts.put(
        await this.keyOf(grammar, known.text),
        this.answerOf(grammar, known),
      );
    }
    const base = known && this.baseFor(grammar, before);
    // The cuts of the text before: from its kept tree (or the region that
    // judged it), else from its receipt once the new text has none.
    let oldCuts = known ? this.cutsOfKept(grammar, known) : null;
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
        this.keep(grammar, { text, tree: null, errors: [], cuts });
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
    this.keep(grammar, kept);
    // A full parse's answer is written to the state folder too (the write
    // is small beside the parse); an incremental one stays in memory with its
    // tree (unless `saveAll`): redoing it costs less than a file write, which
    // the next edit's flush would have to carry.
    if (!base || this.saveAll) {
      await this.receipts.put(
        key ?? await this.keyOf(grammar, text),
        this.answerOf(grammar, kept),
      );
    }
    return { errors, reused: false };
  }

  private async sniff(text: string): Promise<Grammar | null> {
    if (utf8Length(text, SNIFF_BYTES) > SNIFF_BYTES) return null;
    for (const g of SNIFF_ORDER) {
      const loaded = await loadGrammar(g);
      if (typeof loaded === "string") continue;
      const a = await this.answer(loaded, text.replace(/^\uFEFF/, ""));
      if (a && a.errors.length === 0) return g;
    }
    return null;
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
    const body = text.startsWith(BOM) ? text.slice(1) : text;
    this.settlePrime(loaded, body);
    this.saw(path, loaded, body);
    let kept = this.find(loaded, body);
    if (!kept?.tree) {
      this.parses++;
      // The tree parsed last (most often of this file before its last edit)
      // serves as the base of an incremental parse.
      const last = this.baseFor(loaded);
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
      this.keep(loaded, kept);
    }
    return { kind: "tree", root: rootOf(kept.tree!) };
  }

  async check(input: CheckInput): Promise<SyntaxCheck | null> {
    let grammar = grammarFor(input.path);
    if (!grammar && input.sniff) {
      const basis = input.before ?? input.after;
      if (basis !== null) grammar = await this.sniff(basis);
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
    const after = input.after.startsWith(BOM)
      ? input.after.slice(1)
      : input.after;
    const beforeText = input.before?.startsWith(BOM)
      ? input.before.slice(1)
      : input.before;
    const deadline = input.deadline ?? Infinity;
    this.saw(input.path, loaded, after);
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
      : input.before.startsWith(BOM)
      ? input.before.slice(1)
      : input.before;
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

/**
 * The text a model reads about a check: the introduced errors, each with its
 * anchor and the lines around it, or why the file was not checked; `""` when
 * the edit broke nothing.
 *
 * @param check A check's answer.
 * @param written False when the content was refused (the lines shown are as
 *   the edit would have left them).
 * @returns The text (no leading path; callers prefix it).
 */
export function describeCheck(check: SyntaxCheck, written = true): string {
  if (check.status === "skipped") {
    return `syntax ${check.note ?? "not checked"}.`;
  }
  if (check.status === "ok") return "";
  const n = check.errors.length;
  const head = `the edit introduces ${n} ${check.language} syntax ${
    n === 1 ? "error" : "errors"
  }${
    written
      ? "; fix it with a patch built from these fresh anchors:"
      : ", so nothing was written; the lines as the edit would have left them:"
  }`;
  const body = check.errors.map((e) =>
    `- line ${e.line} (${e.anchor}): ${e.message}\n${
      e.context.split("\n").map((l) => `  ${l}`).join("\n")
    }`
  );
  return [head, ...body].join("\n");
}

/**
 * The problems a refusal under `check: "refuse"` lists: one `SYNTAX`
 * problem per file whose edit introduced errors.
 *
 * @param checks The answers of the edit's checks.
 * @returns The problems (empty when no edit broke the syntax).
 */
export function syntaxProblems(checks: readonly SyntaxCheck[]): Problem[] {
  return checks.filter((c) => c.status === "broken").map((c) => ({
    code: "SYNTAX",
    path: c.path,
    line: c.errors[0]?.line,
    message: describeCheck(c, false),
  }));
}
