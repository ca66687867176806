/**
 * The rules between the parts of one patch (docs/patch-format.md "Moves and
 * file operations"): file entries that create, delete or rename, and moves
 * and copies of lines within a file or across files. Pure: the files as
 * they stand and the session's read records in, a plan per file (plain
 * line edits, judged afterwards by the one rule set of `validate.ts`) or
 * typed problems out.
 *
 * @module
 */
import { validateOps } from "./validate.ts";
import { changed, notRead, type Problem, problem } from "./problems.ts";
import { regionOf, tryAnchor } from "./lookup.ts";
import { editOf, namesNoLine } from "./ops.ts";
import { rebaseOps } from "./rebase.ts";
import type {
  AnchorText,
  FilePatch,
  LineLookup,
  MoveOp,
  Patch,
  PatchOp,
  ReadMemory,
} from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";

/** What the rules need to know of one path named by a patch, before the patch. */
export interface PathState {
  /** A file stands at the path now. */
  exists: boolean;
  /** Its lines now (for an existing file whose lines the patch needs). */
  lines?: LineLookup;
  /** The session's read record of it, if any. */
  memory?: ReadMemory;
  /**
   * The file has the size and content hash the record holds: nothing
   * changed it since the session's last read of any part of it.
   */
  unchanged?: boolean;
  /** Its first line terminator, or null when no line is terminated. */
  eol?: string | null;
  /** For a rename target that exists: it is the source file itself (a case- or normalization-only rename). */
  sameAs?: string;
}

/** What a patch does to one file, once the rules passed. */
export interface FileAction {
  /** The file (as the patch names it). */
  path: string;
  /** Edit in place, create, delete, or rename to `to` (with its edits). */
  action: "edit" | "create" | "delete" | "rename";
  /** The rename target. */
  to?: string;
  /** Plain line edits against the file as read: its own, then those moves and copies put there. */
  ops: PatchOp[];
  /** The terminator new lines take when the file has none yet (a move's source's). */
  eol?: string;
}

/** One move or copy, for the result line `Moved lines A–B → Q:L`. */
export interface MoveNote {
  /** `move` or `copy`. */
  op: "move" | "copy";
  /** Source file. */
  from: string;
  /** First source line. */
  start: number;
  /** Last source line. */
  end: number;
  /**
   * The source lines as read, when rebase found them elsewhere (`start` and
   * `end` then say where they stand now).
   */
  read?: [number, number];
  /** Target file. */
  to: string;
  /** Index of the insert in the target's `ops`. */
  index: number;
}

/** The outcome of {@link planFileOps}. */
export interface FileOpsPlan {
  /** One action per file the patch touches, in the order the paths first appear. */
  files: FileAction[];
  /** The moves and copies, in patch order. */
  moves: MoveNote[];
  /** Every problem found; any refuses the patch. */
  problems: Problem[];
}

/**
 * The source span of a move or copy: lines `start..end`. A block anchor
 * (`L:HH*`) needs the file's syntax tree, which these rules do not have: the
 * workspace resolves it to a range first, and one left here is refused
 * `NOT_A_BLOCK`, naming the range form to use instead.
 *
 * @param op The move or copy.
 * @param path Its source file, named in problems.
 * @returns The span's anchors, or a problem.
 */
export function resolveSpan(
  op: MoveOp,
  path: string,
): { start: AnchorText; end?: AnchorText } | Problem {
  if (op.start.endsWith("*")) {
    return problem(
      "NOT_A_BLOCK",
      `${op.op} ${op.start}: block anchors in moves are not supported yet; name the lines as a range START..END instead.`,
      { path, line: tryAnchor(op.start.slice(0, -1))?.line },
    );
  }
  if (op.end?.endsWith("*")) {
    return problem(
      "BAD_ANCHOR",
      `${op.op} ${op.start}..${op.end}: "*" names a block only on start (or after), never on end.`,
      { path },
    );
  }
  return op.end !== undefined
    ? { start: op.start, end: op.end }
    : { start: op.start };
}

/**
 * The target gap of a move or copy: `after` or `before` an anchor, or the
 * end of a target that has no lines. `after: "C*"` (after a block) is not
 * supported yet (`NOT_A_BLOCK`); `before: "C*"` is `BAD_ANCHOR`.
 */
