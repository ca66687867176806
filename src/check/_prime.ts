/**
 * Parsing a file's current content ahead of the check of its edit, a slice
 * at a time between other work (docs/syntax-checks.md, "Cost"): the check
 * then finishes that parse, if it still runs, and judges the edit from its
 * tree.
 *
 * @module
 */
import {
  type LoadedGrammar,
  loadGrammar,
  type ParseAnswer,
  type SlicedParse,
} from "./_engine.ts";
import type { KeptTrees } from "./_trees.ts";
import { utf8Length } from "./_text.ts";
import { stripBom } from "../anchor/split.ts";
import { grammarFor } from "./languages.ts";

/** What a {@link Primer} needs of the checker it works for. */
export interface PrimeHost {
  /** Largest content checked, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** Longest parse, in milliseconds. */
  readonly timeoutMs: number;
  /** The checker's kept texts. */
  readonly trees: KeptTrees;
  /** The cuts of `text` from a receipt of a clean parse, or null. */
  cleanCuts(grammar: LoadedGrammar, text: string): Promise<number[] | null>;
  /** Counts a parse that ran. */
  counted(): void;
}

/** The parses a checker runs ahead of its checks. */
export class Primer {
  private readonly host: PrimeHost;
  /** Parses running in slices, per grammar. */
  private readonly priming = new Map<string, SlicedParse[]>();
  /** Primes still looking for a receipt before they parse anything. */
  private readonly looking = new Set<Promise<void>>();

  /** @param host The checker's side of the work. */
  constructor(host: PrimeHost) {
    this.host = host;
  }

  /**
   * Starts parsing `text` a slice at a time, unless it is kept already or
   * a receipt with cuts will judge an edit of it by its region. Never fails.
   *
   * @param path The file's path; its extension picks the grammar.
   * @param text The content as it stands (a leading BOM is ignored).
   */
  prime(path: string, text: string): void {
    const { host } = this;
    const grammar = grammarFor(path);
    if (!grammar || utf8Length(text, host.maxBytes) > host.maxBytes) return;
    const body = stripBom(text);
    const looked = loadGrammar(grammar).then(async (loaded) => {
      if (typeof loaded === "string" || host.trees.find(loaded, body)) return;
      // A receipt with cuts judges an edit of this text by its region:
      // nothing to parse ahead.
      if (loaded.regions && await host.cleanCuts(loaded, body)) return;
      if (host.trees.find(loaded, body)) return;
      const jobs = this.priming.get(loaded.identity) ?? [];
      if (jobs.some((j) => j.text === body)) return;
      const job = loaded.parseInSlices(body, host.timeoutMs);
      this.priming.set(loaded.identity, [...jobs, job]);
      void job.done.then((answer) => this.primed(loaded, job, answer));
    }).catch(() => {});
    this.looking.add(looked);
    void looked.then(() => this.looking.delete(looked));
  }

  /** Waits for the primes still looking for receipts. */
  async looked(): Promise<void> {
    if (this.looking.size > 0) await Promise.all(this.looking);
  }

  /**
   * Ends now (within `limitMs`) the sliced parse of `text`, if one runs, so
   * its tree can serve.
   *
   * @param grammar The grammar.
   * @param text The text.
   * @param limitMs Longest the parse may still run.
   */
  settle(
    grammar: LoadedGrammar,
    text: string | null | undefined,
    limitMs: number = this.host.timeoutMs,
  ): void {
    const job = this.priming.get(grammar.identity)?.find((j) =>
      j.text === text
    );
    const answer = job?.finish(Math.max(0, limitMs));
    if (job && answer) this.primed(grammar, job, answer);
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
    this.host.counted();
    const trees = this.host.trees;
    if (trees.find(grammar, job.text)?.tree) return answer.tree.delete();
    // A whole parse: the check that uses it writes its receipt, as it
    // would its own (never a write after the answer, nor for an edit
    // refused before its check).
    trees.keep(grammar, {
      text: job.text,
      tree: answer.tree,
      errors: answer.errors,
      unsaved: true,
    });
  }
}
