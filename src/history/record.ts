/**
 * Building what an entry keeps of one change (pure, apart from hashing).
 *
 * @module
 */
import { lineHash32 } from "../hash/fnv.ts";
import type { PlannedEdit } from "../patch/types.ts";
import { hunksOf } from "./hunks.ts";
import { knowText } from "./_texts.ts";
import type {
  Door,
  EntryFile,
  EntryRecord,
  Hunk,
  RecordFile,
} from "./types.ts";

export { sha256Hex } from "../_internal/sha256.ts";

/** One file of a change, as the workspace hands it over. */
export interface ChangedFile {
  /** Root-relative path. */
  path: string;
  /** Lines added and removed, as the result reports them. */
  added: number;
  removed: number;
  /** The change created the file. */
  created?: boolean;
  /** The change removed the file. */
  deleted?: boolean;
  /** The whole text before (`""` for a new file), when it was in memory. */
  oldText?: string;
  /** The whole text after, when it was in memory. */
  newText?: string;
  /** The exact UTF-8 bytes of `oldText`, when held (kept as a blob without encoding it again). */
  oldBytes?: Uint8Array;
  /** The exact UTF-8 bytes of `newText`, when held. */
  newBytes?: Uint8Array;
  /** The planned edits, when the change was a patch. */
  plan?: readonly PlannedEdit[];
  /** For a file too big to hold: its old lines by number (display only). */
  oldLine?: (n: number) => string | undefined;
  /** sha-256 hex of the bytes written by a whole-file write. */
  whole?: string;
}

/** Hunks from a plan alone (a streamed file): the lines, `\n`-ended, for display. */
function planHunks(
  plan: readonly PlannedEdit[],
  oldLine: (n: number) => string | undefined,
): Hunk[] {
  const out: Hunk[] = [];
  let shift = 0;
  for (const e of [...plan].sort((a, b) => a.at - b.at)) {
    const old: string[] = [];
    for (let k = 0; k < e.deleteCount; k++) old.push(oldLine(e.at + k) ?? "");
    out.push({
      at: e.at,
      newAt: e.at + shift,
      old: old.map((l) => l + "\n").join(""),
      new: e.lines.map((l) => l + "\n").join(""),
      hashes: e.lines.map(lineHash32),
      before: null,
      after: null,
    });
    shift += e.lines.length - e.deleteCount;
  }
  return out;
}

/** What an entry lists of one file (flags only when set). */
export function entryFile(f: EntryFile): EntryFile {
  const out: EntryFile = { path: f.path, added: f.added, removed: f.removed };
  if (f.created) out.created = true;
  if (f.deleted) out.deleted = true;
  if (typeof f.renamedFrom === "string") out.renamedFrom = f.renamedFrom;
  if (typeof f.link === "string") out.link = f.link;
  return out;
}

/** What an entry keeps of one changed file. */
export function recordFile(f: ChangedFile): RecordFile {
  const out: RecordFile = { ...entryFile(f), hunks: [] };
  if (f.oldText !== undefined && f.newText !== undefined) {
    out.hunks = hunksOf(f.oldText, f.newText, f.plan);
    // A hunk as long as a whole text is that text (a substring of equal length).
    for (const h of out.hunks) {
      if (f.oldBytes && h.old.length === f.oldText.length && h.old !== "") {
        knowText(h, "old", { bytes: f.oldBytes });
      }
      if (f.newBytes && h.new.length === f.newText.length && h.new !== "") {
        knowText(h, "new", { bytes: f.newBytes });
      }
    }
    if (f.whole !== undefined) out.whole = f.whole;
  } else {
    out.noUndo =
      "the file was too large to hold in memory when it changed, so this entry keeps its lines for display only and cannot be undone";
    if (f.plan && f.oldLine) out.hunks = planHunks(f.plan, f.oldLine);
  }
  return out;
}

/** An entry record. */
export function makeRecord(fields: {
  id: string;
  session: string;
  door: Door;
  summary: string;
  files: RecordFile[];
  undoOf?: string;
}): EntryRecord {
  const r: EntryRecord = {
    id: fields.id,
    time: new Date().toISOString(),
    session: fields.session,
    door: fields.door,
    summary: fields.summary.split("\n")[0],
    files: fields.files,
  };
  if (fields.undoOf !== undefined) r.undoOf = fields.undoOf;
  return r;
}
