/**
 * Whole-file writes (docs/patch-format.md "Whole-file writes"): the planner
 * of the one write transaction (`_transaction.ts`) that loads the old file
 * and judges the write through `patch/` (the session must have seen every
 * line, none changed).
 *
 * @module
 */
import { splitLines } from "../anchor/split.ts";
import {
  EditRefusedError,
  PatchRefusedError,
  TooLargeError,
} from "../errors.ts";
import type { LineMemory } from "../patch/memory.ts";
import { changedError, refusal } from "../patch/problems.ts";
import {
  firstStaleLine as staleIn,
  judgeWholeWrite,
} from "../patch/whole_write.ts";
import { recordFile, sha256Hex } from "../history/record.ts";
import type { Target } from "../fs/confine.ts";
import { sameBytes } from "../fs/io.ts";
import type { Context } from "./_context.ts";
import { loadWhole } from "../fs/load.ts";
import { summarizeEdit } from "../result/edit.ts";
import { stat } from "../read/read.ts";
import { recordWhole } from "../records/update.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { linkNote, MAX_RESULT_BYTES } from "../result/notes.ts";
import { firstStaleLine } from "../stream/patch.ts";
import { runWrite } from "./_transaction.ts";
import type { WriteOptions, WriteResult } from "./types.ts";

const encoder = new TextEncoder();

/** Refuses content no read could show back: an unpaired surrogate or a NUL. */
function checkText(content: string): void {
  const wellFormed = (content as { isWellFormed?: () => boolean }).isWellFormed;
  if (wellFormed && !wellFormed.call(content)) {
    throw new TypeError(
      "Cannot write: the content holds an unpaired surrogate, which is not valid UTF-8 text.",
    );
  }
  const nul = content.indexOf("\0");
  if (nul !== -1) {
    throw new TypeError(
      `Cannot write: the content holds a NUL character at index ${nul}; a file with one is not text and could not be read back.`,
    );
  }
}

/**
 * Loads the file a write replaces and judges the write against the
 * session's read record: its old lines (null when streamed), and the
 * version the commit must find.
 */
async function judgeOld(
  ctx: Context,
  target: Target,
  memory: LineMemory | undefined,
): Promise<{
  lines: string[] | null;
  target: Target;
  old?: Uint8Array;
  text?: string;
}> {
  const display = target.display;
  if (!memory || ctx.streams(target)) {
    const { stale, lines: total } = memory
      ? await firstStaleLine(target, memory.toJSON(), ctx.engine)
      : { stale: 0, lines: 0 };
    const refused = judgeWholeWrite(display, memory, { stale, total });
    if (refused.length > 0) throw refusal(refused);
    return { lines: null, target };
  }
  const { bytes, id, text } = await loadWhole(target);
  const lines = splitLines(text).lines;
  const refused = judgeWholeWrite(display, memory, {
    stale: staleIn(memory, lines),
    total: lines.length,
  });
  if (refused.length > 0) throw refusal(refused);
  const read = { ...target, stat: id };
  return { lines, target: read, old: bytes, text };
}

/**
 * Creates a file, or replaces one the session has read whole, with exactly
 * this content: the old file judged whole, through the one transaction.
 */
