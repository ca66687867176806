/**
 * The rules between the parts of one patch (docs/patch-format.md "Moves and
 * file operations"): file entries that create, delete or rename, with the
 * moves and copies of lines they hold (planned in `plan_moves.ts`). Pure:
 * the files as they stand and the session's read records in, a plan per
 * file (plain line edits, judged afterwards by the one rule set of
 * `validate.ts`) or typed problems out.
 *
 * @module
 */

import { changed, notRead, type Problem, problem } from "./problems.ts";
import { namesNoLine } from "./ops.ts";
import type { FilePatch, Patch } from "./types.ts";
import { pushAll } from "../_internal/arrays.ts";
import type {
  FileAction,
  FileOpsPlan,
  MoveNote,
  PathState,
} from "./file_actions.ts";
import { planMove } from "./plan_moves.ts";

export type { FileAction, FileOpsPlan, MoveNote, PathState };
export { landedAt, resolveSpan } from "./plan_moves.ts";

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
