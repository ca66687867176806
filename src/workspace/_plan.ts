/**
 * Planning (docs/patch-format.md#validation): each file of a patch loaded
 * (whole, or by one streamed pass) and judged by the rules of `patch/`,
 * once, against the file as it is now that its lock is held; what passes
 * becomes a staged entry with its plan.
 *
 * @module
 */
import type { FileHandle } from "../_runtime/file_handle.ts";
import type { CheckInput } from "../check/mod.ts";
import { NotFoundError, PatchRefusedError } from "../errors.ts";
import type { LineMemory } from "../patch/memory.ts";
import { planPatch, readFirst } from "../patch/plan.ts";
import type { Problem } from "../patch/problems.ts";
import type { PatchOp, PlannedEdit } from "../patch/types.ts";
import type { Context } from "./_context.ts";
import type { Target } from "../fs/confine.ts";
import { loadWhole } from "../fs/load.ts";
import { rewrite, scanForPatch } from "../stream/patch.ts";
import { editIndexed } from "../patch/apply.ts";
import {
  expandBlocks,
  hasBlockAnchors,
  tooLargeForBlocks,
} from "../block/expand.ts";
import { splitLines } from "../anchor/split.ts";
import { stillStamped } from "../records/stamp.ts";
import { noteMoved, resolveThroughViews } from "../patch/resolve_views.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import { namesNoLine } from "../patch/ops.ts";
import type { LineLookup } from "../patch/types.ts";
import type { Loaded } from "../fs/load.ts";
import { pushAll } from "../_internal/arrays.ts";

/**
 * Resolves the block anchors of one file's ops on the file as validated;
 * problems go to `problems` (and null is returned).
 */
async function resolveBlocks(
  ctx: Context,
  display: string,
  text: string,
  ops: PatchOp[],
  memory: LineMemory,
  problems: Problem[],
  rebase: boolean,
): Promise<{ ops: PatchOp[]; notes: string[] } | null> {
  if (!hasBlockAnchors(ops)) return { ops, notes: [] };
  const source = await ctx.syntax.structure(display, text);
  const out = expandBlocks(
    ops,
    splitLines(text).lines,
    source,
    memory,
    display,
    { rebase },
  );
  if (out.problems.length > 0) {
    pushAll(problems, out.problems);
    return null;
  }
  return out;
}

const encoder = new TextEncoder();

/** One file of a patch that passed: its plan and how to write its new content. */
export interface Prepared {
  /** The file, with the identity its new content was built from. */
  target: Target;
  /** The sorted edits. */
  plan: PlannedEdit[];
  /** Lines the file had. */
  oldCount: number;
  /** Old line n, where it was loaded. */
  oldLine(n: number): string | undefined;
  /** Writes the whole new content to the open temporary file (when not in `bytes`). */
  write?(handle: FileHandle): Promise<void>;
  /** The patch leaves the file as it was. */
  unchanged: boolean;
  /**
   * The file was not as the session last knew it (another party changed
   * it since), judged once while planning.
   */
  drifted?: boolean;
  /** The whole new content, when held in memory. */
  bytes?: Uint8Array;
  /** The bytes planned against, which the file must still hold at the rename. */
  old?: Uint8Array;
  /** The file before and after, for the syntax check. */
  syntax?: CheckInput;
  /** One note per block anchor resolved: `PATH op 1: block 12–40`. */
  blocks?: string[];
  /** The whole text before and after, when held in memory (for the history). */
  oldText?: string;
  newText?: string;
}

/**
 * Plans one file's ops; a refusal's problems go to `problems` (and null is
 * returned), rebase notes to `rebased` (null: rebase off).
 *
 * @throws {NotFoundError} When a missing file is given ops other than append or prepend.
 */
