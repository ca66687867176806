/**
 * The session's read memory (docs/patch-format.md#validation): the full
 * 32-bit hash of every line a session was shown, by line, as the rules of
 * this folder read it.
 *
 * @module
 */
import type { PlannedEdit, ReadMemory } from "./types.ts";
import { type FileViews, hashInRuns } from "./views.ts";

interface Run {
  start: number;
  hashes: number[];
}

/**
 * Remembered full hashes of one file's lines, kept as sorted runs of
 * consecutive lines: the one read memory of a session.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LineMemory } from "./memory.ts";
 * const mem = new LineMemory();
 * mem.see(3, [7, 8]);
 * assert.equal(mem.hash32(4), 8);
 * assert.equal(mem.hash32(2), undefined);
 * ```
 */
export class LineMemory implements ReadMemory {
  private runs: Run[];
  /** Lines the file had when last seen whole-length (a read or a commit), if known. */
  lineCount?: number;
  /**
   * The file's size and content hash at the session's last read or commit
   * of it (`SIZE:HEX`), when known: a file that still has it needs no drift
   * alignment.
   */
  stamp?: string;
  /** How the session last read the file: `"lean"` (`LINE|content`) or `"hash"`. */
  form?: "hash" | "lean";
  /**
   * For lines this session's last commit of the file replaced: the full
   * hash of the line each replaced (kept in memory only). A later anchor of
   * such a line whose short hash matches the replaced line too may have been
   * built from the read before that commit.
   */
  replaced?: Map<number, number>;
  /**
   * Lines a refusal showed with fresh anchors since they were read: they
   * count as seen (`hash32` answers with them) without erasing what was
   * read there (`read32`), so a rebase still finds the region as first read.
   */
  private shown?: LineMemory;
  /**
   * Everything the session was shown of the file, each with its own
   * numbering, and its own commits since (docs/reads.md#views-several-edits-from-one-read):
   * anchors are resolved through these before the rules judge them.
   */
  views?: FileViews;
  /**
   * Anchors judged against this copy are already in the file's numbering
   * now (a dialect's hunks, located in what the session knows of the file
   * now), so they are not resolved through the views again. Never saved.
   */
  numbersNow?: boolean;

  /**
   * Creates the memory of one file's reads.
   *
   * @param runs Sorted, non-overlapping runs.
   */
  constructor(runs: Run[] = []) {
    this.runs = runs;
  }

  /** The remembered hash of line n as last shown, or undefined. */
  hash32(n: number): number | undefined {
    if (this.shown !== undefined) {
      const h = this.shown.hash32(n);
      if (h !== undefined) return h;
    }
    return this.readHash(n);
  }

  /** The hash of line n as read (before any refusal showed it again), or undefined. */
  read32(n: number): number | undefined {
    const read = this.readHash(n);
    if (read !== undefined) return read;
    // A line past the end of the file as read was no part of that read.
    if (this.lineCount !== undefined && n > this.lineCount) return undefined;
    return this.shown?.hash32(n);
  }

  /** The hash of line n as read, from the runs alone. */
  private readHash(n: number): number | undefined {
    return hashInRuns(this.runs, n);
  }

  /**
   * An independent copy (a patch judges against the record as it stood when
   * it was sent). The runs are shared: a run is never changed once placed
   * (every change builds new runs), so a copy costs one per run, not one per
   * line.
   */
  clone(): LineMemory {
    const copy = new LineMemory(this.runs.slice());
    copy.lineCount = this.lineCount;
    copy.stamp = this.stamp;
    copy.form = this.form;
    if (this.replaced) copy.replaced = new Map(this.replaced);
    if (this.shown) copy.shown = this.shown.clone();
    if (this.views) copy.views = this.views.clone();
    return copy;
  }

  /** Number of lines remembered. */
  get size(): number {
    let n = 0;
    for (const r of this.merged().runs) n += r.hashes.length;
    return n;
  }

  /**
   * Remembers lines start.. as a refusal showed them: they count as seen,
   * and what was read of them before is kept for rebase.
   */
  show(start: number, hashes: ArrayLike<number>): void {
    (this.shown ??= new LineMemory()).see(start, hashes);
  }

