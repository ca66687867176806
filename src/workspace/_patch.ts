/**
 * A patch (docs/patch-format.md): parsed, sent to its dialect or to the
 * planner of patches with file operations when it is one, else planned
 * here as line edits of each file (`_plan.ts`, which loads it, through
 * `patch/`) and run through the one write transaction (`_transaction.ts`).
 *
 * @module
 */
import { leanLines } from "../anchor/lean.ts";
import { PatchRefusedError } from "../errors.ts";
import type { LineMemory } from "../patch/memory.ts";
import { changed, type Problem, type Shown } from "../patch/problems.ts";
import type { Patch } from "../patch/types.ts";
import { recordFile } from "../history/record.ts";
import { patchDialect } from "./_dialect.ts";
import { fileOpsPlanner, hasFileOps } from "./_file_ops.ts";
import type { Context } from "./_context.ts";
import { prepare, type Prepared } from "./_plan.ts";
import { parsePatch } from "../patch/parse.ts";
import { summarizeEdit } from "../result/edit.ts";
import { recordCommit } from "../records/update.ts";
import { type Group, groupsOf } from "./_resolve.ts";
import { resolveTarget } from "../fs/resolve.ts";
import {
  editHead,
  linkNote,
  patchAnswer,
  resultShare,
} from "../result/notes.ts";
import {
  type Planner,
  type Ready,
  runWrite,
  type WriteCall,
  writeCall,
} from "./_transaction.ts";
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
  writeCall(ctx, "patch", options);
  const rebase = options.rebase ?? ctx.rebaseDefault;
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
  const planner = hasFileOps(parsed)
    ? fileOpsPlanner(ctx, parsed, rebase, numbersNow)
    : linePlanner(ctx, parsed, rebase, numbersNow);
  return await runWrite(ctx, "patch", options, planner);
}

/** Line edits of each file a patch names. */
function linePlanner(
  ctx: Context,
  parsed: Patch,
  rebase: boolean,
  numbersNow: boolean,
): Planner<PatchResult> {
  let groups: Group[] = [];
  // Judged against what the session knew when it sent the patch, not what
  // a concurrent patch of the same session recorded while this one waited.
  const known = new Map<string, LineMemory | undefined>();
  return {
    async resolve(call) {
      groups = await groupsOf(ctx, parsed);
      for (const g of groups) {
        const mem = (await ctx.records.get(call.session, g.target.real))
          ?.clone();
        if (mem && numbersNow) mem.numbersNow = true;
        known.set(g.target.real, mem);
      }
      return groups.map((g) => g.target);
    },
    async plan(call) {
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
        return { problems, shown: groups.map((g) => g.target) };
      }
      return linesReady(ctx, call, prepared, known, rebased);
    },
  };
}

/** A line patch that passed: its files summarized, staged and recorded. */
function linesReady(
  ctx: Context,
  { session, dryRun }: WriteCall,
  prepared: Prepared[],
  known: Map<string, LineMemory | undefined>,
  rebased: string[],
): Ready<PatchResult> {
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
  const entries = prepared.filter((p) => !p.unchanged);
  const notes: string[] = [];
  for (const p of entries) {
    const note = linkNote(p.target.display, p.target.stat);
    if (note) notes.push(note);
  }
  return {
    checks: prepared.map((p) =>
      p.syntax ?? { path: p.target.display, before: null, after: null }
    ),
    stage: entries,
    entry: () => ({
      summary: editHead(files[0]),
      files: entries.map((p) => {
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
    }),
    notes,
    record: (warnings, entry) =>
      recordCommit(ctx, session, prepared, shown, warnings, entry),
    answer: (out) =>
      patchAnswer({
        dryRun,
        files,
        parts: files.map((f) =>
          [editHead(f), f.anchors, f.diff].filter((s) => s !== "").join("\n")
        ),
        rebased,
        blocks: prepared.flatMap((p) => p.blocks ?? []),
        warnings: out.warnings,
        checks: out.checks,
        entry: out.entry,
      }),
  };
}
