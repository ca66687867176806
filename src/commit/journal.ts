/**
 * The commit journal (docs/workspace.md "Journal"): written atomically
 * (temp + rename) before any temporary or backup of a multi-file commit
 * exists, naming every one of them, and its state says which way an
 * interrupted commit must go.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import { mkdirSync, unlinkSync } from "../_runtime/fs.ts";
import { writeStateFile } from "../fs/state_file.ts";
import { errnoOf } from "../_internal/errno.ts";
import { cutUtf8 } from "../_internal/names.ts";
import { syncFolder } from "../fs/sync_folder.ts";

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
  /** Folders the commit makes (real paths), removed again when empty if it is undone. */
  dirs?: string[];
  /**
   * Folders to remove when empty once the commit has landed (real paths):
   * those an undo empties of the files the undone entry put there. The
   * journal stays until they are removed, so recovery removes them too.
   */
  tidy?: string[];
}

export const SIDE =
  /^\.([^/\\]{1,96})\.(\d+)-([0-9a-f]{16})\.hashline-(new|old|one)\.tmp$/;

const encoder = new TextEncoder();

/**
 * Writes the journal whole (a temporary beside it, flushed, renamed over
 * it, the folder flushed), making the journal folder when it is missing.
 * Synchronous on purpose: a commit waits for each of these steps anyway,
 * and the promise API hands every call to a worker thread and back, which
 * cost a recorded one-file edit more than the flushes themselves.
 */
export function writeJournal(file: string, journal: Journal): void {
  const tmp = `${file}.${journal.pid}.tmp`;
  const bytes = encoder.encode(JSON.stringify(journal));
  // Through a temporary created exclusively and a rename, never into a
  // link planted at either name (docs/workspace.md "State folder").
  try {
    writeStateFile(file, bytes, { flush: true, temp: tmp });
  } catch (error) {
    if (errnoOf(error) !== "ENOENT") throw error;
    mkdirSync(dirname(file), { recursive: true });
    writeStateFile(file, bytes, { flush: true, temp: tmp });
  }
  syncFolder(dirname(file));
}

/** Removes a journal (or its temporary); one already gone is fine. */
export function removeJournal(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (errnoOf(error) !== "ENOENT") throw error;
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
  for (const list of [j.dirs, j.tidy]) {
    if (
      list !== undefined &&
      (!Array.isArray(list) || list.some((d) => typeof d !== "string"))
    ) {
      return "a field is missing or malformed";
    }
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
