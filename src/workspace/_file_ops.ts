/**
 * A patch with file operations, moves or copies (docs/patch-format.md
 * "Moves and file operations"): every path it names resolved and checked
 * (confinement, `.git`/`.hashline`, `deny`) before any read rule → every
 * file locked → the rules between its parts (`patch/file_ops.ts`) and each
 * file's line edits (`patch/`) judged against the files as they stand →
 * deletions, renames, creations and edits staged and committed all or
 * none with one history entry → read records carried over.
 *
 * @module
 */
import { NotAFileError, PatchRefusedError, TooLargeError } from "../errors.ts";
import type { CheckMode } from "../check/mod.ts";
import { beforeRename } from "../check/rename.ts";
import { hunksOf } from "../history/hunks.ts";
import { recordFile } from "../history/record.ts";
import type { RecordFile } from "../history/types.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import { leanLines, parseBareAnchor } from "../anchor/lean.ts";
import { ContentIndex } from "../patch/_content.ts";
import { splitLines } from "../anchor/split.ts";
import {
  type FileAction,
  landedAt,
  type PathState,
  planFileOps,
} from "../patch/file_ops.ts";
import { namesNoLine } from "../patch/ops.ts";
import { LineMemory } from "../patch/memory.ts";
import { stillStamped } from "../records/stamp.ts";
import { movedText } from "../patch/rebase.ts";
import { changed, type Problem, refusal } from "../patch/problems.ts";
import type { MoveOp, Patch, PatchOp, PlannedEdit } from "../patch/types.ts";
import { sameIdentity, type Target } from "../fs/confine.ts";
import { commitFiles, type StageEntry } from "../commit/commit.ts";
import { foldersToMake } from "../commit/stage.ts";
import { relative } from "node:path";
import type { Context } from "./_context.ts";
import { recordOf, settleThenRelease } from "./_history.ts";
import { loadWhole } from "../fs/load.ts";
import { lockTargets } from "./_locking.ts";
import { loadEditing } from "./_plan.ts";
import { noteOwnCommit, recordRefusal, remember } from "../records/update.ts";
import { type MovedNote, noteMoved } from "../patch/resolve_views.ts";
import { throughViews } from "../records/views.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { refuseTwoSpellings } from "../patch/spellings.ts";
import { type Loaded, moveBlocks, opBlocks } from "../block/op_blocks.ts";
import { actsOnName, linkHead, splitLinks } from "../history/links.ts";
import { patchAnswer, resultShare } from "../result/notes.ts";
import type { FileEdit, PatchResult } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";

const encoder = new TextEncoder();

/** Whether a patch holds a file operation, a move or a copy. */
export function hasFileOps(patch: Patch): boolean {
  return patch.files.some((f) =>
    f.create === true || f.delete === true || f.rename !== undefined ||
    (f.moves?.length ?? 0) > 0
  );
}

/** One file's outcome, ready to stage and report. */
interface Done {
  action: FileAction;
  from: Loaded;
  /** The rename target. */
  to?: Target;
  plan: PlannedEdit[];
  /** The ops as applied (rebase may have moved them from where they were read). */
  ops?: PatchOp[];
  oldText: string;
  newText: string;
  oldCount: number;
}

/**
 * Validates and commits a patch with file operations, moves or copies, all
 * or none, as one history entry.
 *
 * @throws {PatchRefusedError} Listing every problem, across every file.
 * @throws {DeniedError} {@link OutsideRootError} … for a path the rules refuse, before any read rule.
 */
