/**
 * Locking (docs/workspace.md "Concurrency"): a writer first settles the
 * commits that dead processes left half done (`src/history/settle.ts`),
 * then takes the per-file locks of its targets, in one global order, for
 * validation through rename.
 *
 * @module
 */
import { lazy } from "../_internal/lazy.ts";
import type { Context } from "./_context.ts";
import type { Target } from "../fs/confine.ts";
import { lockSpecOf } from "../lock/spec.ts";
import { settle, start } from "../history/settle.ts";

// The lock loads on first need: a read takes no lock.
const loadLock = lazy<typeof import("../lock/lock.ts")>(
  import.meta.url,
  "../lock/lock.ts",
);

/**
 * Takes the locks of `targets`, after settling interrupted commits.
 *
 * @returns Releases them.
 */
export async function lockTargets(
  ctx: Context,
  targets: readonly Target[],
): Promise<() => void> {
  await start(ctx);
  await settle(ctx);
  const { lockFiles } = await loadLock();
  return await lockFiles(
    targets.map((t) => lockSpecOf(ctx.conf.rootRef, t)),
    ctx.lockTimeoutMs,
    ctx.hooks,
  );
}
