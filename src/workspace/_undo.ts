/**
 * Undo (docs/history.md): one history entry reverted as one all-or-nothing
 * commit, itself an entry, as a planner of the one write transaction
 * (`_transaction.ts`): each file loaded, the revert planned
 * (`history/undo.ts`: every line the entry wrote must still stand as
 * written, else `MOVED_ON`), and through an agent's door the session must
 * have read the lines the undo changes (else `NOT_READ`); the lines it
 * wrote are recorded as read. An entry that touched a file the workspace
 * denies is refused (`DENIED`).
 *
 * @module
 */
import { DeniedError, TooLargeError } from "../errors.ts";
import { lineHash32 } from "../hash/fnv.ts";
import {
  bare,
  carryKnown,
  type DiffLimit,
  type Door,
  DOORS,
  type EntryDetail,
  type EntryRecord,
  type Hunk,
  lineCount,
  lineHashes,
  planUndo,
  renderDiff,
  segments,
  sha256Hex,
  type UndoOptions,
  type UndoResult,
  type UndoStep,
} from "../history/mod.ts";
import { LineMemory } from "../patch/memory.ts";
import { type Problem, problem } from "../patch/problems.ts";
import type { StageEntry } from "../commit/commit.ts";
import { join } from "node:path";
import type { Target } from "../fs/confine.ts";
import type { Context } from "./_context.ts";
import { logged } from "../history/entries.ts";
import { loadWhole } from "../fs/load.ts";
import { noteOwnCommit, remember } from "../records/update.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { type LinkUndo, planLinkUndo } from "../history/links.ts";
import { pushAll } from "../_internal/arrays.ts";
import { renamedSince } from "../history/renamed.ts";
import { type Ready, type Refused, runWrite } from "./_transaction.ts";

/** Most UTF-8 bytes of diff an undo's result shows, shared by its files. */
const UNDO_DIFF_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * Reverts one entry as one all-or-nothing commit (itself an entry).
 *
 * @throws {PatchRefusedError} `MOVED_ON` naming each file and line that moved on; nothing is written.
 * @throws {NotFoundError} When the log holds no such entry.
 */
export function undo(
  ctx: Context,
  id: string,
  options: UndoOptions = {},
): Promise<UndoResult> {
  let entry: EntryRecord;
  let door: Door;
  return runWrite(ctx, "undo", options, {
    async resolve() {
      door = options.door ?? ctx.door;
      if (!DOORS.includes(door)) {
        throw new TypeError(
          `Cannot undo: door must be one of ${DOORS.join(", ")}.`,
        );
      }
      entry = await logged(ctx, "undo", id);
      for (const f of entry.files) {
        const rules = ctx.conf.deniedBy(f.path);
        if (rules !== undefined) {
          throw new DeniedError(
            `Cannot undo ${entry.id}: it changed "${f.path}", which the workspace denies (deny: ${rules}).`,
          );
        }
      }
      const first: Target[] = [];
      for (const f of entry.files) {
        const keepLink = f.link !== undefined;
        first.push(await resolveTarget(ctx, f.path, "write", { keepLink }));
        if (f.renamedFrom !== undefined) {
          first.push(
            await resolveTarget(ctx, f.renamedFrom, "write", { keepLink }),
          );
        }
      }
      return first;
    },
    plan: (call) =>
      planRevert(ctx, call.session, entry.id, entry.files, call.dryRun, {
        door,
        requireRead: options.requireRead === true,
      }),
  });
}

