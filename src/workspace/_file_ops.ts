/**
 * A patch with file operations, moves or copies (docs/patch-format.md
 * "Moves and file operations"), as a planner of the one write transaction
 * (`_transaction.ts`): every path it names resolved and checked
 * (confinement, `.git`/`.hashline`, `deny`) before any read rule, then the
 * rules between its parts (`patch/file_ops.ts`) and each file's line edits
 * (`patch/`) judged against the files as they stand; what it stages and
 * records is in `_file_op_commit.ts`.
 *
 * @module
 */
import { namesNoLine } from "../patch/ops.ts";
import { NotAFileError, PatchRefusedError, TooLargeError } from "../errors.ts";
import { beforeRename } from "../check/rename.ts";
import { leanLines } from "../anchor/lean.ts";
import { ContentIndex } from "../patch/_content.ts";
import { landedAt, type PathState, planFileOps } from "../patch/file_ops.ts";
import type { LineMemory } from "../patch/memory.ts";
import { stillStamped } from "../records/stamp.ts";
import { movedText } from "../patch/rebase.ts";
import {
  changed,
  type Problem,
  refusal,
  type Shown,
} from "../patch/problems.ts";
import type { Patch } from "../patch/types.ts";
import { sameIdentity, type Target } from "../fs/confine.ts";
import type { Context } from "./_context.ts";
import { loadWhole } from "../fs/load.ts";
import { editIndexed } from "../patch/apply.ts";
import { summarizeEdit } from "../result/edit.ts";
import { type MovedNote, noteMoved } from "../patch/resolve_views.ts";
import { throughViews } from "../records/views.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { refuseTwoSpellings } from "../patch/spellings.ts";
import {
  bareMoves,
  type Loaded,
  moveBlocks,
  opBlocks,
} from "../block/op_blocks.ts";
import { actsOnName, linkHead, splitLinks } from "../history/links.ts";
import { patchAnswer, resultShare } from "../result/notes.ts";
import {
  carryRecords,
  commitOf,
  type Done,
  type FileOpEdit,
} from "./_file_op_commit.ts";
import type { Planner, Ready, Refused } from "./_transaction.ts";
import type { PatchResult } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";

/** Whether a patch holds a file operation, a move or a copy. */
export function hasFileOps(patch: Patch): boolean {
  return patch.files.some((f) =>
    f.create === true || f.delete === true || f.rename !== undefined ||
    (f.moves?.length ?? 0) > 0
  );
}

/**
 * The planner of a patch with file operations, moves or copies: every
 * path it names resolved and checked before any read rule, one lock per
 * file, then the rules between its parts and each file's line edits.
 *
 * @throws {PatchRefusedError} Listing every problem, across every file.
 * @throws {DeniedError} {@link OutsideRootError} … for a path the rules refuse, before any read rule.
 */