function resolveGap(
  op: MoveOp,
  path: string,
): { side: "after" | "before"; anchor: AnchorText } | null | Problem {
  if (op.after !== undefined && op.before !== undefined) {
    return problem(
      "BAD_INPUT",
      `${op.op} ${op.start}: give one of after or before, not both.`,
      { path },
    );
  }
  if (op.before?.endsWith("*")) {
    return problem(
      "BAD_ANCHOR",
      `${op.op} ${op.start}: before ${op.before}: "*" names a block only on start or after.`,
      { path },
    );
  }
  if (op.after?.endsWith("*")) {
    return problem(
      "NOT_A_BLOCK",
      `${op.op} ${op.start}: after ${op.after}: block anchors in moves are not supported yet; name the block's last line instead.`,
      { path },
    );
  }
  if (op.after !== undefined) return { side: "after", anchor: op.after };
  if (op.before !== undefined) return { side: "before", anchor: op.before };
  return null;
}

function isProblem(x: unknown): x is Problem {
  return x !== null && typeof x === "object" && "code" in x &&
    "message" in x;
}

function fileOpsOf(f: FilePatch): string[] {
  const out: string[] = [];
  if (f.create) out.push("create");
  if (f.delete) out.push("delete");
  if (f.rename !== undefined) out.push("rename");
  return out;
}

/**
 * Judges the file operations, moves and copies of a patch and turns them
 * into plain line edits per file. Every check is against the files before
 * the patch. The line edits themselves (anchors fresh, lines read, no
 * overlaps) are judged afterwards by `validateOps`, file by file; the
 * source of a copy, which writes nothing at its source, is judged here.
 *
 * @param patch The patch, every path spelled as the workspace shows it.
 * @param state What stands at a path now, with the session's read record.
 * @param options `rebase`: the patch asks for rebase
 *   (docs/patch-format.md#rebase). A move's or copy's source lines are then
 *   placed by the alignment, as any op's lines are: the lines taken are
 *   those the read lines stand as now. The source's delete and the target's
 *   insert stay addressed as read; rebase places them with the file's other
 *   ops.
 * @returns One action per file, the moves for the result, and every problem.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookupFromLines } from "./lookup.ts";
 * import { planFileOps } from "./file_ops.ts";
 * import { memoryFromHashes } from "./memory.ts";
 * import { lineHash32 } from "../hash/fnv.ts";
 * const lines = ["a", "b"];
 * const out = planFileOps(
 *   { files: [{ path: "x.txt", ops: [], moves: [{ op: "move", start: "1:ed", to: "y.txt" }] }, { path: "y.txt", ops: [], create: true }] },
 *   (p) => p === "x.txt"
 *     ? { exists: true, lines: lookupFromLines(lines), memory: memoryFromHashes(lines.map(lineHash32)), eol: "\n" }
 *     : { exists: false },
 * );
 * assert.deepEqual(out.problems, []);
 * assert.deepEqual(out.files[1], { path: "y.txt", action: "create", ops: [{ op: "append", lines: ["a"], literal: true }], eol: "\n" });
 * ```
 */
