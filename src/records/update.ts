/**
 * Recording (docs/patch-format.md#validation, "Result"): what a session has
 * seen of each file — after a read, a commit or a refusal — kept in its
 * read record. A failure to save it after a commit is a warning, never an
 * error: the commit stands.
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import { LineMemory } from "../patch/memory.ts";
import { FileViews } from "../patch/views.ts";
import { settledBy } from "../patch/resolve_views.ts";
import { carryDrift } from "../patch/carry.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import { contentStamp } from "./stamp.ts";
import type { Problem, Shown } from "../patch/problems.ts";
import type { PlannedEdit } from "../patch/types.ts";
import type { Target } from "../fs/confine.ts";
import { pushAll } from "../_internal/arrays.ts";
import { type RecordScope, remember } from "./shown.ts";

export {
  recordRead,
  recordRuns,
  type RecordScope,
  recordWhole,
  remember,
  type ShownRuns,
} from "./shown.ts";

/** A file as a commit planned it: what its record is moved by. */
export interface CommittedFile {
  /** The file. */
  target: Target;
  /** The sorted edits. */
  plan: PlannedEdit[];
  /** Lines the file had. */
  oldCount: number;
  /** Old line n, where it was loaded. */
  oldLine(n: number): string | undefined;
  /** The file was not as the session last knew it, judged while planning. */
  drifted?: boolean;
  /** The whole new content, when held in memory. */
  bytes?: Uint8Array;
}

/**
 * Records a commit: every remembered line moves to where it now stands,
 * the fresh anchors shown count as read, and the lines replaced one for
 * one are kept (to catch an anchor from the read before this commit).
 */
export async function recordCommit(
  ctx: RecordScope,
  session: string,
  prepared: readonly CommittedFile[],
  shown: readonly Shown[][],
  warnings: string[],
  entry?: string,
): Promise<void> {
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i];
    const mem = (await ctx.records.get(session, p.target.real)) ??
      new LineMemory();
    // Another party's lines met by this commit: the record is carried to
    // the file as it stood first (docs/reads.md#views-several-edits-from-one-read).
    if (p.drifted === true) {
      carryDrift(
        mem,
        lookupFromLines(
          Array.from({ length: p.oldCount }, (_, k) => p.oldLine(k + 1) ?? ""),
        ),
      );
    }
    noteOwnCommit(mem, p.plan, shown[i], entry);
    mem.replaced = replacedLines(p.plan, p.oldLine);
    mem.stamp = p.bytes ? await contentStamp(p.bytes) : undefined;
    await remember(ctx, session, p.target.real, mem, warnings);
  }
}

/**
 * What a session knows of a file after its own commit of it: every
 * remembered line moves to where the commit put it, the lines the result
 * showed count as shown (a view of their own), and the commit is kept so
 * that the numbers of earlier views translate exactly
 * (docs/reads.md#views-several-edits-from-one-read).
 *
 * @param mem The record (changed in place).
 * @param plan The commit's edits, against the file before it.
 * @param shown The runs the result showed, in the numbering after it.
 * @param entry The commit's history entry, when kept.
 */
export function noteOwnCommit(
  mem: LineMemory,
  plan: readonly PlannedEdit[],
  shown: readonly Shown[],
  entry?: string,
): void {
  const had = mem.size > 0 || mem.views !== undefined;
  mem.remap(plan);
  for (const w of shown) mem.see(w.start, w.hashes);
  if (mem.views) mem.views.commit(plan, entry);
  else if (!had) mem.views = new FileViews();
  mem.views?.add(false, shown);
}

/**
 * The lines a refusal shows count as read, so a resend built from them
 * passes; what the session read before is kept beside them.
 */
export async function recordRefusal(
  ctx: RecordScope,
  session: string,
  targets: readonly Target[],
  problems: Problem[],
): Promise<void> {
  const byDisplay = new Map(targets.map((t) => [t.display, t]));
  const seen = new Map<string, { start: number; hashes: number[] }[]>();
  const settled = new Map<string, { start: number; hashes: number[] }[]>();
  for (const p of problems) {
    const shown = p.shown;
    const target = p.path ? byDisplay.get(p.path) : undefined;
    if (!shown || !target) continue;
    const list = seen.get(target.real) ?? [];
    pushAll(list, shown);
    seen.set(target.real, list);
    const settles = settledBy(p);
    if (settles) {
      settled.set(target.real, [
        ...(settled.get(target.real) ?? []),
        ...settles,
      ]);
    }
  }
  for (const [real, windows] of seen) {
    const mem = (await ctx.records.get(session, real)) ?? new LineMemory();
    for (const w of windows) {
      // Added to what the session read, never in place of it: a rebase of
      // the same patch still finds the region as first read.
      mem.show(w.start, w.hashes);
      // The model has now been shown these lines as they are.
      for (let k = 0; k < w.hashes.length; k++) {
        mem.replaced?.delete(w.start + k);
      }
    }
    mem.views?.add(false, windows);
    const settles = settled.get(real);
    if (settles) mem.views?.add(false, settles, true);
    await remember(ctx, session, real, mem, []);
  }
}

/**
 * For each line a commit replaced one for one, where it now stands and the
 * full hash of the line it replaced.
 */
function replacedLines(
  plan: readonly PlannedEdit[],
  oldLine: (n: number) => string | undefined,
): Map<number, number> {
  const out = new Map<number, number>();
  let shift = 0;
  for (const e of [...plan].sort((a, b) => a.at - b.at)) {
    const pairs = Math.min(e.deleteCount, e.lines.length);
    for (let k = 0; k < pairs; k++) {
      const old = oldLine(e.at + k);
      if (old !== undefined) out.set(e.at + shift + k, lineHash32(old));
    }
    shift += e.lines.length - e.deleteCount;
  }
  return out;
}
