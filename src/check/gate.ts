/**
 * The syntax check as one step of an edit: given the files as an edit would
 * leave them, it either lets the edit through with warnings (`warn`), refuses
 * it whole (`refuse`, code `SYNTAX`), or does nothing (`off`). Workspaces and
 * stores hold one gate each; the checker behind it loads nothing until the
 * first file with a grammar is checked.
 *
 * @module
 */
import type { BlockSource } from "../block/expand.ts";
import { isMarkdown } from "../block/markdown.ts";
import { PatchRefusedError } from "../errors.ts";
import { lazy } from "../_internal/lazy.ts";
import { detectDialect } from "../patch/dialects/sniff.ts";
import type { DialectPatch } from "../patch/dialects/types.ts";
import type { Checker, CheckInput, SyntaxCheck } from "./checker.ts";
import { grammarFor } from "./languages.ts";
import { type CheckMode, checkMode } from "./modes.ts";

// The checker and its helpers load with the first edit a gate checks, so a
// workspace that only reads (a CLI `read`) never loads them.
type CheckerModule = typeof import("./checker.ts");
const loadChecker = lazy<CheckerModule>(
  import.meta.url,
  "./checker.ts",
);
const loadEngine = lazy<typeof import("./_engine.ts")>(
  import.meta.url,
  "./_engine.ts",
);
// What a first check loads after the engine, started with it ahead of a
// patch: a round of module loading holds the event loop, so imports started
// together load together, and each started later waits for a round of its own.
const loadTreeSitter = lazy<typeof import("./_tree_sitter.ts")>(
  import.meta.url,
  "./_tree_sitter.ts",
);
const loadPackages = lazy<typeof import("../_runtime/packages.ts")>(
  import.meta.url,
  "../_runtime/packages.ts",
);
// The dialect parsers load only to prime a patch written in one, so a
// workspace that only reads never loads them.
const loadDialects = lazy<typeof import("../patch/dialects/detect.ts")>(
  import.meta.url,
  "../patch/dialects/detect.ts",
);

/** Most files of one patch whose content is parsed ahead of its check. */
const PRIMED_FILES = 4;
/** Largest file read ahead of a check (larger ones are not checked). */
const PRIME_MAX_BYTES = 2 * 1024 ** 2;
/** Longest a check waits for a prime to hand it the files it read. */
const PRIME_WAIT_MS = 200;

/**
 * The files a patch edits, read from it as sent without validating it: the
 * `@@ PATH` lines of the text form, or `files[].path` of the JSON form (a
 * text in another dialect: once its parser has loaded). Created, deleted
 * and renamed files are left out (their check starts from nothing); at
 * most {@link PRIMED_FILES}.
 */