export function writeFile(
  ctx: Context,
  path: string,
  content: string,
  options: WriteOptions,
  createOnly: boolean,
): Promise<WriteResult> {
  let first: Target;
  let known: LineMemory | undefined;
  let bytes: Uint8Array;
  let next: string[];
  return runWrite<WriteResult>(ctx, "write", options, {
    async resolve(call) {
      if (typeof content !== "string") {
        throw new TypeError(
          `Cannot write: content must be a string, got ${typeof content}.`,
        );
      }
      checkText(content);
      first = await resolveTarget(ctx, path, "write");
      bytes = encoder.encode(content);
      if (bytes.length > ctx.conf.maxFileBytes) {
        throw new TooLargeError(
          `Cannot write "${first.display}": the content is ${bytes.length} bytes, over the workspace limit of ${ctx.conf.maxFileBytes} bytes.`,
        );
      }
      next = splitLines(content).lines;
      known = first.exists
        ? (await ctx.records.get(call.session, first.real))?.clone()
        : undefined;
      return [first];
    },
    async plan(call) {
      const target = await resolveTarget(ctx, path, "write");
      const display = target.display;
      if (target.real !== first.real || (createOnly && target.exists)) {
        throw changedError(display);
      }
      const old = target.exists
        ? await judgeOld(
          ctx,
          target,
          known ?? await ctx.records.get(call.session, target.real),
        )
        : { lines: [], target, text: "" };
      const oldLines = old.lines;
      let diff = "";
      let added = 0;
      let removed = 0;
      if (oldLines) {
        // The counts are the whole diff's, also when the diff shown is cut
        // (tests/workspace/result_bounds.test.ts).
        const s = summarizeEdit({
          display,
          oldCount: oldLines.length,
          oldLine: (n) => oldLines[n - 1],
          plan: [{ at: 1, deleteCount: oldLines.length, lines: next }],
          maxLineChars: ctx.maxLineChars ?? 2000,
          created: !target.exists,
          // No anchors: the diff keeps the share it had beside them.
          anchors: false,
          maxResultBytes: MAX_RESULT_BYTES / 2,
        });
        diff = s.diff;
        added = s.diffCounts.added;
        removed = s.diffCounts.removed;
      } else {
        added = next.length;
        diff =
          `(diff not shown: the old file is over ${ctx.streamThreshold} bytes)`;
      }
      const head = target.exists
        ? `Wrote ${display} (+${added} -${removed})`
        : `Created ${display} (${next.length} ${
          next.length === 1 ? "line" : "lines"
        })`;
      // Content equal to the file's bytes changes nothing: no commit, no entry
      // (as a patch whose result equals the file).
      const same = old.old !== undefined && sameBytes(old.old, bytes);
      const note = same ? null : linkNote(display, old.target.stat);
      return {
        checks: [{
          path: display,
          before: target.exists ? old.text ?? null : null,
          after: content,
        }],
        stage: same ? [] : [{ target: old.target, bytes, old: old.old }],
        entry: async () => ({
          summary: head,
          files: [recordFile({
            path: display,
            added,
            removed: target.exists ? removed : 0,
            created: !target.exists,
            oldText: oldLines ? old.text : undefined,
            newText: content,
            whole: target.exists ? await sha256Hex(bytes) : undefined,
          })],
        }),
        notes: note ? [note] : [],
        record: (warnings) =>
          recordWhole(ctx, call.session, target.real, next, warnings),
        answer: ({ warnings, checks, entry }) => ({
          path: display,
          created: !target.exists,
          added,
          removed,
          totalLines: next.length,
          diff,
          summary: (diff ? `${head}\n${diff}` : head) +
            warnings.map((w) => `\nWarning: ${w}`).join(""),
          warnings,
          checks,
          ...(entry ? { entry } : {}),
        }),
      };
    },
  });
}

/** Creates a file that must not exist yet (never overwrites, even under a race). */
export async function createFile(
  ctx: Context,
  path: string,
  content: string,
  options: WriteOptions = {},
): Promise<WriteResult> {
  const exists = (where: string) =>
    new EditRefusedError(
      `Cannot create "${where}": a file is already there, and it is never overwritten. Choose a new path, or edit the existing file instead.`,
      "EXISTS",
    );
  const info = await stat(ctx, path);
  if (info.exists) throw exists(info.path);
  try {
    return await writeFile(ctx, path, content, options, true);
  } catch (error) {
    if (
      error instanceof PatchRefusedError && error.code === "CHANGED" &&
      (await stat(ctx, path).catch(() => null))?.exists
    ) {
      throw exists(info.path);
    }
    throw error;
  }
}