  /** What was read, with what refusals showed since laid over it. */
  private merged(): LineMemory {
    if (!this.shown) return this;
    const out = new LineMemory(
      this.runs.map((r) => ({ start: r.start, hashes: r.hashes.slice() })),
    );
    for (const r of this.shown.runs) out.see(r.start, r.hashes);
    return out;
  }

  /** The runs as read, and the runs refusals showed since (for the record file). */
  layers(): { read: [number, number[]][]; shown: [number, number[]][] } {
    return {
      read: this.runs.map((r) => [r.start, r.hashes]),
      shown: this.shown ? this.shown.toJSON() : [],
    };
  }

  /** Forgets every line from n on (the file now has n - 1 lines). */
  forgetFrom(n: number): void {
    this.shown?.forgetFrom(n);
    const out: Run[] = [];
    for (const r of this.runs) {
      if (r.start >= n) break;
      out.push(
        r.start + r.hashes.length > n
          ? { start: r.start, hashes: r.hashes.slice(0, n - r.start) }
          : r,
      );
    }
    this.runs = out;
  }

  /** Remembers lines start.. with these hashes, replacing what was known of them. */
  see(start: number, hashes: ArrayLike<number>): void {
    if (hashes.length === 0) return;
    const end = start + hashes.length;
    if (this.shown) {
      // A read shows these lines as they are: no older showing stands over them.
      this.shown.cut(start, end);
      if (this.shown.runs.length === 0) this.shown = undefined;
    }
    const out: Run[] = [];
    const fresh: Run = { start, hashes: Array.from(hashes) };
    let placed = false;
    for (const r of this.runs) {
      const rEnd = r.start + r.hashes.length;
      if (rEnd <= start) {
        out.push(r);
        continue;
      }
      if (r.start >= end) {
        if (!placed) out.push(fresh), placed = true;
        out.push(r);
        continue;
      }
      if (r.start < start) {
        out.push({
          start: r.start,
          hashes: r.hashes.slice(0, start - r.start),
        });
      }
      if (!placed) out.push(fresh), placed = true;
      if (rEnd > end) {
        out.push({ start: end, hashes: r.hashes.slice(end - r.start) });
      }
    }
    if (!placed) out.push(fresh);
    this.runs = coalesce(out);
  }

  /**
   * Moves every remembered line to where it stands after the planned edits;
   * lines the edits removed are forgotten.
   */
  remap(plan: readonly PlannedEdit[]): void {
    if (this.shown) {
      this.runs = this.merged().runs;
      this.shown = undefined;
    }
    const edits = [...plan].sort((a, b) => a.at - b.at);
    if (this.lineCount !== undefined) {
      for (const e of edits) this.lineCount += e.lines.length - e.deleteCount;
    }
    const out: Run[] = [];
    let j = 0;
    let shift = 0;
    for (const r of this.runs) {
      for (let i = 0; i < r.hashes.length; i++) {
        const n = r.start + i;
        while (j < edits.length && edits[j].at + edits[j].deleteCount <= n) {
          shift += edits[j].lines.length - edits[j].deleteCount;
          j++;
        }
        if (j < edits.length && edits[j].at <= n) continue;
        const m = n + shift;
        const last = out[out.length - 1];
        if (last && last.start + last.hashes.length === m) {
          last.hashes.push(r.hashes[i]);
        } else out.push({ start: m, hashes: [r.hashes[i]] });
      }
    }
    this.runs = out;
  }

  /**
   * Moves every remembered line to the number `place` gives it (another
   * party's changes, as the drift alignment placed them); a line it gives
   * no number, or a number already taken, is forgotten.
   */
  relocate(place: (n: number) => number | undefined): void {
    const moved = new Map<number, number>();
    for (const r of this.merged().runs) {
      for (let i = 0; i < r.hashes.length; i++) {
        const to = place(r.start + i);
        if (to !== undefined && !moved.has(to)) moved.set(to, r.hashes[i]);
      }
    }
    this.runs = memoryFromHashes(moved).runs;
    this.shown = undefined;
  }

  /** Forgets lines `from` to `to - 1`. */
  private cut(from: number, to: number): void {
    const out: Run[] = [];
    for (const r of this.runs) {
      const rEnd = r.start + r.hashes.length;
      if (rEnd <= from || r.start >= to) {
        out.push(r);
        continue;
      }
      if (r.start < from) {
        out.push({ start: r.start, hashes: r.hashes.slice(0, from - r.start) });
      }
      if (rEnd > to) {
        out.push({ start: to, hashes: r.hashes.slice(to - r.start) });
      }
    }
    this.runs = out;
  }

