/**
 * A patch through the pipeline (docs/patch-format.md): parse → resolve
 * (`_resolve.ts`) → lock (`_locking.ts`) → plan each file through `patch/`
 * (`_plan.ts`, which loads it) → stage and commit all or none
 * (`src/commit/commit.ts`) → record what the session now knows (`_record.ts`).
 *
 * @module
 */
import { checkSession } from "../_internal/session.ts";
import { leanLines } from "../anchor/lean.ts";
import type { CheckMode, GateOutcome } from "../check/mod.ts";
import { PatchRefusedError } from "../errors.ts";
import type { LineMemory } from "../patch/memory.ts";
import {
  changed,
  type Problem,
  refusal,
  type Shown,
} from "../patch/problems.ts";
import type { Patch } from "../patch/types.ts";
import { recordFile } from "../history/record.ts";
import { commitFiles } from "../commit/commit.ts";
import { patchDialect } from "./_dialect.ts";
import { hasFileOps, patchFileOps } from "./_file_ops.ts";
import type { Context } from "./_context.ts";
import { lockTargets } from "./_locking.ts";
import { start } from "../history/settle.ts";
import { loadEditing, prepare, type Prepared } from "./_plan.ts";
import { recordOf, settleThenRelease } from "./_history.ts";
import { recordCommit, recordRefusal } from "../records/update.ts";
import { type Group, groupsOf } from "./_resolve.ts";
import { resolveTarget } from "../fs/resolve.ts";
import {
  editHead,
  linkNote,
  patchAnswer,
  resultShare,
} from "../result/notes.ts";
import type { FileEdit, PatchOptions, PatchResult } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";

/**
 * Validates a patch against the live files and commits it to every file,
 * or to none.
 *
 * @throws {PatchRefusedError} Listing every problem, across every file.
 */
export async function patchFiles(
  ctx: Context,
  input: Patch | string,
  options: PatchOptions = {},
  numbersNow = false,
): Promise<PatchResult> {
  await start(ctx);
  if (options === null || typeof options !== "object") {
    throw new TypeError(
      "Cannot patch: options must be an object such as { dryRun: true }.",
    );
  }
  const session = checkSession(options.session ?? ctx.session);
  const dryRun = options.dryRun === true;
  const rebase = options.rebase ?? ctx.rebaseDefault;
  const { parsePatch } = await loadEditing();
  const parsed = parsePatch(input);
  if (parsed.dialect) {
    return await patchDialect(
      ctx,
      parsed.dialect,
      options,
      // Its hunks were located in what the session knows of each file now.
      (patch, opts) => patchFiles(ctx, patch, opts, true),
    );
  }
  if (parsed.files.length === 0) {
    throw new TypeError(
      'Cannot patch: the patch names no files. Send { files: [{ path, ops }] } or the text form starting with "@@ PATH".',
    );
  }
  // The grammars load while the files are resolved, locked and read.
  ctx.syntax.warm(parsed.files.map((f) => f.path), options.check);
  if (hasFileOps(parsed)) {
    return await patchFileOps(
      ctx,
      session,
      parsed,
      dryRun,
      options.check,
      rebase,
      numbersNow,
    );
  }
  const groups = await groupsOf(ctx, parsed);
  // Judged against what the session knew when it sent the patch, not what
  // a concurrent patch of the same session recorded while this one waited.
  const known = new Map<string, LineMemory | undefined>();
  for (const g of groups) {
    const mem = (await ctx.records.get(session, g.target.real))?.clone();
    if (mem && numbersNow) mem.numbersNow = true;
    known.set(g.target.real, mem);
  }
  // A dry run takes no lock: it changes nothing.
  const release = dryRun
    ? () => {}
    : await lockTargets(ctx, groups.map((g) => g.target));
  try {
    return await patchLocked(
      ctx,
      session,
      groups,
      known,
      dryRun,
      rebase,
      options.check,
    );
  } finally {
    await settleThenRelease(ctx, release, !dryRun);
  }
}

