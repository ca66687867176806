/**
 * Resolving (docs/workspace.md "Confinement"): a caller's path checked
 * against the root and the rules of reads or writes.
 *
 * @module
 */
import { errnoOf } from "../_internal/errno.ts";
import { changedError, PermissionError } from "../errors.ts";
import type { Confinement, ResolveOptions, Target } from "./confine.ts";

/** What resolving needs of a workspace: the root's rules. */
export interface ResolveScope {
  /** The root and its rules. */
  readonly conf: Confinement;
}

/**
 * Resolves a path and checks it for a read or a write.
 *
 * @throws {PatchRefusedError} `CHANGED` when a folder on the path changed while it was checked.
 * @throws {PermissionError} A write to a read-only file (it is not replaced behind its mode).
 * @throws {OutsideRootError} {@link DeniedError} {@link NotAFileError} … as the confinement rules say.
 */
export async function resolveTarget(
  ctx: ResolveScope,
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
