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
import { FileViews, type ViewRun } from "../patch/views.ts";
import { settledBy } from "../patch/resolve_views.ts";
import { carryDrift } from "../patch/carry.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import { contentStamp } from "../records/stamp.ts";
import type { Problem, Shown } from "../patch/problems.ts";
import type { PlannedEdit } from "../patch/types.ts";
import type { Context } from "./_context.ts";
import type { Prepared } from "./_plan.ts";
import type { Target } from "../fs/confine.ts";
import { recordWarning } from "./_result_notes.ts";
import { pushAll } from "../_internal/arrays.ts";

/**
 * Saves a read record; a failure after a commit or a read (`done` says
 * which) is a warning, never an error.
 */
export async function remember(
  ctx: Context,
  session: string,
  real: string,
  mem: LineMemory,
  warnings?: string[],
  done = "The edit was written",
): Promise<void> {
  try {
    await ctx.records.put(session, real, mem);
  } catch (error) {
    if (!warnings) throw error;
    warnings.push(recordWarning(done, error));
  }
}

/**
 * Records a read window (lines `start..` with these hashes) of a file of
 * `totalLines` lines; a record that cannot be saved is a warning.
 */
export async function recordRead(
  ctx: Context,
  session: string,
  real: string,
  start: number,
  hashes: number[],
  totalLines: number,
  warnings: string[],
  stamp?: string,
  form?: "hash" | "lean",
): Promise<void> {
  const mem = (await ctx.records.get(session, real)) ?? new LineMemory();
  const runs = [{ start, hashes }];
  const stamped = stampCovers(mem, runs, totalLines, stamp);
  mem.see(start, hashes);
  // A read sees the file's length too: lines past it are gone.
  mem.forgetFrom(totalLines + 1);
  mem.lineCount = totalLines;
  mem.stamp = stamped;
  mem.form = form === "lean" ? "lean" : undefined;
  (mem.views ??= new FileViews()).add(true, runs);
  await remember(ctx, session, real, mem, warnings, "The file was read");
}

/**
 * The stamp a read may leave on a record (docs/reads.md#views-several-edits-from-one-read):
 * the file's stamp now only when every remembered line came from this read
 * or from a state of the file that still holds (the record's own stamp is
 * the file's stamp now). A window or outline read after the file changed
 * leaves older remembered lines at their old numbers, and those must go
 * through the drift alignment, so no stamp is left then.
 */
function stampCovers(
  mem: LineMemory,
  runs: readonly ViewRun[],
  totalLines: number,
  stamp: string | undefined,
): string | undefined {
  if (stamp === undefined || mem.stamp === stamp) return stamp;
  let shown = 0;
  for (const r of runs) shown += r.hashes.length;
  if (runs.length === 1 && runs[0].start === 1 && shown >= totalLines) {
    return stamp;
  }
  const inside = (n: number) =>
    runs.some((r) => n >= r.start && n < r.start + r.hashes.length);
  for (const [n] of mem.entries()) {
    if (n <= totalLines && !inside(n)) return undefined;
  }
  return stamp;
}

/** Records the lines an outline showed: runs of lines, each from its start. */
export async function recordRuns(
  ctx: Context,
  session: string,
  real: string,
  runs: readonly { start: number; hashes: number[] }[],
  totalLines: number,
  warnings: string[],
  form?: "hash" | "lean",
  stamp?: string,
): Promise<void> {
  const mem = (await ctx.records.get(session, real)) ?? new LineMemory();
  const stamped = stampCovers(mem, runs, totalLines, stamp);
  for (const run of runs) mem.see(run.start, run.hashes);
  mem.forgetFrom(totalLines + 1);
  mem.lineCount = totalLines;
  mem.stamp = stamped;
  (mem.views ??= new FileViews()).add(true, runs);
  // Results and refusals show lines in the form this read used.
  mem.form = form === "lean" ? "lean" : undefined;
  await remember(ctx, session, real, mem, warnings, "The file was read");
}

/** Records a file seen whole (a whole read, or a whole write) as these lines. */
export async function recordWhole(
  ctx: Context,
  session: string,
  real: string,
  lines: readonly string[],
  warnings?: string[],
  done?: string,
  stamp?: string,
): Promise<void> {
  const mem = new LineMemory();
  const hashes = lines.map(lineHash32);
  mem.see(1, hashes);
  mem.lineCount = lines.length;
  mem.stamp = stamp;
  // Seen whole: this one view supersedes every number shown before.
  mem.views = new FileViews();
  mem.views.add(true, [{ start: 1, hashes }]);
  await remember(ctx, session, real, mem, warnings, done);
}

/**
 * Records a commit: every remembered line moves to where it now stands,
 * the fresh anchors shown count as read, and the lines replaced one for
 * one are kept (to catch an anchor from the read before this commit).
 */
export async function recordCommit(
  ctx: Context,
  session: string,
  prepared: readonly Prepared[],
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
  ctx: Context,
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
