/**
 * Moves and copies of lines (docs/patch-format.md "Moves and file
 * operations"): where a move's source span and target gap are, the plain
 * line edits it turns into at both ends, and where its lines land.
 *
 * @module
 */
import { validateOps } from "./validate.ts";
import { notRead, type Problem, problem } from "./problems.ts";
import { regionOf, tryAnchor } from "./lookup.ts";
import { editOf } from "./ops.ts";
import { rebaseOps } from "./rebase.ts";
import type { AnchorText, MoveOp, PatchOp } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";
import type { FileAction, MoveNote, PathState } from "./file_actions.ts";

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

/** Whether a value is a {@link Problem} rather than what was asked for. */
export function isProblem(x: unknown): x is Problem {
  return x !== null && typeof x === "object" && "code" in x &&
    "message" in x;
}

/**
 * Plans one move or copy out of `source`: checks its span, its target gap
 * and the target file, then adds the delete (for a move) to the source's ops
 * and the insert to the target's.
 *
 * @returns The note for the result, or null when a problem was pushed.
 */
export function planMove(
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
