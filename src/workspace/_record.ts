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
import { contentStamp } from "../records/stamp.ts";
import type { Problem, Shown } from "../patch/problems.ts";
import type { PlannedEdit } from "../patch/types.ts";
import type { Context } from "./_context.ts";
import type { Prepared } from "./_plan.ts";
import type { Group } from "./_resolve.ts";
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
  mem.see(start, hashes);
  // A read sees the file's length too: lines past it are gone.
  mem.forgetFrom(totalLines + 1);
  mem.lineCount = totalLines;
  mem.stamp = stamp;
  mem.form = form === "lean" ? "lean" : undefined;
  await remember(ctx, session, real, mem, warnings, "The file was read");
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
  for (const run of runs) mem.see(run.start, run.hashes);
  mem.forgetFrom(totalLines + 1);
  mem.lineCount = totalLines;
  mem.stamp = stamp;
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
  mem.see(1, lines.map(lineHash32));
  mem.lineCount = lines.length;
  mem.stamp = stamp;
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
): Promise<void> {
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i];
    const mem = (await ctx.records.get(session, p.target.real)) ??
      new LineMemory();
    mem.remap(p.plan);
    for (const w of shown[i]) mem.see(w.start, w.hashes);
    mem.replaced = replacedLines(p.plan, p.oldLine);
    mem.stamp = p.bytes ? await contentStamp(p.bytes) : undefined;
    await remember(ctx, session, p.target.real, mem, warnings);
  }
}

/**
 * The lines a refusal shows count as read, so a resend built from them
 * passes; what the session read before is kept beside them.
 */
export async function recordRefusal(
  ctx: Context,
  session: string,
  groups: readonly Group[],
  problems: Problem[],
): Promise<void> {
  const byDisplay = new Map(groups.map((g) => [g.target.display, g.target]));
  const seen = new Map<string, { start: number; hashes: number[] }[]>();
  for (const p of problems) {
    const shown = p.shown;
    const target = p.path ? byDisplay.get(p.path) : undefined;
    if (!shown || !target) continue;
    const list = seen.get(target.real) ?? [];
    pushAll(list, shown);
    seen.set(target.real, list);
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
