/**
 * Resolving (docs/workspace.md "Confinement"): a caller's path checked
 * against the root and the rules of reads or writes; a patch's files
 * grouped by the real file they name.
 *
 * @module
 */
import { errnoOf } from "../_internal/errno.ts";
import { PermissionError } from "../errors.ts";
import { changedError } from "../patch/problems.ts";
import type { Patch, PatchOp } from "../patch/types.ts";
import type { Context } from "./_context.ts";
import type { ResolveOptions, Target } from "../fs/confine.ts";
import { pushAll } from "../_internal/arrays.ts";

/** One file of a patch: its checked target and every op that names it. */
export interface Group {
  /** The file, as resolved before its lock was taken. */
  target: Target;
  /** Its ops, in patch order (from every entry naming the same real file). */
  ops: PatchOp[];
}

/**
 * Resolves a path and checks it for a read or a write.
 *
 * @throws {PatchRefusedError} `CHANGED` when a folder on the path changed while it was checked.
 * @throws {PermissionError} A write to a read-only file (it is not replaced behind its mode).
 * @throws {OutsideRootError} {@link DeniedError} {@link NotAFileError} … as the confinement rules say.
 */
export async function resolveTarget(
  ctx: Context,
  path: unknown,
  mode: "read" | "write",
  options: ResolveOptions = {},
): Promise<Target> {
  let target: Target;
  try {
    target = await ctx.conf.resolve(path, options);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") {
      throw changedError(typeof path === "string" ? path : undefined);
    }
    throw error;
  }
  ctx.conf.check(target, mode);
  if (mode === "write") refuseReadOnly(target);
  return target;
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

/** Refuses to replace a read-only file behind its mode. */
function refuseReadOnly(target: Target): void {
  if (target.stat && (target.stat.mode & 0o222) === 0) {
    throw new PermissionError(
      `Cannot edit "${target.display}": the file is read-only (mode ${
        target.stat.mode.toString(8)
      }), and it is not replaced behind that. Make it writable first if it should change.`,
    );
  }
}
