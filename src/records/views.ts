/**
 * Views in the write path (docs/reads.md#views-several-edits-from-one-read):
 * the anchors of a patch rewritten in each file's numbering now, through
 * the views the session was shown of it, before the rules judge them.
 *
 * @module
 */
import { splitLines } from "../anchor/split.ts";
import type { LineMemory } from "../patch/memory.ts";
import { lookupFromLines } from "../patch/lookup.ts";
import type { Problem } from "../patch/problems.ts";
import {
  type MovedNote,
  resolveThroughViews,
  type ViewedFile,
} from "../patch/resolve_views.ts";
import type { LineLookup, Patch } from "../patch/types.ts";

/**
 * Every anchor of the patch, resolved through the views the session was
 * shown of its file (docs/reads.md#views-several-edits-from-one-read): a
 * move's target anchor through the target file's views.
 */
export function throughViews(
  patch: Patch,
  loaded: ReadonlyMap<string, { text: string | null; memory?: LineMemory }>,
  problems: Problem[],
  moved: Map<string, Map<number, MovedNote>>,
): Patch {
  const lookups = new Map<string, LineLookup>();
  const fileOf = (path: string): ViewedFile => {
    const l = loaded.get(path);
    const text = l?.text;
    return {
      views: l?.memory?.numbersNow ? undefined : l?.memory?.views,
      lean: l?.memory?.form === "lean",
      known: (n: number) => l?.memory?.hash32(n) !== undefined,
      get now(): LineLookup | undefined {
        if (text === null || text === undefined) return undefined;
        let idx = lookups.get(path);
        if (!idx) {
          lookups.set(path, idx = lookupFromLines(splitLines(text).lines));
        }
        return idx;
      },
    };
  };
  const files = patch.files.map((f) => {
    const ops = resolveThroughViews(f.ops, fileOf, f.path);
    const moves = f.moves
      ? resolveThroughViews(f.moves, fileOf, f.path)
      : undefined;
    problems.push(...ops.problems, ...(moves?.problems ?? []));
    const notes = new Map([...ops.moved, ...(moves?.moved ?? [])]);
    if (notes.size > 0) moved.set(f.path, notes);
    return { ...f, ops: ops.ops, ...(moves ? { moves: moves.ops } : {}) };
  });
  return { ...patch, files };
}
