/**
 * The history's lock (`<state>/history/lock`): the same lock file as the
 * file locks (`src/lock/`), naming its holder (pid, host boot id, PID
 * namespace) and a lease refreshed while held, so a writer in another PID
 * namespace sharing the state folder is never judged dead by its pid alone.
 * Inside one process, takers queue on a promise chain and never poll.
 *
 * @module
 */
import { closeLater } from "../_runtime/fs.ts";
import { joinQueue, type LockQueues } from "../lock/queue.ts";
import { join } from "node:path";
import { setInterval } from "node:timers";
import { touchHandle } from "../_runtime/host.ts";
import { processId } from "../_runtime/process.ts";
import { HashlineError } from "../errors.ts";
import {
  holderLine,
  LEASE_MS,
  local,
  provablyDead,
  REFRESH_MS,
} from "../lock/holder.ts";
import {
  EMPTY_STALE_MS,
  type Holder,
  releaseIfMine,
  tryLock,
} from "../lock/lock_file.ts";

const chains: LockQueues = new Map();

function stale(holder: Holder): boolean {
  const age = Date.now() - holder.mtimeMs;
  const named = holder.named;
  if (named === null) return age > EMPTY_STALE_MS;
  // This process never holds the history lock across a queue turn.
  if (named.pid === processId() && local(named)) return age > LEASE_MS;
  return provablyDead(named) || age > LEASE_MS;
}

async function acquire(
  dir: string,
  timeoutMs: number,
): Promise<() => void> {
  const folder = (n: string) => join(dir, n);
  const path = folder("lock");
  const token = holderLine(Math.random().toString(36).slice(2));
  const deadline = Date.now() + timeoutMs;
  for (let wait = 1;; wait = Math.min(wait * 2, 20)) {
    const fd = tryLock(folder, "lock", token, stale, "lock");
    if (typeof fd === "number") {
      const lease = setInterval(() => touchHandle(fd), REFRESH_MS);
      (lease as { unref?: () => void }).unref?.();
      return () => {
        clearInterval(lease);
        releaseIfMine(path, token, fd);
        // Freed at this last close, after the answer.
        closeLater(fd);
      };
    }
    if (fd === "again") continue;
    if (Date.now() > deadline) {
      throw new HashlineError(
        "BUSY",
        `Cannot keep the edit history: its lock (${path}) stayed taken for ${
          Math.round(timeoutMs / 1000)
        } s. Try again.`,
      );
    }
    await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * Takes the history lock of a history folder, waiting behind this
 * process's other takers first, then for other processes.
 *
 * @param dir The history folder (it must exist).
 * @param timeoutMs How long to wait for another process.
 * @returns A function that frees it.
 * @throws {HashlineError} `BUSY` when it stays taken past the deadline.
 */
export async function lockHistory(
  dir: string,
  timeoutMs = 30_000,
): Promise<() => void> {
  const { prev, finish } = joinQueue(chains, dir);
  await prev;
  try {
    const free = await acquire(dir, timeoutMs);
    return () => {
      free();
      finish();
    };
  } catch (error) {
    finish();
    throw error;
  }
}