async function planRevert(
  ctx: Context,
  session: string,
  id: string,
  entryFiles: EntryRecord["files"],
  dryRun: boolean,
  how: { door: Door; requireRead: boolean },
): Promise<Refused | Ready<UndoResult>> {
  const problems: Problem[] = [];
  const steps: {
    target: Target;
    step: UndoStep;
    old?: Uint8Array;
    mode?: number;
    back?: Target;
  }[] = [];
  const links: LinkUndo[] = [];
  for (const f of entryFiles) {
    if (f.link !== undefined) {
      const l = await planLinkUndo(ctx, id, f, problems);
      if (l) links.push(l);
      continue;
    }
    const target = await resolveTarget(ctx, f.path, "write");
    let back: Target | undefined;
    if (f.renamedFrom !== undefined) {
      back = await resolveTarget(ctx, f.renamedFrom, "write");
      if (back.exists) {
        problems.push({
          code: "MOVED_ON",
          path: back.display,
          line: 1,
          message:
            `a file stands at this path again since ${id} renamed it to ${target.display}, so ${id} cannot rename it back.`,
        });
        continue;
      }
    }
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
    if (!plan.ok && current === null && !f.deleted) {
      const moved = await renamedSince(ctx, id, f.path);
      if (moved) {
        problems.push(problem(
          "MOVED_ON",
          `the file is ${moved.path} now (${moved.by} renamed it), so ${id} cannot be undone here: undo ${moved.by} first to rename it back, then ${id}.`,
          { path: f.path },
        ));
        continue;
      }
    }
    if (!plan.ok) pushAll(problems, plan.problems);
    else {
      carryKnown(f.hunks, plan.step.hunks);
      const mode = back || plan.step.action === "delete"
        ? read.stat?.mode
        : f.mode;
      steps.push({
        target: read,
        step: plan.step,
        old,
        ...(mode !== undefined ? { mode } : {}),
        ...(back ? { back } : {}),
      });
    }
  }
  if (problems.length > 0) return { problems, shown: [] };
  if (how.requireRead) {
    for (const { target, step, back } of steps) {
      const mem = await ctx.records.get(session, target.real);
      // Renaming it back moves a file: as a rename does, that needs a read
      // of it where it stands (docs/history.md). Putting back a deleted file
      // needs none, as a create does not.
      if (back && !mem) {
        problems.push(notReadForRenameBack(id, target.display, back.display));
        continue;
      }
      const unread = unreadLines(step.hunks, mem);
      if (unread) problems.push(notReadForUndo(id, target.display, unread));
    }
    if (problems.length > 0) return { problems, shown: [] };
  }
  // An undo's diff is cut short (docs/history.md "Undo"): the entry it
  // reverts shows the whole change, so restoring a deleted file does not
  // answer with every line of it.
  const shown: number[][] = steps.map(() => []);
  const limit = (i: number): DiffLimit => ({
    maxBytes: Math.max(512, Math.floor(UNDO_DIFF_BYTES / steps.length)),
    more: `show ${id} for the whole change this reverts`,
    shown: shown[i],
  });
  const files = steps.map(
    ({ target, step, back }, i): EntryDetail["files"][number] => {
      if (back && step.action === "write") {
        return {
          path: back.display,
          added: step.added,
          removed: step.removed,
          renamedFrom: target.display,
          diff: renderDiff(back.display, step.hunks, undefined, limit(i)),
        };
      }
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
        diff: renderDiff(target.display, step.hunks, kind, limit(i)),
      };
    },
  );
  files.push(...links.map((l) => l.file));
  const head = `${dryRun ? "Dry run: would undo" : "Undid"} ${id} (${
    files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(", ")
  })`;
  const summary = [head, ...files.map((f) => f.diff)].filter((x) => x)
    .join("\n");
  const stage: StageEntry[] = [
    ...links.flatMap((l) => l.stage),
    ...steps.flatMap(
      ({ target, step, old, mode, back }): StageEntry[] =>
        step.action === "delete"
          ? [{ target, remove: true, old }]
          : back
          ? [{ target, remove: true, old }, {
            target: back,
            bytes: encoder.encode(step.text),
            ...(mode !== undefined ? { mode } : {}),
          }]
          : [{
            target,
            ...content(step.text),
            old,
            ...(mode !== undefined && !target.exists ? { mode } : {}),
          }],
    ),
  ];
  return {
    // An undo puts back what the entry replaced: it is not checked.
    checks: [],
    stage: dryRun ? [] : stage,
    entry: () => ({
      summary: head,
      files: files.map((f, i) => ({
        path: f.path,
        added: f.added,
        removed: f.removed,
        ...(f.created ? { created: true } : {}),
        ...(f.deleted ? { deleted: true } : {}),
        ...(f.renamedFrom !== undefined ? { renamedFrom: f.renamedFrom } : {}),
        ...(f.link !== undefined ? { link: f.link } : {}),
        ...(steps[i]?.mode !== undefined &&
            (f.deleted || f.renamedFrom !== undefined)
          ? { mode: steps[i].mode! & 0o7777 }
          : {}),
        hunks: steps[i]?.step.hunks ?? [],
      })),
      undoOf: id,
      door: how.door,
    }),
    // Folders the entry made for a file this undo removes go too, when
    // empty, once the locks, which may lie in them, are released; the
    // commit's journal names them until then, so recovery after a crash
    // does the same.
    tidy: entryFiles.flatMap((f) =>
      f.dirs && (f.created || f.renamedFrom !== undefined)
        ? f.dirs.map((d) => join(ctx.conf.rootRef.real, d))
        : []
    ),
    record: async (warnings, entry) => {
      for (const [i, { target, step }] of steps.entries()) {
        await recordUndo(
          ctx,
          session,
          target.real,
          step,
          shown[i],
          warnings,
          entry,
        );
      }
    },
    answer: ({ warnings, entry }) =>
      dryRun ? { id: null, undoOf: id, dryRun, files, summary } : {
        id: entry ?? null,
        undoOf: id,
        dryRun,
        files,
        summary: [summary, ...warnings.map((w) => `Warning: ${w}`)].join("\n"),
      },
  };
}