export function planFileOps(
  patch: Patch,
  state: (path: string) => PathState,
  options: { rebase?: boolean } = {},
): FileOpsPlan {
  const problems: Problem[] = [];
  const byPath = new Map<string, FileAction>();
  const entryOf = new Map<string, FilePatch>();
  const files: FileAction[] = [];
  const renamedTo = new Map<string, string>();
  for (const f of patch.files) {
    const kinds = fileOpsOf(f);
    if (kinds.length > 1) {
      problems.push(problem(
        "BAD_INPUT",
        `one entry may take one file operation, not ${
          kinds.join(" and ")
        }; send them as separate patches.`,
        { path: f.path },
      ));
      continue;
    }
    const prior = entryOf.get(f.path);
    if (prior) {
      if (kinds.length > 0 || fileOpsOf(prior).length > 0) {
        problems.push(problem(
          "BAD_INPUT",
          `the patch names this path in more than one entry beside a file operation; a path takes at most one file operation, with its ops in the same entry.`,
          { path: f.path },
        ));
        continue;
      }
      pushAll(byPath.get(f.path)!.ops, f.ops);
      pushAll(prior.moves ??= [], f.moves ?? []);
      continue;
    }
    const merged: FilePatch = { ...f, moves: [...(f.moves ?? [])] };
    entryOf.set(f.path, merged);
    const action: FileAction = {
      path: f.path,
      action: f.create
        ? "create"
        : f.delete
        ? "delete"
        : f.rename !== undefined
        ? "rename"
        : "edit",
      ops: [...f.ops],
    };
    if (f.rename !== undefined) {
      action.to = f.rename;
      renamedTo.set(f.rename, f.path);
    }
    byPath.set(f.path, action);
    files.push(action);
  }
  // Rules on each file operation, against the files as they stand.
  for (const a of files) {
    const f = entryOf.get(a.path)!;
    const s = state(a.path);
    if (a.action === "create") {
      if (s.exists) {
        problems.push(problem(
          "EXISTS",
          `cannot create it: a file already stands at this path; patch it instead, or choose another path.`,
          { path: a.path },
        ));
      }
      const bad = a.ops.find((op) => !namesNoLine(op));
      if (bad) {
        problems.push(problem(
          "BAD_INPUT",
          `a created file has no lines to anchor on: give it append ops only (got ${bad.op}).`,
          { path: a.path },
        ));
      }
      if ((f.moves ?? []).length > 0) {
        problems.push(problem(
          "BAD_INPUT",
          `a created file has no lines to move or copy out of it.`,
          { path: a.path },
        ));
        f.moves = [];
      }
      continue;
    }
    if (a.action === "delete") {
      if (a.ops.length > 0 || (f.moves ?? []).length > 0) {
        problems.push(problem(
          "BAD_INPUT",
          `delete takes no ops: send the deletion alone (move lines out of it in another entry's ops first, if they should stay).`,
          { path: a.path },
        ));
        f.moves = [];
        a.ops = [];
      }
      if (!s.exists) {
        problems.push(problem(
          "NOT_FOUND",
          `cannot delete it: no such file in the workspace.`,
          { path: a.path },
        ));
        continue;
      }
      pushAll(problems, judgeDelete(a.path, s));
      continue;
    }
    if (!s.exists) {
      if (a.action === "rename") {
        problems.push(problem(
          "NOT_FOUND",
          `cannot rename it: no such file in the workspace.`,
          { path: a.path },
        ));
      }
      continue;
    }
    if (!s.memory) {
      problems.push(notRead(
        a.path,
        a.action === "rename"
          ? "resend the rename (a rename needs a read like any edit)"
          : "resend the patch with anchors from that read",
      ));
    }
    if (a.action === "rename") {
      const q = a.to!;
      if (q === a.path) {
        problems.push(problem(
          "BAD_INPUT",
          `rename names the same path on both ends; give the new path.`,
          { path: a.path },
        ));
        continue;
      }
      const other = byPath.get(q);
      if (other) {
        problems.push(problem(
          "OVERLAP",
          `the rename to "${q}" collides with the entry for "${q}" in the same patch; a path takes one part of a patch.`,
          { path: a.path },
        ));
      } else if (
        [...renamedTo].some(([to, from]) => to === q && from !== a.path)
      ) {
        problems.push(problem(
          "OVERLAP",
          `the rename to "${q}" collides with the rename of "${
            renamedTo.get(q)
          }" to the same path.`,
          { path: a.path },
        ));
      }
      const t = state(q);
      if (t.exists && t.sameAs !== a.path) {
        problems.push(problem(
          "EXISTS",
          `cannot rename it to "${q}": a file already stands there, and a rename never overwrites. Choose another path, or delete that file first.`,
          { path: a.path },
        ));
      }
    }
  }
  // Moves and copies, in patch order: a delete at the source (moves), an insert at the target.
  const moves: MoveNote[] = [];
  for (const a of [...files]) {
    const f = entryOf.get(a.path)!;
    for (const op of f.moves ?? []) {
      const note = planMove(
        a,
        op,
        byPath,
        files,
        state,
        problems,
        options.rebase === true,
      );
      if (note) moves.push(note);
    }
  }
  return { files, moves, problems };
}

