/**
 * Recording what a read showed (docs/reads.md): the lines of a window, an
 * outline or a whole file, kept in the session's read record. Apart from
 * the recording of commits and refusals (`update.ts`), so a read does not
 * load the drift alignment and the view resolution those need
 * (tests/cli/read_loads.test.ts).
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import { LineMemory } from "../patch/memory.ts";
import { FileViews, type ViewRun } from "../patch/views.ts";
import type { SessionRecords } from "./records.ts";
import { recordWarning } from "../result/notes.ts";

/** What recording needs of a workspace: the sessions' read records. */
export interface RecordScope {
  /** The read records, per session and real path. */
  readonly records: SessionRecords;
}

/**
 * Saves a read record; a failure after a commit or a read (`done` says
 * which) is a warning, never an error.
 */
export async function remember(
  ctx: RecordScope,
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
  ctx: RecordScope,
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

/** Lines a read showed in runs (an outline, or search hits), as {@link recordRuns} records them. */
export interface ShownRuns {
  /** Runs of line hashes, each from its start line. */
  runs: readonly { start: number; hashes: number[] }[];
  /** The file's line count when read. */
  totalLines: number;
  /** The form the read used. */
  form?: "hash" | "lean";
  /** The file's content stamp when read (see `contentStamp`). */
  stamp?: string;
}

/** Records the lines an outline or a search showed: runs of lines, each from its start. */
export async function recordRuns(
  ctx: RecordScope,
  session: string,
  real: string,
  { runs, totalLines, form, stamp }: ShownRuns,
  warnings: string[],
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
  ctx: RecordScope,
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
