/**
 * Voiding a record in place (docs/history.md, "Crash consistency and
 * cost"): the record of a one-file commit that did not land is rewritten
 * as a void line of the same length keeping its id, so the log's offsets
 * and ids stay as they were and every reader passes over it.
 *
 * @module
 */
import {
  closeSync,
  fstatSync,
  fsyncSync,
  writeSync,
} from "../../_runtime/fs.ts";
import { openStateFile } from "../../fs/open_state.ts";
import { idNumber } from "../ids.ts";
import { isVoid, voidLine } from "./_frames.ts";
import { type LineAt, locateIn, type ReadStats, recordAt } from "./_offsets.ts";

/**
 * Voids the record of `id` whose line starts at `start` in the log open
 * for writing at `fd`, in place: the line keeps its length and its id, and
 * readers pass over it. Flushed.
 *
 * @returns Whether a record was voided (false: the line there is not that
 * record, or it is voided already).
 */
export function voidRecordAt(
  fd: number,
  start: number,
  id: string,
  stats: ReadStats,
): boolean {
  const rec = recordAt(fd, start, fstatSync(fd).size, stats);
  if (rec === null || rec.n !== idNumber(id) || isVoid(rec.value)) {
    return false;
  }
  const bytes = voidLine(id, rec.length);
  if (bytes === null) return false;
  let done = 0;
  while (done < bytes.length) {
    done += writeSync(fd, bytes, done, bytes.length - done, start + done);
  }
  fsyncSync(fd);
  return true;
}

/**
 * Voids the record `at` names in the log at `file`: at its offset while
 * the log is still the file it was appended to (same inode), else wherever
 * a search by id finds it (the log was pruned or replaced since, or the
 * offset is unknown, -1). A log that is not a regular file with one name is
 * left alone: a hard link planted at its name would carry the write outside
 * the state folder (docs/workspace.md "State folder").
 *
 * @param file The log file.
 * @param at The record's id, and where it was appended (offset and inode).
 * @param stats Counts the bytes read and the lines parsed.
 * @returns Whether a record was voided.
 * @throws {Error} The errno of opening the log (it is missing, or a symlink).
 */
export function voidInLog(
  file: string,
  at: LineAt,
  stats: ReadStats,
): boolean {
  const fd = openStateFile(file, true);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1) return false;
    let start = at.offset;
    if (st.ino !== at.ino || start < 0) {
      const found = locateIn(fd, at.id, stats);
      if (found === undefined) return false;
      start = found.offset;
    }
    return voidRecordAt(fd, start, at.id, stats);
  } finally {
    closeSync(fd);
  }
}
