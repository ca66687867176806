/**
 * Planning (docs/patch-format.md#validation): the one pass that judges a
 * file's ops — rebase where asked, every rule of `validateOps`, ambiguous
 * anchors — and, when nothing is refused, turns them into the sorted edits
 * that are applied. A patch is planned once.
 *
 * @module
 */
import { ambiguousAnchors } from "./ambiguous.ts";
import { editOf } from "./ops.ts";
import { notRead, type Problem } from "./problems.ts";
import { gapProblems, rebaseOps } from "./rebase.ts";
import { placeRecord, regionLines } from "./_drift.ts";
import { resolveBare } from "./_bare.ts";
import type { LineLookup, PatchOp, PlannedEdit, ReadMemory } from "./types.ts";
import { validateOps } from "./validate.ts";
import { pushAll } from "../_internal/arrays.ts";

/** Options of {@link planPatch}. */
export interface PlanOptions {
  /** The session's read record of the file. */
  memory?: ReadMemory;
  /** Named in problems and rebase notes. */
  path?: string;
  /** Re-address ops whose lines only moved (needs `memory`). */
  rebase?: boolean;
  /** Lines the session's last commit replaced one for one, with the hash each replaced. */
  replaced?: ReadonlyMap<number, number>;
  /**
   * The file is known unchanged since the session's last read or commit of
   * it (same size and content hash): its remembered lines stand at their own
   * numbers, with no alignment.
   */
  unchanged?: boolean;
  /**
   * Show fresh lines in problems as `LINE|content` and refuse pasted
   * `N|` prefixes (the session last read the file in the lean form).
   * Default: `memory.form === "lean"`.
   */
  lean?: boolean;
}

/** The verdict on one file's ops. */
export interface FilePlan {
  /** The ops as applied (re-addressed where `rebased` says so). */
  ops: PatchOp[];
  /** The sorted edits (empty when refused). */
  plan: PlannedEdit[];
  /** One note per re-addressed op, such as `op 2: lines 40–42 → 43–45`. */
  rebased: string[];
  /** Every problem; the ops may be applied only when there are none. */
  problems: Problem[];
}

/**
 * Judges one file's ops against the file as it is now and plans them.
 *
 * @param now The file as it is now.
 * @param ops The ops, addressed against the file as read.
 * @param options `memory`, `path`, `rebase` and `replaced`.
 * @returns The ops as applied, the plan, rebase notes and every problem.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookupFromLines } from "./lookup.ts";
 * import { planPatch } from "./plan.ts";
 * const out = planPatch(lookupFromLines(["a", "b"]), [{ op: "delete", start: "2:23" }]);
 * assert.deepEqual(out.plan, [{ at: 2, deleteCount: 1, lines: [] }]);
 * assert.deepEqual(out.problems, []);
 * ```
 */
export function planPatch(
  now: LineLookup,
  ops: PatchOp[],
  options: PlanOptions = {},
): FilePlan {
  const bare = resolveBare(
    ops,
    options.memory,
    options.path,
    () => now.lineCount,
  );
  let checked = bare.ops;
  let memory = options.memory;
  const lean = options.lean ?? memory?.form === "lean";
  let rebased: string[] = [];
  let placedOps: ReadonlySet<number> | undefined;
  let gaps: Problem[] = [];
  let skip: ReadonlySet<number> = bare.skip;
  const place = memory
    ? placeRecord(
      now,
      memory,
      regionLines(checked, memory),
      options.unchanged === true,
    )
    : undefined;
  if (options.rebase === true && memory) {
    const moved = rebaseOps(checked, now, memory, { place });
    [checked, memory, rebased] = [moved.ops, moved.memory, moved.notes];
    placedOps = moved.placed;
    // An insert whose gap changed is refused here, saying why it stayed.
    if (moved.conflicts.length > 0) {
      gaps = gapProblems(moved.conflicts, checked, now, {
        path: options.path,
        lean,
      });
      skip = new Set([...skip, ...moved.conflicts.map((c) => c.index)]);
    }
  }
  const problems = [
    ...bare.problems,
    ...gaps,
    ...validateOps(checked, now, {
      memory,
      path: options.path,
      place,
      placedOps,
      skip,
      lean,
      read: options.memory,
    }),
  ];
  if (problems.length === 0) {
    pushAll(
      problems,
      ambiguousAnchors(checked, options.replaced, now, options.path),
    );
  }
  const plan = problems.length > 0
    ? []
    : planEdits(checked, () => now.lineCount);
  return { ops: checked, plan, rebased, problems };
}

/**
 * The read-before-edit rule: an existing file the session has not read is refused.
 *
 * @param memory The session's read record of the file, if any.
 * @param path The file, as shown to the model.
 * @param then What to do after reading it.
 * @returns `NOT_READ`, or nothing.
 */
export function readFirst(
  memory: ReadMemory | undefined,
  path: string,
  then = "resend the patch with anchors from that read",
): Problem[] {
  return memory ? [] : [notRead(path, then)];
}

/**
 * Turns validated ops into sorted edits (see {@link PlannedEdit}). Inserts
 * into the same gap (`insert_after L` and `insert_before L+1`, or `append`
 * and `prepend` on an empty file) keep the order of their ops; a replace with
 * `lines: []` deletes.
 *
 * @param ops Ops that passed `validateOps`.
 * @param lineCount Number of lines in the file now.
 * @returns Edits sorted by `at`; at one `at`, inserts first, then op order.
 * @throws {SyntaxError} When an anchor does not parse (validate first).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planOps } from "./plan.ts";
 * assert.deepEqual(planOps([
 *   { op: "replace", start: "2:23", lines: ["B"] },
 *   { op: "insert_after", anchor: "1:ed", lines: ["x"] },
 *   { op: "append", lines: ["z"] },
 * ], 3), [
 *   { at: 2, deleteCount: 0, lines: ["x"] },
 *   { at: 2, deleteCount: 1, lines: ["B"] },
 *   { at: 4, deleteCount: 0, lines: ["z"] },
 * ]);
 * ```
 */
export function planOps(ops: PatchOp[], lineCount: number): PlannedEdit[] {
  return planEdits(ops, () => lineCount);
}

/**
 * {@link planOps} asking for the line count only when an op appends, so
 * content indexed lazily is not counted to the end for an edit at the top.
 */
export function planEdits(
  ops: PatchOp[],
  lineCount: () => number,
): PlannedEdit[] {
  const edits = ops.map((op, index) => ({
    index,
    edit: editOf(op, lineCount),
  }));
  edits.sort((a, b) =>
    a.edit.at - b.edit.at ||
    Number(a.edit.deleteCount > 0) - Number(b.edit.deleteCount > 0) ||
    a.index - b.index
  );
  return edits.map((e) => e.edit);
}