/**
 * A delete needs the file seen and unchanged since (docs/patch-format.md
 * "Deleting a file"): a read of any part of it, or its outline, while the
 * file still has the stamp of that read; without a stamp that holds, every
 * line seen and none changed since, as a whole-file write needs.
 */
function judgeDelete(path: string, s: PathState): Problem[] {
  if (!s.memory) {
    return [notRead(
      path,
      "resend the deletion (any part of the file read, or its outline, is enough)",
    )];
  }
  if (s.unchanged) return [];
  const lines = s.lines!;
  const total = lines.lineCount;
  let unseen = 0;
  for (let n = 1; n <= total; n++) {
    const h = s.memory.hash32(n);
    if (h === undefined) unseen++;
    else if (h !== lines.hash32(n)) return [changed(path, n)];
  }
  const was = s.memory.lineCount;
  if (
    s.memory.hash32(total + 1) !== undefined ||
    (was !== undefined && was !== total)
  ) {
    return [changed(path, Math.min(total, was ?? total) + 1)];
  }
  if (unseen > 0) {
    return [problem(
      "NOT_READ",
      `this session has seen only ${
        total - unseen
      } of its ${total} lines and the file changed since that read, so it was not deleted (that would discard lines never seen). Read it again (any part, or its outline), then resend the deletion.`,
      { path },
    )];
  }
  return [];
}

