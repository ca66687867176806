/**
 * The commit journal (docs/workspace.md "Journal"): written atomically
 * (temp + rename) before any temporary or backup of a multi-file commit
 * exists, naming every one of them, and its state says which way an
 * interrupted commit must go.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import {
  closeSync,
  constants,
  fsyncSync,
  open,
  openSync,
  rename,
  rm,
} from "../_runtime/fs.ts";
import { cutUtf8 } from "../_internal/names.ts";

export type JournalState = "staging" | "committing" | "rolling-back";

export interface JournalEntry {
  /** Real path of the target. */
  target: string;
  /** Base names of the temporary and backup files, in the target's folder. */
  temp: string;
  backup: string | null;
  existed: boolean;
  /** The version of the target the commit replaces. */
  old: { dev: number; ino: number; size: number; mtimeMs: number } | null;
  /** Inode of the staged new content (known once staged). */
  newIno: number | null;
  /** The commit removes the target (an undo of a creation). */
  remove?: boolean;
}

export interface Journal {
  version: 2;
  id: string;
  pid: number;
  root: string;
  state: JournalState;
  entries: JournalEntry[];
  /** The history entry committed with the files, appended after the renames. */
  history?: unknown;
}

export const SIDE =
  /^\.([^/\\]{1,96})\.(\d+)-([0-9a-f]{16})\.hashline-(new|old|one)\.tmp$/;

export async function writeJournal(
  file: string,
  journal: Journal,
): Promise<void> {
  const tmp = `${file}.${journal.pid}.tmp`;
  try {
    const h = await open(tmp, "w");
    try {
      await h.writeFile(JSON.stringify(journal));
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw error;
  }
  syncPath(dirname(file));
}

export function syncPath(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open or flush a folder; the rename is still atomic.
  }
}

export function parseJournal(raw: string): Journal | string {
  let j: Journal;
  try {
    j = JSON.parse(raw);
  } catch {
    return "it is not valid JSON (cut short?)";
  }
  if (j === null || typeof j !== "object") return "it is not an object";
  if (j.version !== 2) return `unknown version ${String(j.version)}`;
  if (
    typeof j.id !== "string" || !/^[0-9a-f]{16}$/.test(j.id) ||
    !Number.isSafeInteger(j.pid) || typeof j.root !== "string" ||
    !["staging", "committing", "rolling-back"].includes(j.state) ||
    !Array.isArray(j.entries)
  ) {
    return "a field is missing or malformed";
  }
  for (const e of j.entries) {
    if (
      e === null || typeof e !== "object" || typeof e.target !== "string" ||
      typeof e.temp !== "string" || typeof e.existed !== "boolean" ||
      (e.backup !== null && typeof e.backup !== "string")
    ) {
      return "an entry is malformed";
    }
    const base = cutUtf8(basename(e.target), 96);
    for (const side of [e.temp, e.backup]) {
      if (side === null) continue;
      const m = SIDE.exec(side);
      if (
        !m || m[1] !== base || Number(m[2]) !== j.pid || m[3] !== j.id
      ) {
        return `an entry names a file that is not one of this commit's own (${side})`;
      }
    }
  }
  return j;
}
