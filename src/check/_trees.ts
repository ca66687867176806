/**
 * The texts a checker parsed lately, per grammar: each with its errors and
 * its tree (the base of the next edit's incremental parse), or, for a text
 * judged by its region, its cuts in place of a tree (docs/syntax-checks.md,
 * "Receipts" and "Regions"); and the text last seen under each path.
 *
 * @module
 */
import {
  type LoadedGrammar,
  type ParsedTree,
  type RawError,
  rootOf,
} from "./_engine.ts";
import { type CutNode, cutsOf } from "./_regions.ts";
import type { Answer } from "./_receipts.ts";

/**
 * Trees kept per grammar, so the next edit of a text parses incrementally
 * (and as many texts judged by their region, kept with their cuts).
 */
export const KEPT_TREES = 4;
/** Paths whose last text is remembered (see {@link KeptTrees.holds}). */
const RECENT_PATHS = 256;

/**
 * A text parsed lately: its errors, and its tree, or (for a text judged by
 * its region) no tree but its cuts.
 */
export interface Kept {
  /** The text. */
  text: string;
  /** Its tree, or null for a text judged by its region. */
  tree: ParsedTree | null;
  /** Its errors. */
  errors: RawError[];
  /** Its cuts once known (clean texts of grammars with regions only). */
  cuts?: number[];
  /** A whole parse run ahead of a check, whose receipt the check writes. */
  unsaved?: boolean;
}

/** The texts parsed lately, per grammar, and the text last seen per path. */
export class KeptTrees {
  /** The texts parsed last per grammar, with their trees and errors. */
  private readonly kept = new Map<string, Kept[]>();
  /** The text last checked or parsed per path, with its grammar's identity. */
  private readonly recent = new Map<
    string,
    { identity: string; text: string }
  >();

  /**
   * Whether the text last seen under `path` is still kept.
   *
   * @param path The file's path, as checks name it.
   */
  holds(path: string): boolean {
    const last = this.recent.get(path);
    return last !== undefined &&
      (this.kept.get(last.identity)?.some((k) => k.text === last.text) ??
        false);
  }

  /**
   * Notes `text` as the text last checked or parsed under `path`.
   *
   * @param path The file's path.
   * @param grammar Its grammar.
   * @param text The text.
   */
  saw(path: string, grammar: LoadedGrammar, text: string): void {
    this.recent.delete(path);
    this.recent.set(path, { identity: grammar.identity, text });
    if (this.recent.size > RECENT_PATHS) {
      this.recent.delete(this.recent.keys().next().value!);
    }
  }

  /**
   * The kept entry of `text`, moved to the front; undefined when none.
   *
   * @param grammar The grammar it was parsed with.
   * @param text The text.
   */
  find(grammar: LoadedGrammar, text: string): Kept | undefined {
    const list = this.kept.get(grammar.identity);
    const at = list?.findIndex((k) => k.text === text) ?? -1;
    if (!list || at < 0) return undefined;
    const [hit] = list.splice(at, 1);
    list.unshift(hit);
    return hit;
  }

  /**
   * Keeps an entry in front (replacing one of the same text), freeing the
   * trees pushed out.
   *
   * @param grammar The grammar it was parsed with.
   * @param entry The entry.
   */
  keep(grammar: LoadedGrammar, entry: Kept): void {
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

  /**
   * The tree kept lately closest to `text` (its own, else the newest), as
   * the base of an incremental parse.
   *
   * @param grammar The grammar.
   * @param text The text, if any.
   */
  baseFor(grammar: LoadedGrammar, text?: string | null): Kept | undefined {
    const list = this.kept.get(grammar.identity) ?? [];
    return list.find((k) => k.tree && k.text === text) ??
      list.find((k) => k.tree);
  }

  /**
   * The cuts of a kept clean text (read from its tree once).
   *
   * @param grammar The grammar it was parsed with.
   * @param kept The entry.
   * @returns Its cuts, or null (errors, or a grammar without regions).
   */
  cutsOf(grammar: LoadedGrammar, kept: Kept): number[] | null {
    if (!grammar.regions || kept.errors.length > 0) return null;
    if (!kept.cuts && kept.tree) {
      kept.cuts = cutsOf(rootOf(kept.tree) as unknown as CutNode);
    }
    return kept.cuts ?? null;
  }

  /**
   * What a receipt keeps of a kept text: its errors, and its cuts when clean.
   *
   * @param grammar The grammar it was parsed with.
   * @param kept The entry.
   */
  answerOf(grammar: LoadedGrammar, kept: Kept): Answer {
    const cuts = this.cutsOf(grammar, kept);
    return cuts ? { errors: kept.errors, cuts } : { errors: kept.errors };
  }
}