/** Text past this many UTF-16 units is written in chunks, never encoded whole. */
const CHUNKED_TEXT = 1024 ** 2;

/**
 * How a stage entry writes `text`: as bytes when small, else encoded a
 * chunk at a time into one reused buffer (an undo of a deletion writes the
 * whole file back, and a second copy of it as bytes is what it can spare).
 */
function content(
  text: string,
): Pick<StageEntry, "bytes" | "write"> {
  if (text.length <= CHUNKED_TEXT) return { bytes: encoder.encode(text) };
  return {
    write: async (handle) => {
      // Three bytes at most per UTF-16 unit.
      const buffer = new Uint8Array(3 * CHUNKED_TEXT);
      let pos = 0;
      while (pos < text.length) {
        let end = Math.min(text.length, pos + CHUNKED_TEXT);
        // Never between the halves of a surrogate pair.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const { written } = encoder.encodeInto(text.slice(pos, end), buffer);
        let at = 0;
        while (at < written) {
          at += (await handle.write(buffer, at, written - at)).bytesWritten;
        }
        pos = end;
      }
    },
  };
}

/** Lines `from..to` of the file as it stands (1-based, inclusive). */
interface Span {
  from: number;
  to: number;
}

/**
 * The first run of lines an undo changes that the session has not seen as
 * they stand: the lines it removes or replaces, and for a pure insertion
 * the line it goes after (or before, at the top).
 */
function unreadLines(
  hunks: readonly Hunk[],
  mem: LineMemory | undefined,
): Span | null {
  for (const h of hunks) {
    const olds = h.old === "" ? [] : segments(h.old);
    const lines: [number, string][] = olds.map((s, k) => [h.at + k, s]);
    if (lines.length === 0) {
      if (h.before !== null) lines.push([h.at - 1, h.before]);
      else if (h.after !== null) lines.push([h.at, h.after]);
    }
    const missing = lines.filter(([n, s]) =>
      mem?.hash32(n) !== lineHash32(bare(s, n === 1))
    );
    if (missing.length > 0) {
      return { from: missing[0][0], to: missing[missing.length - 1][0] };
    }
  }
  return null;
}

function notReadForUndo(id: string, path: string, span: Span): Problem {
  const lines = span.from === span.to
    ? `line ${span.from} as it stands`
    : `lines ${span.from}–${span.to} as they stand`;
  return problem(
    "NOT_READ",
    `this session has not read ${lines}, which undoing ${id} changes: read ${path} (offset ${span.from}) first, then send the undo again.`,
    { path, line: span.from },
  );
}

function notReadForRenameBack(id: string, path: string, to: string): Problem {
  return problem(
    "NOT_READ",
    `this session has not read the file, which undoing ${id} renames back to ${to}: read ${path} first, then send the undo again.`,
    { path },
  );
}

/**
 * Records what an undo wrote as read by its session: remembered lines move
 * to where they now stand, and the lines it wrote that its diff showed
 * count as seen (`shown`: how many of each hunk's new lines, all of them
 * unless the diff was cut), as a patch's own result does.
 */
async function recordUndo(
  ctx: Context,
  session: string,
  real: string,
  step: UndoStep,
  shown: readonly number[],
  warnings: string[],
  entry?: string,
): Promise<void> {
  if (step.action === "delete") return;
  const mem = (await ctx.records.get(session, real)) ?? new LineMemory();
  // Only the number of lines each hunk wrote counts for the remap.
  const plan = step.hunks.map((h) => ({
    at: h.at,
    deleteCount: lineCount(h.old),
    lines: { length: lineCount(h.new) } as string[],
  }));
  const runs = step.hunks.map((h, j) => ({
    start: h.newAt,
    hashes: lineHashes(h.new, h.newAt, shown[j] ?? 0),
  }));
  noteOwnCommit(mem, plan, runs, entry);
  const total = lineCount(step.text);
  mem.forgetFrom(total + 1);
  mem.lineCount = total;
  await remember(ctx, session, real, mem, warnings);
}