async function patchLocked(
  ctx: Context,
  session: string,
  groups: Group[],
  known: Map<string, LineMemory | undefined>,
  dryRun: boolean,
  rebase: boolean,
  check?: CheckMode,
): Promise<PatchResult> {
  const { summarizeEdit } = await loadEditing();
  const problems: Problem[] = [];
  const prepared: Prepared[] = [];
  const rebased: string[] = [];
  for (const group of groups) {
    // Judged as the file is now that its lock is held, not as it was before.
    const target = await resolveTarget(ctx, group.target.input, "write");
    if (target.real !== group.target.real) {
      problems.push(changed(target.display));
      continue;
    }
    try {
      const p = await prepare(
        ctx,
        target,
        group.ops,
        known.get(target.real),
        problems,
        rebase ? rebased : null,
      );
      if (p) prepared.push(p);
    } catch (error) {
      if (!(error instanceof PatchRefusedError)) throw error;
      pushAll(problems, error.problems);
    }
  }
  if (problems.length > 0) {
    // A dry run changes no state at all, not even the read record.
    if (!dryRun) await recordRefusal(ctx, session, groups, problems);
    throw refusal(problems);
  }
  // --- syntax check (src/check): the lines as they would stand, before any rename ---
  const inputs = prepared.map((p) =>
    p.syntax ?? { path: p.target.display, before: null, after: null }
  );
  let syntax: GateOutcome = { checks: [], warnings: [] };
  const runChecks = async () => {
    syntax = await ctx.syntax.run(inputs, check);
  };
  const entries = prepared.filter((p) => !p.unchanged);
  // A check that cannot refuse runs while the commit's writes flush.
  const alongside = !dryRun && entries.length > 0 &&
    !ctx.syntax.mayRefuse(check);
  if (!alongside) await runChecks();
  // --- end syntax check ---
  const files: FileEdit[] = [];
  const shown: Shown[][] = [];
  for (const p of prepared) {
    const s = summarizeEdit({
      display: p.target.display,
      oldCount: p.oldCount,
      oldLine: p.oldLine,
      plan: p.plan,
      maxLineChars: ctx.maxLineChars ?? 2000,
      created: !p.target.exists,
      maxResultBytes: resultShare(prepared.length),
    });
    const lean = known.get(p.target.real)?.form === "lean";
    files.push({
      path: p.target.display,
      // A patch that leaves the file as it was changed no line.
      added: p.unchanged ? 0 : s.added,
      removed: p.unchanged ? 0 : s.removed,
      created: !p.target.exists,
      anchors: lean ? leanLines(s.anchors) : s.anchors,
      diff: s.diff,
    });
    shown.push(s.shown);
  }
  let entryId: string | undefined;
  if (!dryRun) {
    if (entries.length > 0) {
      const record = await recordOf(
        ctx,
        session,
        editHead(files[0]),
        entries.map((p) => {
          const f = files[prepared.indexOf(p)];
          return recordFile({
            path: f.path,
            added: f.added,
            removed: f.removed,
            created: f.created,
            oldText: p.oldText,
            newText: p.newText,
            oldBytes: p.old,
            newBytes: p.bytes,
            plan: p.plan,
            oldLine: p.oldLine,
          });
        }),
      );
      await commitFiles(
        ctx.stateDir,
        ctx.conf,
        entries,
        ctx.hooks,
        record,
        alongside ? runChecks : undefined,
      );
      entryId = record?.id;
    }
  }
  const warnings = [...syntax.warnings, ...ctx.takeNotices()];
  for (const p of prepared) {
    const note = p.unchanged ? null : linkNote(p.target.display, p.target.stat);
    if (note) warnings.push(note);
  }
  if (!dryRun) {
    await recordCommit(ctx, session, prepared, shown, warnings, entryId);
  }
  const parts = files.map((f) =>
    [editHead(f), f.anchors, f.diff]
      .filter((s) => s !== "")
      .join("\n")
  );
  return patchAnswer({
    dryRun,
    files,
    parts,
    rebased,
    blocks: prepared.flatMap((p) => p.blocks ?? []),
    warnings,
    checks: syntax.checks,
    entry: entryId,
  });
}