export async function prepare(
  ctx: Context,
  target: Target,
  ops: PatchOp[],
  memory: LineMemory | undefined,
  problems: Problem[],
  rebased: string[] | null,
): Promise<Prepared | null> {
  const display = target.display;
  if (!target.exists) {
    const bad = ops.find((op) => !namesNoLine(op));
    if (bad) {
      throw new NotFoundError(
        `Cannot patch "${display}": no such file in the workspace. To create it, send only append or prepend ops; to edit a file, check the path.`,
      );
    }
    const { outcome, plan } = editIndexed("", ops, { path: display });
    const bytes = encoder.encode(outcome.content);
    return {
      target,
      plan,
      oldCount: 0,
      oldLine: () => undefined,
      bytes,
      unchanged: false,
      syntax: { path: display, before: null, after: outcome.content },
      oldText: "",
      newText: outcome.content,
    };
  }
  if (!memory) {
    pushAll(problems, readFirst(memory, display));
    return null;
  }
  const views = memory.numbersNow ? undefined : memory.views;
  if (views) {
    // Numbers from every view the session was shown, in the file's numbering now.
    const loaded = ctx.streams(target) ? undefined : await loadWhole(target);
    let lookup: LineLookup | undefined;
    const file = {
      views,
      lean: memory.form === "lean",
      known: (n: number) => memory.hash32(n) !== undefined,
      // Only a refusal shows fresh lines: the file is split for one.
      get now(): LineLookup | undefined {
        if (!loaded) return undefined;
        return lookup ??= lookupFromLines(splitLines(loaded.text).lines);
      },
    };
    const resolved = resolveThroughViews(ops, () => file, display);
    if (resolved.problems.length > 0) {
      problems.push(...resolved.problems);
      return null;
    }
    ops = resolved.ops;
    const found: Problem[] = [];
    try {
      return await prepareResolved(
        ctx,
        target,
        ops,
        memory,
        found,
        rebased,
        loaded,
      );
    } catch (error) {
      if (error instanceof PatchRefusedError) {
        noteMoved(error.problems, resolved.moved, display);
      }
      throw error;
    } finally {
      noteMoved(found, resolved.moved, display);
      problems.push(...found);
    }
  }
  return await prepareResolved(ctx, target, ops, memory, problems, rebased);
}

/** {@link prepare} for ops whose anchors are in the file's numbering now. */
async function prepareResolved(
  ctx: Context,
  target: Target,
  ops: PatchOp[],
  memory: LineMemory,
  problems: Problem[],
  rebased: string[] | null,
  loaded?: Loaded,
): Promise<Prepared | null> {
  const display = target.display;
  // Resolved through views: the last commit's own lines need no second guess.
  const replaced = memory.views ? undefined : memory.replaced;
  if (ctx.streams(target) && hasBlockAnchors(ops)) {
    problems.push(tooLargeForBlocks(display));
    return null;
  }
  if (ctx.streams(target)) {
    const scanned = await scanForPatch(target, ops, memory, ctx.engine);
    const judged = planPatch(scanned.lookup, ops, {
      memory,
      path: display,
      replaced,
      unchanged: await stillStamped(memory.stamp, scanned.id),
    });
    if (judged.problems.length > 0) {
      pushAll(problems, judged.problems);
      return null;
    }
    const plan = judged.plan;
    const streamed = { ...target, stat: scanned.id };
    return {
      target: streamed,
      plan,
      oldCount: scanned.lineCount,
      oldLine: scanned.oldLine,
      write: (h) => rewrite(h, streamed, scanned, plan),
      unchanged: plan.length === 0,
      syntax: {
        path: display,
        before: null,
        after: null,
        bytes: scanned.id.size,
      },
    };
  }
  const { bytes, id, text } = loaded ?? await loadWhole(target);
  const blocks = await resolveBlocks(
    ctx,
    display,
    text,
    ops,
    memory,
    problems,
    rebased !== null,
  );
  if (!blocks) return null;
  ops = blocks.ops;
  // One line-offset pass over the old text serves the edit, the checks
  // and the summary: the text is never split into lines here.
  const unchanged = await stillStamped(memory.stamp, id, bytes);
  const { outcome: out, old, plan } = editIndexed(text, ops, {
    memory,
    path: display,
    rebase: rebased !== null,
    replaced,
    unchanged,
  });
  if (rebased) pushAll(rebased, out.rebased.map((n) => `${display} ${n}`));
  const next = encoder.encode(out.content);
  const read = { ...target, stat: id };
  return {
    target: read,
    plan,
    blocks: blocks.notes.map((n) => `${display} ${n}`),
    oldCount: old.lineCount,
    oldLine: (n) => (n <= old.lineCount ? old.text(n) : undefined),
    bytes: next,
    old: bytes,
    unchanged: out.content === text,
    drifted: !unchanged,
    syntax: { path: display, before: text, after: out.content },
    oldText: text,
    newText: out.content,
  };
}