export async function patchFileOps(
  ctx: Context,
  session: string,
  parsed: Patch,
  dryRun: boolean,
  check?: CheckMode,
  rebase = false,
  numbersNow = false,
): Promise<PatchResult> {
  // Every path the patch names, checked before anything is read.
  const targets = new Map<string, Target>();
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
  const canonical: Patch = { files: [] };
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
  const known = new Map<string, LineMemory | undefined>();
  for (const t of targets.values()) {
    const mem = (await ctx.records.get(session, t.real))?.clone();
    if (mem && numbersNow) mem.numbersNow = true;
    known.set(t.display, mem);
  }
  // One lock per file: two spellings of one file (a case-only rename on a
  // file system that folds case) share it.
  const seen = new Set<string>();
  const locks = [...targets.values()].filter((t) => {
    const id = t.stat ? `${t.stat.dev}:${t.stat.ino}` : `new:${t.real}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const release = dryRun ? () => {} : await lockTargets(ctx, locks);
  try {
    return await locked(
      ctx,
      session,
      canonical,
      targets,
      known,
      dryRun,
      check,
      rebase,
    );
  } finally {
    await settleThenRelease(ctx, release, !dryRun);
  }
}

/**
 * Bare line numbers in moves and copies (`12`, `12*`, after a lean read)
 * become the anchors the session's record holds for those lines: the source
 * span against the source file's record, the target gap against the target
 * file's. A line the record does not hold is `NOT_READ` (`OUT_OF_RANGE`
 * past the end of the file); a file with no
 * record at all is left to the move rules, which ask for a read of it.
 */
function bareMoves(
  patch: Patch,
  loaded: Map<string, Loaded>,
  problems: Problem[],
): Patch {
  const anchorOf = (
    text: string | undefined,
    path: string,
    label: string,
  ): string | undefined => {
    const bare = parseBareAnchor(text);
    const memory = loaded.get(path)?.memory;
    if (!bare || !memory) return text;
    const h = memory.hash32(bare.line);
    const now = loaded.get(path)?.text;
    const count = h === undefined && now != null
      ? splitLines(now).lines.length
      : undefined;
    if (count !== undefined && bare.line > count) {
      problems.push({
        code: "OUT_OF_RANGE",
        path,
        line: bare.line,
        message:
          `${label}: line ${bare.line} is out of range: the file has ${count} ${
            count === 1 ? "line" : "lines"
          }; name a line from 1 to ${count}, then resend.`,
      });
      return text;
    }
    if (h === undefined) {
      problems.push({
        code: "NOT_READ",
        path,
        line: bare.line,
        message:
          `${label}: line ${bare.line} was never shown to this session: read it first (offset ${bare.line}), then resend.`,
      });
      return text;
    }
    return `${bare.line}:${hex2(foldHash(h))}${bare.block ? "*" : ""}`;
  };
  const files = patch.files.map((f) => {
    if (!f.moves?.length) return f;
    const moves = f.moves.map((m): MoveOp => {
      const label = `${m.op} ${m.start}${
        m.end !== undefined ? `..${m.end}` : ""
      }`;
      const target = m.to ?? f.path;
      const next: MoveOp = { ...m, start: anchorOf(m.start, f.path, label)! };
      if (m.end !== undefined) next.end = anchorOf(m.end, f.path, label);
      if (m.after !== undefined) next.after = anchorOf(m.after, target, label);
      if (m.before !== undefined) {
        next.before = anchorOf(m.before, target, label);
      }
      return next;
    });
    return { ...f, moves };
  });
  return { ...patch, files };
}

async function locked(
  ctx: Context,
  session: string,
  patch: Patch,
  first: Map<string, Target>,
  known: Map<string, LineMemory | undefined>,
  dryRun: boolean,
  check?: CheckMode,
  rebase = false,
): Promise<PatchResult> {
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
  try {
    return await lockedResolved(
      ctx,
      session,
      patch,
      loaded,
      dryRun,
      rebase,
      problems,
      rebased,
      check,
    );
  } catch (error) {
    if (error instanceof PatchRefusedError) {
      for (const [path, notes] of moved) {
        noteMoved(error.problems, notes, path);
      }
    }
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
  problems: Problem[],
  rebased: string[],
  check?: CheckMode,
): Promise<PatchResult> {
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
  const { editIndexed, summarizeEdit } = await loadEditing();
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
    // The lines a refusal shows count as read (a dry run changes no state).
    if (!dryRun) {
      await recordRefusal(
        ctx,
        session,
        [...loaded.values()].map((l) => ({ target: l.target, ops: [] })),
        problems,
      );
    }
    throw refusal(problems);
  }

  const syntax = await ctx.syntax.run(
    done.filter((d) =>
      d.action.action !== "delete" && d.from.target.link === undefined
    ).map((d) => ({
      path: d.action.to ?? d.action.path,
      before: beforeRename(d.action.path, d.action.to, d.from.text),
      after: d.newText,
    })),
    check,
  );
  const files: (FileEdit & {
    deleted?: boolean;
    renamedFrom?: string;
    link?: string;
  })[] = [];
  const heads: string[] = [];
  const shown: { start: number; hashes: number[] }[][] = [];
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
    const f: (typeof files)[number] = {
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
  const warnings = [...syntax.warnings, ...ctx.takeNotices()];
  let entryId: string | undefined;
  const changedDone = done.filter((d) =>
    d.action.action !== "edit" || d.newText !== d.oldText
  );
  if (!dryRun && changedDone.length > 0) {
    const stage: StageEntry[] = [];
    const records: RecordFile[] = [];
    // Removals first: a case-only rename frees its name before it is claimed.
    const order = [
      ...changedDone.filter((d) => d.action.action === "delete"),
      ...changedDone.filter((d) => d.action.action === "rename"),
      ...changedDone.filter((d) =>
        d.action.action !== "delete" && d.action.action !== "rename"
      ),
    ];
    for (const d of order) {
      const kind = d.action.action;
      const f = files[done.indexOf(d)];
      const mode = d.from.target.stat?.mode;
      if (kind === "delete" || kind === "rename") {
        stage.push({ target: d.from.target, remove: true, old: d.from.bytes });
      }
      if (kind === "rename") {
        // On a file system that folds case or normalization, Q is P itself
        // now: it is claimed once P's removal freed the name.
        const freed = d.to!.exists;
        stage.push({
          target: freed ? { ...d.to!, exists: false, stat: undefined } : d.to!,
          ...(f.link !== undefined
            ? { link: f.link }
            : { bytes: encoder.encode(d.newText) }),
          ...(mode !== undefined && f.link === undefined ? { mode } : {}),
          ...(freed ? { freed: true } : {}),
        });
      } else if (kind !== "delete") {
        stage.push({
          target: d.from.target,
          bytes: encoder.encode(d.newText),
          ...(d.from.bytes ? { old: d.from.bytes } : {}),
        });
      }
      const r = recordFile({
        path: f.path,
        added: f.added,
        removed: f.removed,
        created: f.created,
        deleted: kind === "delete",
        oldText: d.oldText,
        newText: d.newText,
        plan: kind === "delete" ? undefined : d.plan,
      });
      if (kind === "delete") r.hunks = hunksOf(d.oldText, "");
      if (kind === "rename") r.renamedFrom = d.action.path;
      if (f.link !== undefined) r.link = f.link;
      else if ((kind === "delete" || kind === "rename") && mode !== undefined) {
        r.mode = mode & 0o7777;
      }
      const made = kind === "rename" || f.created
        ? foldersToMake(ctx.conf.rootRef, [{ target: d.to ?? d.from.target }])
        : [];
      if (made.length > 0) {
        r.dirs = made.map((m) => relative(ctx.conf.rootRef.real, m));
      }
      records.push(r);
    }
    const record = await recordOf(ctx, session, heads[0], records);
    await commitFiles(ctx.stateDir, ctx.conf, stage, ctx.hooks, record);
    entryId = record?.id;
    await carryRecords(ctx, session, done, shown, warnings, entryId);
  }
  const parts = done.map((d, i) =>
    d.action.action === "delete" && entryId
      ? `${
        heads[i]
      }. To restore it, undo history entry ${entryId} (undo_edit, or hashline undo ${entryId}).`
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
    checks: syntax.checks,
    entry: entryId,
  });
}

/**
 * After the commit: an edited or created file's record follows its lines;
 * a renamed file's record (the committer's) moves to the new path and
 * every other session's record of the old path is dropped, as every
 * session's record of a deleted file is.
 */
async function carryRecords(
  ctx: Context,
  session: string,
  done: Done[],
  shown: { start: number; hashes: number[] }[][],
  warnings: string[],
  entry?: string,
): Promise<void> {
  for (const [i, d] of done.entries()) {
    // A link has no lines, and no session's record is keyed by it.
    if (d.from.target.link !== undefined) continue;
    const kind = d.action.action;
    const real = d.from.target.real;
    if (kind === "delete") {
      await ctx.records.dropEverywhere(real).catch(() => {});
      continue;
    }
    let mem = (await ctx.records.get(session, real))?.clone();
    if (!mem) {
      mem = new LineMemory();
      if (d.from.text === null) {
        const idx = new ContentIndex(d.newText);
        const hashes: number[] = [];
        for (let n = 1; n <= idx.lineCount; n++) {
          hashes.push(lineHash32(idx.text(n)));
        }
        mem.see(1, hashes);
        mem.lineCount = idx.lineCount;
      }
    }
    noteOwnCommit(mem, d.plan, shown[i], entry);
    const to = kind === "rename" ? d.to!.real : real;
    if (kind === "rename") {
      await ctx.records.dropEverywhere(real).catch(() => {});
    }
    await remember(ctx, session, to, mem, warnings);
  }
}