function patchPaths(patch: unknown): string[] | Promise<string[]> {
  let value = patch;
  if (typeof value === "string" && detectDialect(value) !== null) {
    const text = value;
    return loadDialects().then((d) => dialectPaths(d.parseDialect, text));
  }
  if (typeof value === "string") {
    if (!/^\s*\{/.test(value)) {
      const out: string[] = [];
      for (const m of value.matchAll(/^@@ (.+?)\s*$/gm)) {
        if (!m[1].includes(" -> ") && !out.includes(m[1])) out.push(m[1]);
      }
      return out.slice(0, PRIMED_FILES);
    }
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const files = (value as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return [];
  const out: string[] = [];
  for (const f of files) {
    const path = (f as { path?: unknown } | null)?.path;
    const entry = f as { create?: unknown; delete?: unknown; rename?: unknown };
    if (
      typeof path === "string" && path !== "" && !out.includes(path) &&
      entry.create !== true && entry.delete !== true &&
      entry.rename === undefined
    ) out.push(path);
  }
  return out.slice(0, PRIMED_FILES);
}

/** The files an `apply_patch` or unified diff text updates in place (none when it does not parse). */
function dialectPaths(
  parseDialect: (text: string) => DialectPatch | null,
  text: string,
): string[] {
  try {
    const files = parseDialect(text)?.files ?? [];
    const out = files.filter((f) => f.kind === "update" && !f.moveTo)
      .map((f) => f.path);
    return [...new Set(out)].slice(0, PRIMED_FILES);
  } catch {
    return [];
  }
}

/** How long the checks of one edit may take together, in milliseconds (docs/syntax-checks.md, "Bounds, and failing closed"). */
export const PATCH_CHECKS_MS = 2000;

/** What a gate found: every check's answer and the warnings for the result. */
export interface GateOutcome {
  /** One answer per checked file (files without a grammar are left out). */
  checks: SyntaxCheck[];
  /** Lines for the result's warnings: introduced errors, and why a file was not checked. */
  warnings: string[];
}

/** Syntax checks of edits under one mode, with one checker and its receipts. */
export class SyntaxGate {
  /** The mode when a call names none. */
  readonly mode: CheckMode;
  private readonly stateDir: string | null;
  private readonly saveAll: boolean;
  private readonly notice: ((message: string) => void) | undefined;
  private checker?: Checker;
  private readonly noted = new Set<string>();
  /** Primes under way, each settling when it has handed its files on. */
  private readonly primes = new Set<Promise<void>>();

  /**
   * @param mode Default mode (`warn` when undefined).
   * @param stateDir State folder for receipts (`<stateDir>/checks/`), or null.
   * @param checker A checker to use instead of a new one (tests count its parses).
   * @param saveAll Whether the checker writes every answer to the state
   *   folder (`CheckerOptions.saveAll`; for a process that ends after one edit).
   * @param notice Told why a receipt was not saved (`CheckerOptions.notice`).
   * @throws {TypeError} When `mode` is not a mode.
   */
  constructor(
    mode: unknown,
    stateDir: string | null,
    checker?: Checker,
    saveAll = false,
    notice?: (message: string) => void,
  ) {
    this.mode = checkMode(mode);
    this.stateDir = stateDir;
    this.checker = checker;
    this.saveAll = saveAll;
    this.notice = notice;
  }

  /** The checker, created on first use. */
  private engine(module: CheckerModule): Checker {
    return this.checker ??= module.createChecker({
      stateDir: this.stateDir,
      saveAll: this.saveAll,
      ...(this.notice ? { notice: this.notice } : {}),
    });
  }

  /**
   * Starts loading the checker and the grammars of these files, so the load
   * overlaps an edit's own reads and writes; the check that follows awaits
   * the same promises. Does nothing under `off`.
   *
   * @param paths The files an edit names.
   * @param mode This edit's mode (default the gate's).
   */
  warm(paths: readonly string[], mode?: unknown): void {
    let m: CheckMode;
    try {
      m = checkMode(mode, this.mode);
    } catch {
      return;
    }
    if (m === "off" || paths.length === 0) return;
    void (async () => {
      const grammars = paths.map((p) => grammarFor(p)).filter((g) => g);
      if (grammars.length === 0) return;
      await loadChecker();
      const { loadGrammar } = await loadEngine();
      await Promise.all(grammars.map((g) => loadGrammar(g!)));
    })().catch(() => {});
  }

  /**
   * Warms ahead of a patch, before the patch is even parsed: starts loading
   * the grammars of the files it names and parsing their current content a
   * slice at a time, so the check that follows parses only what the edit
   * changed. Paths are read from the patch as sent (best effort; a patch
   * that does not parse primes nothing). Does nothing under `off`.
   *
   * @param patch The patch as sent (JSON text, text form or object).
   * @param mode This edit's mode (default the gate's).
   * @param read Reads a file's current text by the patch's path, if it is
   *   at most `maxBytes` long (else null, as when it cannot be read); it must
   *   apply the caller's confinement rules.
   */
  prime(
    patch: unknown,
    mode: unknown,
    read: (path: string, maxBytes: number) => Promise<string | null>,
  ): void {
    let m: CheckMode;
    try {
      m = checkMode(mode, this.mode);
    } catch {
      return;
    }
    if (m === "off") return;
    const named = patchPaths(patch);
    if (Array.isArray(named)) return this.primeFiles(named, m, read);
    this.track(
      named.then((paths) => this.primeFiles(paths, m, read)).catch(() => {}),
    );
  }

  /** Holds a prime under way until it settles, for {@link primed} to wait on. */
  private track(prime: Promise<void>): void {
    this.primes.add(prime);
    void prime.then(() => this.primes.delete(prime));
  }

  /** Primes the files a patch names (see {@link prime}). */
  private primeFiles(
    paths: readonly string[],
    m: CheckMode,
    read: (path: string, maxBytes: number) => Promise<string | null>,
  ): void {
    const coded = paths.filter((p) => grammarFor(p) !== null);
    if (coded.length === 0) return;
    // Every module a first check needs, started at once (see above).
    for (
      const load of [loadChecker, loadEngine, loadTreeSitter, loadPackages]
    ) {
      (load as () => Promise<unknown>)().catch(() => {});
    }
    this.warm(coded, m);
    const handed = (async () => {
      const module = await loadChecker();
      const engine = this.engine(module);
      if (!engine.prime) return;
      for (const path of coded) {
        // A long-lived process most often holds the tree already.
        if (engine.holds?.(path)) continue;
        const text = await read(path, PRIME_MAX_BYTES).catch(() => null);
        if (text !== null) engine.prime(path, text);
      }
    })().catch(() => {});
    this.track(handed);
  }

  /**
   * Waits (briefly) for the primes under way to hand their files to the
   * checker, so a check that follows finds the parse under way instead of
   * starting a second one.
   */
  private async primed(): Promise<void> {
    if (this.primes.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      Promise.all(this.primes).then(() => false),
      new Promise<boolean>((r) =>
        timer = setTimeout(() => r(true), PRIME_WAIT_MS)
      ),
    ]);
    clearTimeout(timer);
    // A read that hangs is given up on, not waited for by every later check.
    if (late) this.primes.clear();
  }

  /**
   * The structure of a file's content, for block anchors and outlines:
   * Markdown needs no grammar; other files are parsed by the checker (which
   * keeps the tree for the check of the edit that follows).
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content.
   * @returns The tree's root (`null` for Markdown), or why there is none.
   */
  async structure(path: string, text: string): Promise<BlockSource> {
    if (isMarkdown(path)) return { kind: "tree", root: null };
    await this.primed();
    const module = await loadChecker();
    const engine = this.engine(module);
    if (!engine.structure) {
      return { kind: "none", reason: "the checker in use parses no trees" };
    }
    try {
      return await engine.structure(path, text);
    } catch (error) {
      return {
        kind: "none",
        reason: `the parser failed (${
          String((error as Error)?.message ?? error)
        })`,
      };
    }
  }

  /**
   * Whether {@link run} may refuse an edit in this mode (only `refuse`
   * does). A check that cannot refuse may run while the edit is written.
   *
   * @param mode This call's mode (default the gate's).
   * @throws {TypeError} When `mode` is not a mode.
   */
  mayRefuse(mode?: unknown): boolean {
    return checkMode(mode, this.mode) === "refuse";
  }

  /**
   * Checks the files of one edit. Under `warn` it never rejects: a check
   * that fails is a note, never a failed edit.
   *
   * @param inputs Each file as it stood and as the edit would leave it.
   * @param mode This call's mode (default the gate's).
   * @returns The answers and the warnings to add to the result.
   * @throws {PatchRefusedError} With code `SYNTAX` under `refuse`, when an
   *   edit introduces a syntax error: nothing may be written.
   */
  async run(inputs: CheckInput[], mode?: unknown): Promise<GateOutcome> {
    const m = checkMode(mode, this.mode);
    if (m === "off" || inputs.length === 0) return { checks: [], warnings: [] };
    await this.primed();
    const module = await loadChecker();
    const { describeCheck, syntaxProblems } = module;
    const checks: SyntaxCheck[] = [];
    const deadline = performance.now() + PATCH_CHECKS_MS;
    for (const input of inputs) {
      if (performance.now() >= deadline) {
        const grammar = grammarFor(input.path);
        if (grammar) {
          checks.push({
            path: input.path,
            language: grammar.language,
            status: "skipped",
            errors: [],
            note: `not checked: the edit's checks together ran past ${
              PATCH_CHECKS_MS / 1000
            } s`,
            reused: false,
          });
        }
        continue;
      }
      try {
        const c = await this.engine(module).check({ ...input, deadline });
        if (c) checks.push(c);
      } catch (error) {
        checks.push({
          path: input.path,
          language: "unknown",
          status: "skipped",
          errors: [],
          note: `not checked: the checker failed (${
            String((error as Error)?.message ?? error)
          })`,
          reused: false,
        });
      }
    }
    if (m === "refuse") {
      // Fails closed: a file with a grammar that could not be judged is refused too.
      const problems = [
        ...syntaxProblems(checks),
        ...checks.filter((c) => c.status === "skipped").map((c) => ({
          code: "UNCHECKED" as const,
          path: c.path,
          message:
            `the edit could not be checked, so nothing was written (check is refuse): ${
              (c.note ?? "not checked").replace(/^not checked: /, "")
            }. Make the file checkable, or send the edit with check "warn" or "off".`,
        })),
      ];
      if (problems.length > 0) throw new PatchRefusedError(problems);
    }
    const warnings: string[] = [];
    for (const c of checks) {
      // A missing grammar is said once per gate, not on every edit.
      if (c.status === "skipped" && c.note) {
        if (this.noted.has(c.note)) continue;
        this.noted.add(c.note);
      }
      const text = describeCheck(c);
      if (text !== "") warnings.push(`${c.path}: ${text}`);
    }
    return { checks, warnings };
  }
}