function planMove(
  source: FileAction,
  op: MoveOp,
  byPath: Map<string, FileAction>,
  files: FileAction[],
  state: (path: string) => PathState,
  problems: Problem[],
  rebase: boolean,
): MoveNote | null {
  const path = source.path;
  const span = resolveSpan(op, path);
  const gap = resolveGap(op, path);
  if (isProblem(span)) problems.push(span);
  if (isProblem(gap)) problems.push(gap);
  if (isProblem(span) || isProblem(gap)) return null;
  const toPath = op.to ?? path;
  const s = state(path);
  if (!s.exists) {
    problems.push(problem(
      "NOT_FOUND",
      `cannot ${op.op} lines out of it: no such file in the workspace.`,
      { path },
    ));
    return null;
  }
  const target = byPath.get(toPath);
  const t = toPath === path ? s : state(toPath);
  if (target && (target.action === "delete" || target.action === "rename")) {
    problems.push(problem(
      "OVERLAP",
      `${op.op} ${op.start} → "${toPath}" overlaps the ${
        target.action === "delete" ? "deletion" : `rename to "${target.to}"`
      } of "${toPath}" in the same patch; move into the file where it stays.`,
      { path },
    ));
    return null;
  }
  const created = target?.action === "create";
  if (!created && !t.exists) {
    problems.push(problem(
      "NOT_FOUND",
      `${op.op} target "${toPath}" does not exist; create it in the same patch ({ path, create: true }) or name an existing file.`,
      { path },
    ));
    return null;
  }
  if (created && gap) {
    problems.push(problem(
      "BAD_INPUT",
      `${op.op} target "${toPath}" is created by this patch and has no lines to anchor on; leave out after and before to append.`,
      { path },
    ));
    return null;
  }
  const named = (p: string) =>
    problems.some((q) => q.code === "NOT_READ" && q.path === p);
  if (!created && !t.memory) {
    if (!named(toPath)) {
      problems.push(notRead(toPath, `resend the ${op.op} into it`));
    }
    return null;
  }
  if (!created && !gap && t.lines!.lineCount > 0) {
    problems.push(problem(
      "BAD_INPUT",
      `${op.op} ${op.start}: "${toPath}" has lines, so name the gap with after or before.`,
      { path },
    ));
    return null;
  }
  if (!s.memory) {
    if (!named(path)) problems.push(notRead(path, `resend the ${op.op}`));
    return null;
  }
  const a = tryAnchor(span.start);
  const b = span.end !== undefined ? tryAnchor(span.end) : a;
  const count = s.lines!.lineCount;
  const sourceOp: PatchOp = {
    op: "delete",
    start: span.start,
    ...(span.end !== undefined ? { end: span.end } : {}),
  };
  if (!a || !b || a.line < 1 || b.line < a.line || b.line > count) {
    // The delete's own validation names what is wrong with the span.
    pushAll(
      problems,
      validateOps([sourceOp], s.lines!, { memory: s.memory, path }),
    );
    if (problems.length === 0) {
      problems.push(
        problem(
          "BAD_RANGE",
          `${op.op} ${op.start}: not a range of this file.`,
          { path },
        ),
      );
    }
    return null;
  }
  if (toPath === path && gap) {
    const c = tryAnchor(gap.anchor)?.line;
    const inside = c !== undefined &&
      (op.op === "move"
        ? c >= a.line && c <= b.line
        : gap.side === "after"
        ? c >= a.line && c < b.line
        : c > a.line && c <= b.line);
    if (inside) {
      problems.push(problem(
        "OVERLAP",
        `${op.op} of lines ${a.line}–${b.line} targets ${gap.side} line ${c}, inside the lines it ${op.op}s; choose a line outside that range.`,
        { path, line: c },
      ));
      return null;
    }
  }
  // Under rebase, the source lines are taken where the alignment places the
  // lines as read: the same placement rebase gives the move's delete.
  const placed = rebase
    ? rebaseOps([sourceOp], s.lines!, s.memory).rebased[0]?.to
    : undefined;
  const [first, last] = placed ?? [a.line, b.line];
  if (op.op === "move") {
    source.ops.push(sourceOp);
  } else {
    // A copy writes nothing at its source, yet its lines must be read,
    // unchanged, and not edited by another op of the patch. Rebase places
    // them only where every one is a remembered line, unchanged.
    if (!placed) {
      pushAll(
        problems,
        validateOps([sourceOp], s.lines!, { memory: s.memory, path }).map(
          (p) => ({ ...p, message: `copy source: ${p.message}` }),
        ),
      );
    }
    for (const [i, other] of source.ops.entries()) {
      const r = regionOf(other);
      if (r && r[0] <= b.line && a.line <= r[1]) {
        problems.push(problem(
          "OVERLAP",
          `copy of lines ${a.line}–${b.line} overlaps op ${
            i + 1
          } (${other.op} lines ${r[0]}–${
            r[1]
          }); copy lines no other op changes.`,
          { path, line: Math.max(a.line, r[0]) },
        ));
      }
    }
  }
  const lines: string[] = [];
  for (let n = first; n <= last; n++) lines.push(s.lines!.text(n));
  const insert: PatchOp = !gap
    ? { op: "append", lines, literal: true }
    : gap.side === "after"
    ? { op: "insert_after", anchor: gap.anchor, lines, literal: true }
    : { op: "insert_before", anchor: gap.anchor, lines, literal: true };
  const into = target ?? addEdit(byPath, files, toPath);
  into.ops.push(insert);
  if ((created || t.eol === null || t.eol === undefined) && s.eol) {
    into.eol = s.eol;
  }
  return {
    op: op.op,
    from: path,
    start: first,
    end: last,
    ...(placed ? { read: [a.line, b.line] as [number, number] } : {}),
    to: toPath,
    index: into.ops.length - 1,
  };
}

function addEdit(
  byPath: Map<string, FileAction>,
  files: FileAction[],
  path: string,
): FileAction {
  const a: FileAction = { path, action: "edit", ops: [] };
  byPath.set(path, a);
  files.push(a);
  return a;
}

/**
 * Where the first line of the insert `ops[index]` stands once `ops` are
 * applied (1-based), for `Moved lines A–B → Q:L`.
 *
 * @param ops A file's validated ops.
 * @param index The insert's index.
 * @param lineCount Lines the file had.
 * @returns The line number.
 */
export function landedAt(
  ops: readonly PatchOp[],
  index: number,
  lineCount: number,
): number {
  const at = editOf(ops[index], () => lineCount).at;
  let line = at;
  ops.forEach((op, i) => {
    if (i === index) return;
    const g = editOf(op, () => lineCount);
    const put = g.lines.length;
    if (g.deleteCount > 0) {
      if (g.at + g.deleteCount - 1 < at) line += put - g.deleteCount;
    } else if (g.at < at || (g.at === at && i < index)) line += put;
  });
  return line;
}
