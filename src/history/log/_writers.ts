/**
 * Writer files (docs/history.md, "Crash consistency and cost"): a process
 * that appends a record naming its commit (the record is the commit's
 * journal) first makes `writers/ID.PID`, which names the first id it may
 * have written and the host's boot. Recovery looks for the writers whose
 * process is gone and settles the commits their records name.
 *
 * @module
 */
import { join } from "node:path";
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  utimes,
  writeAllSync,
} from "../../_runtime/fs.ts";
import { processId } from "../../_runtime/process.ts";
import { bootId } from "../../_runtime/host.ts";
import {
  LEASE_MS,
  localId,
  REFRESH_MS,
  tempId,
  tempOwnerGone,
} from "../../lock/holder.ts";
import { errnoOf } from "../../_internal/errno.ts";
import { syncFolder } from "../../fs/sync_folder.ts";
import type {
  CommitIntent,
  GoneWriter,
  LoggedCommit,
} from "../../commit/types.ts";
import { idOf, isVoid } from "./_frames.ts";
import { DISORDER, type ReadStats, scanBack } from "./_offsets.ts";

const encoder = new TextEncoder();

/** A SHA-256 digest in hex. */
const HEX64 = /^[0-9a-f]{64}$/;

/** A commit as its record names it in the log. */
export interface CommitMark {
  /** The writer file of the process that made it. */
  w: string;
  t: string;
  n: string;
  i: number | null;
  /** {@link CommitIntent.after}. */
  a?: string;
  /** {@link CommitIntent.before}. */
  b?: string | null;
}

/** The mark a record carries for `commit`, made by `writer`. */
export function commitMark(writer: string, commit: CommitIntent): CommitMark {
  return {
    w: writer,
    t: commit.target,
    n: commit.temp,
    i: commit.newIno,
    ...(commit.after === undefined
      ? {}
      : { a: commit.after, b: commit.before ?? null }),
  };
}

/** This process's writer file in each history folder (made on first need). */
const writers = new Map<string, string>();

/**
 * This process's writer file in the history folder `dir` (made and flushed
 * before its first record that names a commit is appended): recovery looks
 * for the records of writers whose process is gone, back from the log's end
 * to the first id the file names. Its second line names the host's boot
 * (`-` when unknown).
 */
export function writerFile(dir: string, floor: number): string {
  let name = writers.get(dir);
  if (name !== undefined) return name;
  name = `${tempId()}.${processId()}`;
  const folder = join(dir, "writers");
  try {
    mkdirSync(folder);
  } catch (error) {
    if (errnoOf(error) !== "EEXIST") throw error;
  }
  const fd = openSync(
    join(folder, name),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    0o644,
  );
  try {
    writeAllSync(fd, encoder.encode(`${floor}\n${bootId() ?? "-"}\n`));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  syncFolder(folder);
  writers.set(dir, name);
  // Its time is its lease, for writers that cannot judge this process by
  // its pid (another PID namespace or host, or a later boot).
  const file = join(folder, name);
  const lease = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => {});
  }, REFRESH_MS);
  (lease as { unref?: () => void }).unref?.();
  return name;
}

/**
 * Writers of the history folder `dir` whose process is gone and whose file
 * is still there: provably (this host boot and PID namespace, pid dead), or,
 * for a writer of another boot, namespace or host, once its file's lease has
 * run out. `pendingOf` finds the commits a writer's records name.
 */
export function deadWriters(
  dir: string,
  pendingOf: (writer: string, floor: number) => LoggedCommit[],
): GoneWriter[] {
  const folder = join(dir, "writers");
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const mine = writers.get(dir);
  const out: GoneWriter[] = [];
  for (const name of names) {
    if (name === mine) continue;
    const m = /^([0-9a-f]{16})\.(\d+)$/.exec(name);
    if (!m) continue;
    // A writer of this boot and namespace is judged by its pid; any other
    // by its lease (a live writer refreshes its file's time).
    const dead = localId(m[1]);
    if (dead) {
      if (!tempOwnerGone(Number(m[2]), m[1])) continue;
    } else {
      try {
        if (Date.now() - lstatSync(join(folder, name)).mtimeMs <= LEASE_MS) {
          continue;
        }
      } catch {
        continue;
      }
    }
    let floor = 1;
    let rebooted = false;
    try {
      const [first, boot] = readFileSync(join(folder, name), "utf8").split(
        "\n",
      );
      floor = Number(first.trim()) || 1;
      const now = bootId();
      rebooted = now !== null && boot !== undefined && boot !== "-" &&
        /^\S+$/.test(boot) && boot !== now;
    } catch {
      // Unreadable: the whole log is looked through.
    }
    out.push({
      name,
      dead,
      rebooted,
      pending: () => pendingOf(name, floor),
      forget: () => {
        try {
          unlinkSync(join(folder, name));
        } catch {
          // Gone already.
        }
      },
    });
  }
  return out;
}

/**
 * The records of the log at `fd` naming a commit of `writer`, found from
 * the log's end back to its first id, oldest first.
 */
export function pendingIn(
  fd: number,
  writer: string,
  floor: number,
  stats: ReadStats,
): LoggedCommit[] {
  const out: LoggedCommit[] = [];
  let below = 0;
  scanBack(fd, stats, (value, offset) => {
    const n = idOf(value);
    if (!Number.isNaN(n) && n < floor) return ++below < DISORDER;
    below = 0;
    const c = (value as { commit?: CommitMark } | null)?.commit;
    if (
      c && typeof c === "object" && c.w === writer &&
      typeof c.t === "string" && typeof c.n === "string" && !isVoid(value)
    ) {
      out.push({
        id: (value as { id: string }).id,
        offset,
        target: c.t,
        temp: c.n,
        newIno: Number.isSafeInteger(c.i) ? c.i : null,
        ...(typeof c.a === "string" && HEX64.test(c.a) &&
            (c.b === null || (typeof c.b === "string" && HEX64.test(c.b)))
          ? { after: c.a, before: c.b }
          : {}),
      });
    }
    return true;
  });
  // Read from the end back; settled oldest first (a commit finished by
  // recovery may be the version the next one replaced).
  return out.reverse();
}
