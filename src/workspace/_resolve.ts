/**
 * A patch's files grouped by the real file they name, each path resolved
 * and checked for a write (`src/fs/resolve.ts`, docs/workspace.md
 * "Confinement").
 *
 * @module
 */
import type { Patch, PatchOp } from "../patch/types.ts";
import type { Context } from "./_context.ts";
import type { Target } from "../fs/confine.ts";
import { resolveTarget } from "../fs/resolve.ts";
import { pushAll } from "../_internal/arrays.ts";

/** One file of a patch: its checked target and every op that names it. */
export interface Group {
  /** The file, as resolved before its lock was taken. */
  target: Target;
  /** Its ops, in patch order (from every entry naming the same real file). */
  ops: PatchOp[];
}

/** The ops of a patch grouped by real file, in the order files first appear. */
export async function groupsOf(
  ctx: Context,
  parsed: Patch,
): Promise<{ target: Target; ops: PatchOp[] }[]> {
  const groups: { target: Target; ops: PatchOp[] }[] = [];
  const byReal = new Map<string, { target: Target; ops: PatchOp[] }>();
  for (const file of parsed.files) {
    if (file.path === "") {
      throw new TypeError(
        'Cannot patch: the ops name no file. Start them with "@@ PATH" (text form) or send { files: [{ path, ops }] }.',
      );
    }
    const target = await resolveTarget(ctx, file.path, "write");
    const group = byReal.get(target.real);
    if (group) pushAll(group.ops, file.ops);
    else {
      const g = { target, ops: [...file.ops] };
      byReal.set(target.real, g);
      groups.push(g);
    }
  }
  return groups;
}
