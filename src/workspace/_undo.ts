/**
 * Undo (DESIGN.md §10): one history entry reverted as one all-or-nothing
 * commit, itself an entry. Resolve → lock → load each file → plan the
 * revert (`history/undo.ts`: every line the entry wrote must still stand as
 * written, else `MOVED_ON`) → commit with its entry.
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { TooLargeError } from "../errors.ts";
import {
  type EntryDetail,
  planUndo,
  renderDiff,
  sha256Hex,
  type UndoOptions,
  type UndoResult,
  type UndoStep,
} from "../history/mod.ts";
import { type Problem, refusal } from "../patch/problems.ts";
import { commitFiles, type StageEntry } from "./_commit.ts";
import type { Target } from "../fs/confine.ts";
import type { Context } from "./_context.ts";
import { historySettled, logged, recordOf } from "./_history.ts";
import { loadWhole } from "./_load.ts";
import { lockTargets, start } from "./_locking.ts";
import { resolveTarget } from "./_resolve.ts";

const encoder = new TextEncoder();

/**
 * Reverts one entry as one all-or-nothing commit (itself an entry).
 *
 * @throws {PatchRefusedError} `MOVED_ON` naming each file and line that moved on; nothing is written.
 * @throws {NotFoundError} When the log holds no such entry.
 */
export async function undo(
  ctx: Context,
  id: string,
  options: UndoOptions = {},
): Promise<UndoResult> {
  await start(ctx);
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      "Cannot undo: options must be an object such as { dryRun: true }.",
    );
  }
  const session = checkSession(options.session ?? ctx.session);
  const dryRun = options.dryRun === true;
  const entry = await logged(ctx, "undo", id);
  const first: Target[] = [];
  for (const f of entry.files) {
    first.push(await resolveTarget(ctx, f.path, "write"));
  }
  // A dry run takes no lock: it changes nothing.
  const release = dryRun ? () => {} : await lockTargets(ctx, first);
  try {
    return await undoLocked(ctx, session, entry.id, entry.files, dryRun);
  } finally {
    release();
    // The entry's flush, shared with the commits in flight, outside the locks.
    if (!dryRun) await historySettled(ctx);
  }
}

async function undoLocked(
  ctx: Context,
  session: string,
  id: string,
  entryFiles: Awaited<ReturnType<typeof logged>>["files"],
  dryRun: boolean,
): Promise<UndoResult> {
  const problems: Problem[] = [];
  const steps: { target: Target; step: UndoStep; old?: Uint8Array }[] = [];
  for (const f of entryFiles) {
    const target = await resolveTarget(ctx, f.path, "write");
    let current: string | null = null;
    let old: Uint8Array | undefined;
    let sha: string | undefined;
    let read = target;
    if (target.exists) {
      if (ctx.streams(target)) {
        throw new TooLargeError(
          `Cannot undo ${id}: "${target.display}" is over ${ctx.streamThreshold} bytes, too large to undo in memory. Patch it back by hand.`,
        );
      }
      const whole = await loadWhole(target);
      old = whole.bytes;
      read = { ...target, stat: whole.id };
      current = whole.text;
      if (f.whole !== undefined) sha = await sha256Hex(old);
    }
    const plan = planUndo(id, f, current, sha);
    if (!plan.ok) problems.push(...plan.problems);
    else steps.push({ target: read, step: plan.step, old });
  }
  if (problems.length > 0) throw refusal(problems);
  const files = steps.map(
    ({ target, step }): EntryDetail["files"][number] => {
      const kind = step.action === "delete"
        ? "deleted"
        : step.action === "create"
        ? "created"
        : undefined;
      return {
        path: target.display,
        added: step.action === "delete" ? 0 : step.added,
        removed: step.action === "create" ? 0 : step.removed,
        ...(kind ? { [kind]: true } : {}),
        diff: renderDiff(target.display, step.hunks, kind),
      };
    },
  );
  const head = `${dryRun ? "Dry run: would undo" : "Undid"} ${id} (${
    files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(", ")
  })`;
  const summary = [head, ...files.map((f) => f.diff)].filter((x) => x)
    .join("\n");
  if (dryRun) return { id: null, undoOf: id, dryRun, files, summary };
  const stage: StageEntry[] = steps.map(({ target, step, old }) =>
    step.action === "delete"
      ? { target, remove: true, old }
      : { target, bytes: encoder.encode(step.text), old }
  );
  const record = await recordOf(
    ctx,
    session,
    head,
    files.map((f, i) => ({
      path: f.path,
      added: f.added,
      removed: f.removed,
      ...(f.created ? { created: true } : {}),
      ...(f.deleted ? { deleted: true } : {}),
      hunks: steps[i].step.hunks,
    })),
    id,
  );
  await commitFiles(ctx.stateDir, ctx.conf, stage, ctx.hooks, record);
  const warnings = ctx.takeNotices();
  return {
    id: record?.id ?? null,
    undoOf: id,
    dryRun,
    files,
    summary: [summary, ...warnings.map((w) => `Warning: ${w}`)].join("\n"),
  };
}
