/**
 * Edit history and undo (docs/history.md): the entry model, the append-only
 * log in the state folder, the changed regions an entry keeps, and undo
 * planning as a pure function from an entry and the file now to new
 * content or `MOVED_ON` problems. The workspace records an entry in the
 * same commit as the files.
 *
 * @module
 */
export type {
  Door,
  EntryDetail,
  EntryFile,
  EntryRecord,
  HistoryEntry,
  HistoryList,
  HistoryQuery,
  Hunk,
  RecordFile,
  UndoOptions,
  UndoResult,
} from "./types.ts";
export { DOORS } from "./types.ts";
export {
  bare,
  type DiffLimit,
  hunksOf,
  lineCount,
  lineHashes,
  renderDiff,
  segments,
} from "./hunks.ts";
export {
  crc32,
  frameRecord,
  HistoryLog,
  type HistoryLogOptions,
  idNumber,
  type LogFilter,
  type LogListing,
  parseLog,
} from "./log.ts";
export { recordProblem } from "./check.ts";
export {
  carryKnown,
  INLINE_MAX,
  type KnownText,
  knowText,
  type StoredHunk,
} from "./blobs.ts";
export { planUndo, type UndoPlan, type UndoStep } from "./undo.ts";
export {
  checkQuery,
  type DetailContext,
  DIFF_CONTEXT,
  listEntries,
  toDetail,
  toEntry,
  withheldNote,
} from "./view.ts";
export {
  type ChangedFile,
  makeRecord,
  recordFile,
  sha256Hex,
} from "./record.ts";
