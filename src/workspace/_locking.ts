/**
 * Locking (docs/patch-format.md "Concurrency"): a writer first settles the
 * commits that dead processes left half done, then takes the per-file
 * locks of its targets, in one global order, for validation through rename.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";
import { lstatSync, readdirSync } from "../_runtime/fs.ts";
import { lazy } from "../_internal/lazy.ts";
import type { EntryRecord } from "../history/types.ts";
import type { Context } from "./_context.ts";
import type { Target } from "../fs/confine.ts";
import type { LockSpec } from "../lock/lock.ts";
import { partsUnder } from "../fs/pin.ts";
import type { RecoveryReport } from "../commit/recover.ts";
import { pushAll } from "../_internal/arrays.ts";
import { errnoOf } from "../_internal/errno.ts";

// The lock and recovery steps load on first need: a read takes no lock, and
// settles journals only when there are some.
const loadLock = lazy<typeof import("../lock/lock.ts")>(
  import.meta.url,
  "../lock/lock.ts",
);
const loadRecover = lazy<typeof import("../commit/recover.ts")>(
  import.meta.url,
  "../commit/recover.ts",
);

/**
 * Whether the journal folder may hold a commit to settle: it lists
 * something, or cannot be listed (recovery then makes it, or finds nothing).
 * An empty folder, the common case, has nothing to recover.
 */
function journalsPending(stateDir: string): boolean {
  try {
    return readdirSync(join(stateDir, "journal")).length > 0;
  } catch {
    return true;
  }
}

/**
 * Whether the history may name a commit to settle: its writers folder
 * (docs/history.md, "Crash consistency and cost") lists something, or
 * cannot be listed for another reason than being absent. With none, the
 * history log is not loaded at all, so a read that finds nothing to settle
 * does not pay for the write path's modules (bench/cli_startup.ts).
 */
function writersListed(stateDir: string): boolean {
  try {
    return readdirSync(join(stateDir, "history", "writers")).length > 0;
  } catch (e) {
    return errnoOf(e) !== "ENOENT";
  }
}

/** Workspaces whose history log recovery has loaded. */
const withLog = new WeakSet<Context>();

/** Recovery at first use of the workspace (once). */
export function start(
  ctx: Context,
): Promise<RecoveryReport> {
  return ctx.started ??= (async () => {
    await ctx.records.cleanTemps();
    return await settle(ctx);
  })();
}

/** Settles commits of dead processes; runs before every write, so a long-lived server never builds on one cut short. */
export async function settle(
  ctx: Context,
): Promise<RecoveryReport> {
  const journals = journalsPending(ctx.stateDir);
  // Once the log is loaded, its own listing of the writers is the only one.
  const loads = journals || withLog.has(ctx) || writersListed(ctx.stateDir);
  const log = loads ? await ctx.log() : null;
  if (loads) withLog.add(ctx);
  const gone = log?.deadWriters() ?? [];
  if (gone.length === 0 && !journals) {
    return { rolledForward: 0, rolledBack: 0, malformed: [], skipped: [] };
  }
  const { recoverJournals, recoverLogged } = await loadRecover();
  const report = await recoverJournals(
    ctx.stateDir,
    ctx.conf.rootRef,
    (reals) => lockReals(ctx, reals),
    // The entry of a commit finished here, unless the log holds it.
    log ? (r) => log.append(r as EntryRecord, true) : undefined,
  );
  if (log && gone.length > 0) {
    const logged = await recoverLogged(
      ctx.conf.rootRef,
      gone,
      (reals) => lockReals(ctx, reals),
      (id) => log.voidEntry(id),
    );
    report.rolledBack += logged.voided;
    report.rolledForward += logged.finished;
    pushAll(report.skipped, logged.skipped);
  }
  for (const m of report.malformed) {
    ctx.notices.push(`A damaged commit journal was set aside: ${m}.`);
  }
  for (const f of report.skipped) {
    ctx.notices.push(
      `An interrupted commit was not finished for ${f}: the file had changed since.`,
    );
  }
  return report;
}

/** Recovery on demand: at first use, else again now. */
export async function recover(
  ctx: Context,
): Promise<RecoveryReport> {
  if (ctx.started === undefined) return await start(ctx);
  await ctx.started;
  return await settle(ctx);
}

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

/** The locks of real paths a journal names (those not under the root are left out). */
export async function lockReals(
  ctx: Context,
  reals: string[],
): Promise<() => void> {
  const specs: LockSpec[] = [];
  for (const real of reals) {
    try {
      // A folder the commit had not made yet when it died is locked where
      // a writer locks a file in a missing folder: in its nearest folder.
      const parts = partsUnder(ctx.conf.rootRef, dirname(real));
      let have = parts.length;
      while (
        have > 0 &&
        !isFolder(join(ctx.conf.rootRef.real, ...parts.slice(0, have)))
      ) {
        have--;
      }
      specs.push({
        root: ctx.conf.rootRef,
        parts: parts.slice(0, have),
        rest: [...parts.slice(have), basename(real)].join("/"),
        display: real,
      });
    } catch {
      // Not under this root: recovery skips such entries anyway.
    }
  }
  const { lockFiles } = await loadLock();
  return await lockFiles(specs, ctx.lockTimeoutMs, ctx.hooks);
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

/** Whether a path is a folder (not following a symlink). */
function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