export function fileOpsPlanner(
  ctx: Context,
  parsed: Patch,
  rebase = false,
  numbersNow = false,
): Planner<PatchResult> {
  // Every path the patch names, checked before anything is read.
  const targets = new Map<string, Target>();
  const canonical: Patch = { files: [] };
  const known = new Map<string, LineMemory | undefined>();
  const resolve = async (p: string, keepLink = false): Promise<string> => {
    if (p === "") {
      throw new TypeError(
        'Cannot patch: an entry names no file. Start it with "@@ PATH" (text form) or give its "path".',
      );
    }
    const t = await resolveTarget(ctx, p, "write", { keepLink });
    const key = t.display;
    if (!targets.has(key)) targets.set(key, t);
    return key;
  };
  // A folder where a file is to be created or renamed to stands there
  // already: EXISTS, as a file would be (a rename never overwrites).
  const claim = async (
    p: string,
    entry: string,
    why: string,
  ): Promise<string> => {
    try {
      return await resolve(p);
    } catch (error) {
      if (error instanceof NotAFileError && error.folder) {
        throw refusal([{ code: "EXISTS", path: entry, message: why }]);
      }
      throw error;
    }
  };
  return {
    async resolve(call) {
      for (const f of parsed.files) {
        const path = f.create === true
          ? await claim(
            f.path,
            f.path,
            "cannot create it: a folder already stands at this path; choose another path.",
          )
          : await resolve(f.path, actsOnName(f));
        const out = { ...f, path };
        if (f.rename !== undefined) {
          out.rename = await claim(
            f.rename,
            f.path,
            `cannot rename it to "${f.rename}": a folder stands there, and a rename never overwrites. Choose another path.`,
          );
        }
        if (f.moves) {
          out.moves = [];
          for (const m of f.moves) {
            out.moves.push(
              m.to !== undefined ? { ...m, to: await resolve(m.to) } : m,
            );
          }
        }
        canonical.files.push(out);
      }
      refuseTwoSpellings(targets, canonical);
      for (const t of targets.values()) {
        const mem = (await ctx.records.get(call.session, t.real))?.clone();
        if (mem && numbersNow) mem.numbersNow = true;
        known.set(t.display, mem);
      }
      // One lock per file: two spellings of one file (a case-only rename on
      // a file system that folds case) share it.
      const seen = new Set<string>();
      return [...targets.values()].filter((t) => {
        const id = t.stat ? `${t.stat.dev}:${t.stat.ino}` : `new:${t.real}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    },
    plan: (call) =>
      locked(ctx, call.session, canonical, targets, known, call.dryRun, rebase),
  };
}

async function locked(
  ctx: Context,
  session: string,
  patch: Patch,
  first: Map<string, Target>,
  known: Map<string, LineMemory | undefined>,
  dryRun: boolean,
  rebase: boolean,
): Promise<Refused | Ready<PatchResult>> {
  const problems: Problem[] = [];
  const rebased: string[] = [];
  const loaded = new Map<string, Loaded>();
  for (const [key, was] of first) {
    const t = await resolveTarget(ctx, was.input, "write", {
      keepLink: actsOnName(patch.files.find((f) => f.path === key)),
    });
    if (
      t.real !== was.real || t.link !== was.link ||
      (t.link !== undefined && !sameIdentity(t.stat!, was.stat!))
    ) {
      problems.push(changed(t.display));
      continue;
    }
    if (t.link !== undefined) {
      loaded.set(key, { target: t, text: null });
      continue;
    }
    if (!t.exists) {
      loaded.set(key, { target: t, text: null });
      continue;
    }
    if (ctx.streams(t)) {
      throw new TooLargeError(
        `Cannot patch "${t.display}" with file operations or moves: it is over ${ctx.streamThreshold} bytes. Edit it with line ops alone.`,
      );
    }
    const whole = await loadWhole(t);
    const memory = known.get(key);
    loaded.set(key, {
      target: { ...t, stat: whole.id },
      text: whole.text,
      bytes: whole.bytes,
      memory,
      unchanged: memory !== undefined &&
        await stillStamped(memory.stamp, whole.id, whole.bytes),
    });
  }
  if (problems.length > 0) throw refusal(problems);
  const moved = new Map<string, Map<number, MovedNote>>();
  patch = throughViews(patch, loaded, problems, moved);
  if (problems.length > 0) throw refusal(problems);
  const note = (found: Problem[]) => {
    for (const [path, notes] of moved) noteMoved(found, notes, path);
  };
  const args = [ctx, session, patch, loaded, dryRun, rebase, rebased] as const;
  try {
    const out = await lockedResolved(...args);
    if ("problems" in out) note(out.problems);
    return out;
  } catch (error) {
    if (error instanceof PatchRefusedError) note(error.problems);
    throw error;
  }
}

async function lockedResolved(
  ctx: Context,
  session: string,
  patch: Patch,
  loaded: Map<string, Loaded>,
  dryRun: boolean,
  rebase: boolean,
  rebased: string[],
): Promise<Refused | Ready<PatchResult>> {
  const problems: Problem[] = [];
  patch = bareMoves(patch, loaded, problems);
  if (problems.length > 0) throw refusal(problems);
  patch = await moveBlocks(ctx, patch, loaded, problems, rebase);
  if (problems.length > 0) throw refusal(problems);
  const blocks: string[] = [];
  patch = await opBlocks(ctx, patch, loaded, problems, blocks, rebase);
  if (problems.length > 0) throw refusal(problems);
  const indexes = new Map<string, ContentIndex>();
  const state = (path: string): PathState => {
    const l = loaded.get(path);
    if (!l || l.text === null) return { exists: false };
    let idx = indexes.get(path);
    if (!idx) indexes.set(path, idx = new ContentIndex(l.text));
    const eol = /\r?\n/.exec(l.text)?.[0] ?? null;
    const out: PathState = { exists: true, lines: idx, eol };
    if (l.memory) out.memory = l.memory;
    if (l.unchanged) out.unchanged = true;
    return out;
  };
  // A rename onto the same file under another spelling (case, normalization).
  const sameState = (path: string, from?: string): PathState => {
    const s = state(path);
    const a = loaded.get(path)?.target.stat;
    const b = from ? loaded.get(from)?.target.stat : undefined;
    const fold = (p: string) => p.normalize("NFC").toLowerCase();
    if (
      s.exists && a && b && a.dev === b.dev && a.ino === b.ino && from &&
      fold(path) === fold(from)
    ) {
      return { ...s, sameAs: from };
    }
    return s;
  };
  const renameOf = new Map(
    patch.files.filter((f) => f.rename !== undefined).map((f) => [
      f.rename!,
      f.path,
    ]),
  );
  const split = splitLinks(
    patch,
    (p) => loaded.get(p)?.target,
    ctx.conf,
    problems,
  );
  patch = split.rest;
  const rules = planFileOps(
    patch,
    (p) => renameOf.has(p) ? sameState(p, renameOf.get(p)) : state(p),
    { rebase },
  );
  for (const m of rules.moves) {
    if (m.read && m.op === "copy") {
      rebased.push(
        `${m.from} copy source: ${movedText(m.read, [m.start, m.end])}`,
      );
    }
  }
  pushAll(problems, rules.problems);
  const done: Done[] = [];
  for (const action of rules.files) {
    const from = loaded.get(action.path)!;
    const oldText = from.text ?? "";
    if (action.action === "delete") {
      if (from.text === null) continue;
      const idx = state(action.path).lines!;
      done.push({
        action,
        from,
        plan: idx.lineCount > 0
          ? [{ at: 1, deleteCount: idx.lineCount, lines: [] }]
          : [],
        oldText,
        newText: "",
        oldCount: idx.lineCount,
      });
      continue;
    }
    if (from.text === null && action.action === "edit") {
      const bad = action.ops.find((op) => !namesNoLine(op));
      if (bad) {
        problems.push({
          code: "NOT_FOUND",
          path: action.path,
          message:
            `no such file in the workspace. To create it, send { path, create: true } with append ops (text form "@@+ PATH"); to edit a file, check the path.`,
        });
        continue;
      }
    }
    if (from.text !== null && !from.memory && action.ops.length > 0) {
      // The rules named it already when it was a rename or a move's end,
      // or refused it whole when it was a create over a file that exists.
      if (
        !problems.some((p) =>
          p.path === action.path &&
          (p.code === "NOT_READ" || p.code === "EXISTS")
        )
      ) {
        problems.push({
          code: "NOT_READ",
          path: action.path,
          message:
            "this session has not read it; read it first, then resend the patch with anchors from that read.",
        });
      }
      continue;
    }
    try {
      // Rebase moves the line ops whose lines only moved: a move's delete
      // and a move's or copy's insert among them (the rules above took the
      // source lines from where rebase places them).
      const { outcome, plan, old } = editIndexed(oldText, action.ops, {
        ...(from.memory ? { memory: from.memory } : {}),
        path: action.path,
        ...(from.memory?.replaced ? { replaced: from.memory.replaced } : {}),
        ...(action.eol ? { eol: action.eol } : {}),
        ...(rebase && from.memory ? { rebase: true } : {}),
      });
      pushAll(rebased, outcome.rebased.map((n) => `${action.path} ${n}`));
      done.push({
        action,
        from,
        ...(action.to ? { to: loaded.get(action.to)!.target } : {}),
        plan,
        ops: outcome.ops,
        oldText,
        newText: outcome.content,
        oldCount: old.lineCount,
      });
    } catch (error) {
      if (!(error instanceof PatchRefusedError)) throw error;
      pushAll(problems, error.problems);
    }
  }
  for (const l of split.links) {
    done.push({
      action: l.action,
      from: { target: l.from, text: null },
      ...(l.to ? { to: l.to } : {}),
      plan: [],
      oldText: "",
      newText: "",
      oldCount: 0,
    });
  }
  if (problems.length > 0) {
    // The lines a refusal shows count as read.
    return { problems, shown: [...loaded.values()].map((l) => l.target) };
  }
  const files: FileOpEdit[] = [];
  const heads: string[] = [];
  const shown: Shown[][] = [];
  for (const d of done) {
    const kind = d.action.action;
    const display = kind === "rename" ? d.action.to! : d.action.path;
    const created = kind === "create" ||
      (kind === "edit" && d.from.text === null);
    const s = summarizeEdit({
      display,
      oldCount: d.oldCount,
      oldLine: (n: number) =>
        n <= d.oldCount ? state(d.action.path).lines!.text(n) : undefined,
      plan: d.plan,
      maxLineChars: ctx.maxLineChars ?? 2000,
      created,
      maxResultBytes: resultShare(done.length),
    });
    const f: FileOpEdit = {
      path: display,
      added: s.added,
      removed: s.removed,
      created,
      anchors: kind === "delete"
        ? ""
        : d.from.memory?.form === "lean"
        ? leanLines(s.anchors)
        : s.anchors,
      // A deleted file's lines are in its history entry, not repeated here.
      diff: kind === "delete"
        ? ""
        : kind === "rename" && s.diff.startsWith(`--- ${display}\n`)
        ? `--- ${d.action.path}\n${s.diff.slice(display.length + 5)}`
        : s.diff,
    };
    if (kind === "delete") f.deleted = true;
    if (kind === "rename") f.renamedFrom = d.action.path;
    const link = d.from.target.link;
    if (link !== undefined) f.link = link;
    files.push(f);
    shown.push(s.shown);
    heads.push(
      link !== undefined
        ? linkHead(d.action.path, display, link)
        : kind === "delete"
        ? `Deleted ${display} (-${s.removed})`
        : kind === "rename"
        ? `Renamed ${d.action.path} → ${display} (+${s.added} -${s.removed})`
        : created
        ? `Created ${display} (+${s.added})`
        : `Edited ${display} (+${s.added} -${s.removed})`,
    );
  }
  const moveLines = rules.moves.map((m) => {
    const target = done.find((d) => d.action.path === m.to)!;
    const at = landedAt(
      target.ops ?? target.action.ops,
      m.index,
      target.oldCount,
    );
    const span = m.start === m.end ? `${m.start}` : `${m.start}–${m.end}`;
    return `${m.op === "move" ? "Moved" : "Copied"} ${
      m.start === m.end ? "line" : "lines"
    } ${span} → ${m.to}:${at}`;
  });
  const changedDone = done.filter((d) =>
    d.action.action !== "edit" || d.newText !== d.oldText
  );
  // Removals first: a case-only rename frees its name before it is claimed.
  const order = [
    ...changedDone.filter((d) => d.action.action === "delete"),
    ...changedDone.filter((d) => d.action.action === "rename"),
    ...changedDone.filter((d) =>
      d.action.action !== "delete" && d.action.action !== "rename"
    ),
  ];
  // A dry run stages nothing.
  const commit = dryRun
    ? { stage: [], records: [] }
    : commitOf(ctx, order, (d: Done) => files[done.indexOf(d)]);
  return {
    checks: done.filter((d) =>
      d.action.action !== "delete" && d.from.target.link === undefined
    ).map((d) => ({
      path: d.action.to ?? d.action.path,
      before: beforeRename(d.action.path, d.action.to, d.from.text),
      after: d.newText,
    })),
    stage: commit.stage,
    entry: () => ({ summary: heads[0], files: commit.records }),
    record: async (warnings, entry) => {
      if (changedDone.length === 0) return;
      await carryRecords(ctx, session, done, shown, warnings, entry);
    },
    answer: ({ warnings, checks, entry }) => {
      const parts = done.map((d, i) =>
        d.action.action === "delete" && entry
          ? `${
            heads[i]
          }. To restore it, undo history entry ${entry} (undo_edit, or hashline undo ${entry}).`
          : [heads[i], files[i].anchors, files[i].diff].filter((s) => s !== "")
            .join("\n")
      );
      if (moveLines.length > 0) parts.unshift(moveLines.join("\n"));
      return patchAnswer({
        dryRun,
        files,
        parts,
        rebased,
        blocks,
        warnings,
        checks,
        entry,
      });
    },
  };
}
