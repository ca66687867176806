/**
 * Views (docs/reads.md#views-several-edits-from-one-read): everything a
 * session was shown of one file — a read window, an outline, a refusal's
 * fresh lines, an edit result's lines — each kept with its own numbering,
 * and the session's own commits since, which translate a view's line
 * numbers exactly into the file as it stands after them.
 *
 * Pure data: numbers and 32-bit hashes only, bounded per file.
 *
 * @module
 */
import type { PlannedEdit } from "./types.ts";

/** Most views kept per session and file; the oldest go first. */
export const MAX_VIEWS = 64;

/** Consecutive lines a view showed, from line `start` on, by full hash. */
export interface ViewRun {
  /** First line, in the view's own numbering. */
  readonly start: number;
  /** Full 32-bit hashes of the lines shown. */
  readonly hashes: readonly number[];
}

/** One thing a session was shown of a file. */
export interface View {
  /** A read (window or outline) supersedes what earlier views said of the lines it shows. */
  readonly read: boolean;
  /**
   * Lines a refusal showed for an ambiguous anchor, where the candidates
   * stand now: they supersede earlier views for anchors written `N:HH`
   * (the hash still has to fit), never for a bare number.
   */
  readonly settle?: boolean;
  /** The number of the session's own commits of the file made before this view. */
  readonly epoch: number;
  /** The lines shown, sorted and apart. */
  readonly runs: readonly ViewRun[];
}

/** One edit of a session's own commit, in the numbering of the file before it. */
export interface CommitEdit {
  /** First line replaced, or the line the insert goes before. */
  readonly at: number;
  /** Lines removed there. */
  readonly deleteCount: number;
  /** Lines put there. */
  readonly added: number;
}

/** One of the session's own commits of a file. */
export interface OwnCommit {
  /** The epoch this commit made (views made after it carry it). */
  readonly epoch: number;
  /** Its history entry (`h_12`), when history is kept. */
  readonly entry?: string;
  /**
   * Not a commit of the session's but another party's changes, as the
   * drift alignment placed the session's lines when its own commit came
   * (a line it could not place has no number after it).
   */
  readonly theirs?: boolean;
  /** Its edits, sorted by `at`, apart. */
  readonly edits: readonly CommitEdit[];
}

/** Where a view's line stands after the session's own commits since. */
export type Translated =
  | { line: number }
  | { gone: OwnCommit };

/**
 * The views of one file for one session, and the session's own commits of
 * it that any kept view predates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FileViews } from "./views.ts";
 * const v = new FileViews();
 * v.add(true, [{ start: 1, hashes: [1, 2, 3] }]);
 * v.commit([{ at: 1, deleteCount: 0, lines: ["x", "y"] }], "h_1");
 * assert.deepEqual(v.translate(v.views[0], 2), { line: 4 });
 * ```
 */
export class FileViews {
  /** Own commits made so far (numbers views' epochs). */
  epoch = 0;
  /** Kept views, oldest first. */
  views: View[] = [];
  /** Own commits newer than the oldest kept view. */
  commits: OwnCommit[] = [];
  /** Whether a view was ever dropped for the bound. */
  dropped = false;

  /** Adds a view of the file as it stands now (runs in its own numbering). */
  add(read: boolean, runs: readonly ViewRun[], settle = false): void {
    const kept = runs.filter((r) => r.hashes.length > 0).map((r) => ({
      start: r.start,
      hashes: Array.from(r.hashes),
    }));
    if (kept.length === 0) return;
    kept.sort((a, b) => a.start - b.start);
    if (settle) {
      this.views.push({
        read: false,
        settle: true,
        epoch: this.epoch,
        runs: kept,
      });
    } else {
      if (this.redundant(read, kept)) return;
      this.views.push({ read, epoch: this.epoch, runs: kept });
    }
    if (this.views.length > MAX_VIEWS) {
      this.views.splice(0, this.views.length - MAX_VIEWS);
      this.dropped = true;
      this.prune();
    }
  }

  /**
   * Whether a view would say nothing new: a view since the last own commit
   * (a read, for a read) already showed every one of its lines with the
   * same hash, and nothing shown since said otherwise (a re-read before an
   * edit).
   */
  private redundant(read: boolean, runs: readonly ViewRun[]): boolean {
    const same = (v: View): boolean =>
      runs.every((r) =>
        r.hashes.every((h, k) => this.hashIn(v, r.start + k) === h)
      );
    for (let i = this.views.length - 1; i >= 0; i--) {
      const v = this.views[i];
      if (v.epoch !== this.epoch) return false;
      if ((v.read || !read) && !v.settle && same(v)) return true;
      // A later view that shows one of these lines otherwise keeps it new.
      const differs = runs.some((r) =>
        r.hashes.some((h, k) => {
          const got = this.hashIn(v, r.start + k);
          return got !== undefined && got !== h;
        })
      );
      if (differs) return false;
    }
    return false;
  }

  /** Records one of the session's own commits of the file (its plan, against the file before it). */
  commit(plan: readonly PlannedEdit[], entry?: string): void {
    this.epoch++;
    const edits = [...plan]
      .sort((a, b) => a.at - b.at)
      .map((e) => ({
        at: e.at,
        deleteCount: e.deleteCount,
        added: e.lines.length,
      }));
    this.commits.push({
      epoch: this.epoch,
      ...(entry ? { entry } : {}),
      edits,
    });
    this.prune();
  }

  /**
   * Records another party's changes met by the session's next commit, as
   * edits in the numbering of the session's knowledge before them.
   */
  drift(edits: readonly CommitEdit[]): void {
    if (edits.length === 0) return;
    this.epoch++;
    this.commits.push({
      epoch: this.epoch,
      theirs: true,
      edits: edits.map((e) => ({ ...e })),
    });
    this.prune();
  }

