/**
 * Another party's changes met by the session's own commit
 * (docs/reads.md#views-several-edits-from-one-read): the commit's edits are
 * numbered as the file stood on disk, which may hold lines the session
 * never saw. Before the commit is taken into the session's record, every
 * remembered line is carried to where the drift alignment places it in
 * that file, and the views get the same step, so their numbers go on
 * translating exactly.
 *
 * @module
 */
import { placeRecord } from "./_drift.ts";
import type { LineMemory } from "./memory.ts";
import type { LineLookup } from "./types.ts";
import type { CommitEdit } from "./views.ts";

/**
 * The edits that take numbers `r` to `d` for each pair, in the numbering
 * before them; lines between the pairs have no number after them.
 *
 * @param pairs Pairs strictly increasing in both numbers.
 * @param before Lines before (at least the last pair's first number).
 * @param after Lines after.
 * @returns Edits sorted by `at`.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editsBetween } from "./carry.ts";
 * assert.deepEqual(editsBetween([[1, 3], [2, 4]], 2, 4), [{ at: 1, deleteCount: 0, added: 2 }]);
 * ```
 */
export function editsBetween(
  pairs: readonly [number, number][],
  before: number,
  after: number,
): CommitEdit[] {
  const edits: CommitEdit[] = [];
  let r0 = 0;
  let d0 = 0;
  for (const [r, d] of pairs) {
    const deleteCount = r - r0 - 1;
    const added = d - d0 - 1;
    if (deleteCount > 0 || added > 0) {
      edits.push({ at: r0 + 1, deleteCount, added });
    }
    [r0, d0] = [r, d];
  }
  const deleteCount = Math.max(0, before - r0);
  const added = Math.max(0, after - d0);
  if (deleteCount > 0 || added > 0) {
    edits.push({ at: r0 + 1, deleteCount, added });
  }
  return edits;
}

/**
 * Carries a session's record of a file (and its views) to the file as it
 * stood when the session's own commit was planned: each remembered line to
 * where the alignment places it, the lines it cannot place forgotten.
 *
 * @param mem The record (changed in place).
 * @param disk The file as it stood before the commit.
 */
export function carryDrift(mem: LineMemory, disk: LineLookup): void {
  const all: number[] = [];
  for (const [n] of mem.entries()) all.push(n);
  if (all.length === 0) return;
  const place = placeRecord(disk, mem, all, false);
  const pairs: [number, number][] = [];
  for (const n of all) {
    const p = place?.(n);
    if (p?.kind !== "placed") continue;
    const last = pairs[pairs.length - 1];
    if (!last || (n > last[0] && p.at > last[1])) pairs.push([n, p.at]);
  }
  const edits = editsBetween(
    pairs,
    Math.max(mem.lineCount ?? 0, all[all.length - 1]),
    disk.lineCount,
  );
  if (edits.length === 0) return;
  const to = new Map(pairs);
  mem.relocate((n) => to.get(n));
  mem.lineCount = disk.lineCount;
  mem.views?.drift(edits);
}
