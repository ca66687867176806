/**
 * Settling (docs/history.md, docs/safety.md): at a workspace's first use
 * and before each write, the commits that dead processes left half done
 * are finished or rolled back — their journals, and the log records of
 * one-file commits — under the locks of the files they name.
 *
 * @module
 */
import { join } from "node:path";
import { existsSync, readdirSync } from "../_runtime/fs.ts";
import { lazy } from "../_internal/lazy.ts";
import type { EntryRecord } from "./types.ts";
import type { HistoryLog } from "./log.ts";
import type { LeaseHooks } from "../lock/lock.ts";
import type { RootRef } from "../fs/pin.ts";
import type { RecoveryReport } from "../commit/recover.ts";
import { pushAll } from "../_internal/arrays.ts";
import { errnoOf } from "../_internal/errno.ts";

/** What settling needs of a workspace. */
export interface SettleScope {
  /** The state folder, which holds the journals. */
  readonly stateDir: string;
  /** The root's rules, for the pinned root. */
  readonly conf: { readonly rootRef: RootRef };
  /** The read records, whose temporaries the first use clears. */
  readonly records: { cleanTemps(): Promise<void> };
  /** How long a lock is waited for. */
  readonly lockTimeoutMs: number;
  /** Test hooks of the locks' lease. */
  readonly hooks: LeaseHooks;
  /** The first use's settling, once started. */
  started?: Promise<RecoveryReport>;
  /** Notes for the next answer (a journal set aside, a commit left as it was). */
  notices: string[];
  /** The history log, or null with history off. */
  log(): Promise<HistoryLog | null>;
}

// The lock and recovery steps load on first need: a read takes no lock, and
// settles journals only when there are some.
const loadReals = lazy<typeof import("../lock/reals.ts")>(
  import.meta.url,
  "../lock/reals.ts",
);
const loadRecover = lazy<typeof import("../commit/recover.ts")>(
  import.meta.url,
  "../commit/recover.ts",
);

/**
 * Whether the journal folder may hold a commit to settle: it lists
 * something, or cannot be listed for another reason than being absent
 * (recovery then judges it). An empty or absent folder, the common case,
 * has nothing to recover: a read in a state folder that no multi-file
 * commit has used loads none of the recovery steps.
 */
function journalsPending(stateDir: string): boolean {
  const dir = join(stateDir, "journal");
  // Absent: a look that builds no error, as a failed listing would.
  if (!existsSync(dir)) return false;
  try {
    return readdirSync(dir).length > 0;
  } catch (e) {
    return errnoOf(e) !== "ENOENT";
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
const withLog = new WeakSet<SettleScope>();

/** Recovery at first use of the workspace (once). */
export function start(
  ctx: SettleScope,
): Promise<RecoveryReport> {
  return ctx.started ??= (async () => {
    await ctx.records.cleanTemps();
    return await settle(ctx);
  })();
}

/** Settles commits of dead processes; runs before every write, so a long-lived server never builds on one cut short. */
export async function settle(
  ctx: SettleScope,
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
  ctx: SettleScope,
): Promise<RecoveryReport> {
  if (ctx.started === undefined) return await start(ctx);
  await ctx.started;
  return await settle(ctx);
}

/** The locks of real paths a journal names (those not under the root are left out). */
export async function lockReals(
  ctx: SettleScope,
  reals: string[],
): Promise<() => void> {
  const { lockReals } = await loadReals();
  return await lockReals(ctx.conf.rootRef, reals, ctx.lockTimeoutMs, ctx.hooks);
}
