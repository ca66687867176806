/**
 * The one write transaction (docs/workspace.md "Writing"): every change to
 * disk — a line patch, a patch with file operations, a whole-file write or
 * create, an undo — walks its steps here and nowhere else, in this order:
 * options and session checked → the planner resolves (confines) the paths
 * it touches → their locks taken (none for a dry run), released on every
 * path → the planner loads and plans → problems recorded and thrown, or
 * the syntax gate (docs/syntax-checks.md: under `refuse` before anything
 * is staged, else beside the commit's flushes) → commit with its history
 * entry (`src/commit/commit.ts`) → what the session now knows recorded →
 * the answer.
 * A kind of write adds a {@link Planner}, never a second pipeline.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import type { CheckInput, CheckMode, GateOutcome } from "../check/mod.ts";
import type { SyntaxCheck } from "../check/mod.ts";
import type { Target } from "../fs/confine.ts";
import { type Problem, refusal } from "../patch/problems.ts";
import {
  commitFiles,
  commitsFlushed,
  type StageEntry,
} from "../commit/commit.ts";
import type { Context } from "./_context.ts";
import { type EntryPlan, recordOf } from "./_history.ts";
import { lockTargets } from "./_locking.ts";
import { start } from "../history/settle.ts";
import { recordRefusal } from "../records/update.ts";

/** What every write is called with, once checked. */
export interface WriteCall {
  /** The session the write is judged for and recorded to. */
  session: string;
  /** Plan and answer, writing nothing and changing no state. */
  dryRun: boolean;
  /** This call's syntax check mode (default: the workspace's). */
  check?: CheckMode;
}

/** A plan refused: nothing is written. */
export interface Refused {
  /** Every problem found, across every file. */
  problems: Problem[];
  /** The files whose lines the problems show; those lines count as read. */
  shown: readonly Target[];
}

/** What the transaction hands a plan's answer: the warnings (the check's, the workspace's notices, the plan's notes, record failures), the checks and the entry's id. */
export interface Outcome {
  warnings: string[];
  checks: SyntaxCheck[];
  entry?: string;
}

/** A plan ready to commit, and how to record and answer it. */
export interface Ready<R> {
  /** The files before and after, for the syntax gate. */
  checks: CheckInput[];
  /** The files to commit, all or none (empty: nothing changes). */
  stage: StageEntry[];
  /** Builds the history entry committed with `stage` (only when it commits). */
  entry?(): EntryPlan | Promise<EntryPlan>;
  /** Folders to remove when empty once the commit landed. */
  tidy?: string[];
  /** Notes for the result after the check's and the workspace's warnings. */
  notes?: string[];
  /** Records what the session now knows (not on a dry run); a failure is a warning in `warnings`. */
  record(warnings: string[], entry?: string): Promise<void>;
  /** The call's result. */
  answer(out: Outcome): R;
}

/** One kind of write: which files it touches, and how loaded files become a plan. */
export interface Planner<R> {
  /**
   * Resolves every path the write touches (before any lock) and returns
   * the files to lock.
   */
  resolve(call: WriteCall): Promise<readonly Target[]>;
  /**
   * With the locks held, loads the files and plans the write: problems
   * (returned, or thrown as a `PatchRefusedError` when none of them shows
   * lines) or a plan.
   */
  plan(call: WriteCall): Promise<Refused | Ready<R>>;
}

/**
 * Checks a write's options and session.
 *
 * @param what The verb of the error messages (`patch`, `write`, `undo`).
 * @throws {TypeError} When the options are not an object, or the session or check mode is malformed.
 */
export function writeCall(
  ctx: Context,
  what: string,
  options: unknown,
): WriteCall {
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      `Cannot ${what}: options must be an object such as { session: "s1" }.`,
    );
  }
  const o = options as { session?: unknown; dryRun?: unknown; check?: unknown };
  const session = checkSession(o.session ?? ctx.session);
  // A malformed mode is refused before any lock is taken.
  ctx.syntax.mayRefuse(o.check);
  return {
    session,
    dryRun: o.dryRun === true,
    ...(o.check !== undefined ? { check: o.check as CheckMode } : {}),
  };
}

/**
 * Runs one write through the transaction: resolve → lock → plan → refusal
 * or check → commit with its entry → record → answer, releasing the locks
 * on every path.
 *
 * @throws {PatchRefusedError} Listing every problem; nothing written.
 */
export async function runWrite<R>(
  ctx: Context,
  what: string,
  options: unknown,
  planner: Planner<R>,
): Promise<R> {
  await start(ctx);
  const call = writeCall(ctx, what, options);
  const targets = await planner.resolve(call);
  const release = call.dryRun ? () => {} : await lockTargets(ctx, targets);
  let tidied = () => {};
  try {
    const planned = await planner.plan(call);
    if ("problems" in planned) {
      // A dry run changes no state at all, not even the read record.
      if (!call.dryRun) {
        await recordRefusal(ctx, call.session, planned.shown, planned.problems);
      }
      throw refusal(planned.problems);
    }
    const commits = !call.dryRun && planned.stage.length > 0;
    let syntax: GateOutcome = { checks: [], warnings: [] };
    const gate = async () => {
      syntax = await ctx.syntax.run(planned.checks, call.check);
    };
    // A check that cannot refuse runs while the commit's writes flush.
    const beside = commits && !ctx.syntax.mayRefuse(call.check);
    if (!beside) await gate();
    let entry: string | undefined;
    if (commits) {
      const e = await planned.entry?.();
      const record = e && await recordOf(ctx, call.session, e);
      tidied = await commitFiles(
        ctx.stateDir,
        ctx.conf,
        planned.stage,
        ctx.hooks,
        record,
        beside ? gate : undefined,
        planned.tidy,
      );
      entry = record?.id;
    }
    const warnings = [
      ...syntax.warnings,
      ...ctx.takeNotices(),
      ...(planned.notes ?? []),
    ];
    if (!call.dryRun) await planned.record(warnings, entry);
    return planned.answer({ warnings, checks: syntax.checks, entry });
  } finally {
    try {
      // The entry's and the folders' flushes, started at the renames, end
      // before the locks go: a lock file removed during a flush waits
      // behind it (docs/workspace.md "Writing").
      if (!call.dryRun) {
        await Promise.all([(await ctx.log())?.settled(), commitsFlushed()]);
      }
    } finally {
      release();
    }
    tidied();
  }
}