  /** Forgets every view and commit (the file was replaced whole, or deleted). */
  clear(): void {
    this.views = [];
    this.commits = [];
  }

  /** The full hash of line n in a view, or undefined when the view did not show it. */
  hashIn(view: View, n: number): number | undefined {
    return hashInRuns(view.runs, n);
  }

  /**
   * The views that may have given line number n: those that showed it
   * since the newest read that showed it (all that showed it, when no read
   * did), oldest first.
   */
  candidates(n: number, bare = false): View[] {
    let from = 0;
    for (let i = this.views.length - 1; i >= 0; i--) {
      const v = this.views[i];
      if ((v.read || (v.settle && !bare)) && this.hashIn(v, n) !== undefined) {
        from = i;
        break;
      }
    }
    return this.views.slice(from).filter((v) =>
      this.hashIn(v, n) !== undefined && !(bare && v.settle)
    );
  }

  /** Where line n of a view stands after the own commits since that view. */
  translate(view: View, n: number): Translated {
    let line = n;
    for (const c of this.commits) {
      if (c.epoch <= view.epoch) continue;
      let shift = 0;
      for (const e of c.edits) {
        if (e.at + e.deleteCount <= line) {
          shift += e.added - e.deleteCount;
          continue;
        }
        if (e.at <= line) return { gone: c };
        break;
      }
      line += shift;
    }
    return { line };
  }

  /**
   * An independent copy. Views and commits are shared: neither is changed
   * once added (adding copies what it is given, and pruning builds new
   * lists), so a copy costs one per view, not one per line shown.
   */
  clone(): FileViews {
    const copy = new FileViews();
    copy.epoch = this.epoch;
    copy.dropped = this.dropped;
    copy.views = this.views.slice();
    copy.commits = this.commits.slice();
    return copy;
  }

  /** Drops the commits that every kept view already reflects. */
  private prune(): void {
    const oldest = this.views.length > 0 ? this.views[0].epoch : this.epoch;
    this.commits = this.commits.filter((c) => c.epoch > oldest);
  }

  /** The views and commits as 32-bit words (the read-record file's views section). */
  toWords(): number[] {
    const out: number[] = [
      this.epoch,
      this.dropped ? 1 : 0,
      this.commits.length,
    ];
    for (const c of this.commits) {
      out.push(
        c.epoch,
        c.theirs ? THEIRS : entryNumber(c.entry),
        c.edits.length,
      );
      for (const e of c.edits) out.push(e.at, e.deleteCount, e.added);
    }
    out.push(this.views.length);
    for (const v of this.views) {
      out.push(v.read ? 1 : v.settle ? 2 : 0, v.epoch, v.runs.length);
      for (const r of v.runs) {
        out.push(r.start, r.hashes.length);
        for (const h of r.hashes) out.push(h);
      }
    }
    return out;
  }

  /**
   * Rebuilds from {@link FileViews.toWords} output read from `word(at)`
   * onwards; null when the words run out or do not make sense.
   */
  static fromWords(
    word: (i: number) => number,
    at: number,
    end: number,
  ): { views: FileViews; at: number } | null {
    const take = (): number => (at < end ? word(at++) : NaN);
    const v = new FileViews();
    v.epoch = take();
    v.dropped = take() === 1;
    const nCommits = take();
    if (!(nCommits >= 0)) return null;
    for (let i = 0; i < nCommits; i++) {
      const epoch = take();
      const entry = take();
      const n = take();
      if (!(n >= 0) || at + 3 * n > end) return null;
      const edits: CommitEdit[] = [];
      for (let k = 0; k < n; k++) {
        edits.push({ at: take(), deleteCount: take(), added: take() });
      }
      v.commits.push({
        epoch,
        ...(entry === THEIRS
          ? { theirs: true }
          : entry > 0
          ? { entry: `h_${entry}` }
          : {}),
        edits,
      });
    }
    const nViews = take();
    if (!(nViews >= 0) || nViews > MAX_VIEWS) return null;
    for (let i = 0; i < nViews; i++) {
      const kind = take();
      const read = kind === 1;
      const epoch = take();
      const nRuns = take();
      if (!(nRuns >= 0)) return null;
      const runs: ViewRun[] = [];
      for (let r = 0; r < nRuns; r++) {
        const start = take();
        const n = take();
        if (!(start >= 1) || !(n >= 0) || at + n > end) return null;
        const hashes = new Array<number>(n);
        for (let k = 0; k < n; k++) hashes[k] = take();
        runs.push({ start, hashes });
      }
      if (!(epoch <= v.epoch)) return null;
      v.views.push({
        read,
        ...(kind === 2 ? { settle: true } : {}),
        epoch,
        runs,
      });
    }
    if (!Number.isSafeInteger(v.epoch)) return null;
    return { views: v, at };
  }
}

/**
 * The hash of line n in sorted, apart runs (a view's, a read record's), or
 * undefined when no run holds it.
 *
 * @param runs The runs, sorted by `start`.
 * @param n A line number.
 * @returns Its hash, or undefined.
 */
export function hashInRuns(
  runs: readonly ViewRun[],
  n: number,
): number | undefined {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = runs[mid];
    if (n < r.start) hi = mid - 1;
    else if (n >= r.start + r.hashes.length) lo = mid + 1;
    else return r.hashes[n - r.start];
  }
  return undefined;
}

/** The entry word of another party's changes in the record file. */
const THEIRS = 0xffff_ffff;

/** The number of an entry id `h_N` (0 for none, or one too large for a word). */
function entryNumber(entry: string | undefined): number {
  const n = entry === undefined ? 0 : Number(entry.slice(2));
  return Number.isSafeInteger(n) && n > 0 && n < THEIRS ? n : 0;
}