  /** Every remembered line as `[line, hash]` (as last shown), in line order. */
  *entries(): Generator<[number, number]> {
    for (const r of this.merged().runs) {
      for (let i = 0; i < r.hashes.length; i++) {
        yield [r.start + i, r.hashes[i]];
      }
    }
  }

  /**
   * Every remembered line as `[line, hash]` as first read (lines only a
   * refusal showed fill the gaps), in line order.
   */
  *readEntries(): Generator<[number, number]> {
    if (!this.shown) {
      yield* this.entries();
      return;
    }
    // Lines past the end of the file as read were no part of that read.
    const end = this.lineCount ?? Infinity;
    const out = new LineMemory(
      this.shown.runs.filter((r) => r.start <= end).map((r) => ({
        start: r.start,
        hashes: r.hashes.slice(0, Math.max(0, end - r.start + 1)),
      })),
    );
    for (const r of this.runs) out.see(r.start, r.hashes);
    yield* out.entries();
  }

  /** The runs (as last shown) as JSON-ready pairs `[start, hashes]`. */
  toJSON(): [number, number[]][] {
    return this.merged().runs.map((r) => [r.start, r.hashes]);
  }

  /** Rebuilds from {@link LineMemory.toJSON} output, dropping anything malformed. */
  static fromJSON(value: unknown): LineMemory {
    const runs: Run[] = [];
    if (Array.isArray(value)) {
      for (const item of value) {
        if (
          Array.isArray(item) && Number.isSafeInteger(item[0]) &&
          item[0] >= 1 &&
          Array.isArray(item[1])
        ) {
          runs.push({
            start: item[0],
            hashes: item[1].map((h: unknown) => Number(h) >>> 0),
          });
        }
      }
    }
    runs.sort((a, b) => a.start - b.start);
    const mem = new LineMemory();
    for (const r of runs) mem.see(r.start, r.hashes);
    return mem;
  }

  /** Rebuilds from {@link LineMemory.layers} output, dropping anything malformed. */
  static fromLayers(read: unknown, shown: unknown): LineMemory {
    const mem = LineMemory.fromJSON(read);
    const over = LineMemory.fromJSON(shown);
    if (over.runs.length > 0) mem.shown = over;
    return mem;
  }
}

function coalesce(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    if (r.hashes.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.start + last.hashes.length === r.start) {
      for (const h of r.hashes) last.hashes.push(h);
    } else out.push({ start: r.start, hashes: r.hashes.slice() });
  }
  return out;
}

/**
 * A {@link LineMemory} from remembered full hashes: an array (index 0 is
 * line 1; holes mean "not seen") or a map from line number to hash.
 *
 * @param hashes Full 32-bit hashes by line.
 * @returns The read record.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../hash/fnv.ts";
 * import { memoryFromHashes } from "./memory.ts";
 * const memory = memoryFromHashes(["a", "b"].map(lineHash32));
 * assert.equal(memory.hash32(2), lineHash32("b"));
 * assert.equal(memory.hash32(3), undefined);
 * assert.equal(memoryFromHashes(new Map([[7, 1]])).hash32(7), 1);
 * ```
 */
export function memoryFromHashes(
  hashes: ReadonlyMap<number, number> | ArrayLike<number | undefined>,
): LineMemory {
  const runs: Run[] = [];
  const put = (n: number, h: number): void => {
    const last = runs[runs.length - 1];
    if (last && last.start + last.hashes.length === n) last.hashes.push(h);
    else runs.push({ start: n, hashes: [h] });
  };
  if (hashes instanceof Map) {
    const lines = [...(hashes as ReadonlyMap<number, number>)]
      .filter(([n]) => Number.isSafeInteger(n) && n >= 1)
      .sort((a, b) => a[0] - b[0]);
    for (const [n, h] of lines) put(n, h);
  } else {
    const list = hashes as ArrayLike<number | undefined>;
    for (let i = 0; i < list.length; i++) {
      const h = list[i];
      if (h !== undefined) put(i + 1, h);
    }
  }
  return new LineMemory(runs);
}
