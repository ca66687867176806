/**
 * Locking (docs/patch-format.md "Concurrency"): a writer first settles the
 * commits that dead processes left half done (`src/history/settle.ts`),
 * then takes the per-file locks of its targets, in one global order, for
 * validation through rename.
 *
 * @module
 */
import { basename } from "node:path";
import { lazy } from "../_internal/lazy.ts";
import type { Context } from "./_context.ts";
import type { Target } from "../fs/confine.ts";
import type { LockSpec } from "../lock/lock.ts";
import { partsUnder } from "../fs/pin.ts";
import { settle, start } from "../history/settle.ts";

// The lock loads on first need: a read takes no lock.
const loadLock = lazy<typeof import("../lock/lock.ts")>(
  import.meta.url,
  "../lock/lock.ts",
);

/** The lock of one target, named by its folder under the root. */
export function lockSpec(
  ctx: Context,
  target: Target,
): LockSpec {
  const parts = partsUnder(ctx.conf.rootRef, target.dir);
  const have = parts.length - target.missing.length;
  return {
    root: ctx.conf.rootRef,
    parts: parts.slice(0, have),
    rest: [...parts.slice(have), basename(target.real)].join("/"),
    display: target.display,
  };
}

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
    targets.map((t) => lockSpec(ctx, t)),
    ctx.lockTimeoutMs,
    ctx.hooks,
  );
}
