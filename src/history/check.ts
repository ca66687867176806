/**
 * Whether a record read from the log has the shape of an entry (pure): a
 * record that passes its checksum may still be damaged or hostile, such as
 * `files: [null]` or `hunks: null`, and must be skipped with a warning,
 * never crash a listing.
 *
 * @module
 */
import { DOORS } from "./types.ts";
import { ENTRY_ID } from "./ids.ts";

const HEX64 = /^[0-9a-f]{64}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const BLOB_FIELDS = ["old", "new", "before", "after"] as const;

function count(v: unknown): boolean {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

function line(v: unknown): boolean {
  return Number.isSafeInteger(v) && (v as number) >= 1;
}

function hunkProblem(h: unknown, where: string): string | null {
  if (h === null || typeof h !== "object" || Array.isArray(h)) {
    return `${where} is not an object`;
  }
  const o = h as Record<string, unknown>;
  if (!line(o.at) || !line(o.newAt)) {
    return `${where} has no line number ≥ 1 in at/newAt`;
  }
  if (typeof o.old !== "string" || typeof o.new !== "string") {
    return `${where}.old/new are not strings`;
  }
  for (const k of ["before", "after"]) {
    if (o[k] !== null && typeof o[k] !== "string") {
      return `${where}.${k} is neither a string nor null`;
    }
  }
  const blobs = o.blobs;
  if (blobs !== undefined) {
    if (blobs === null || typeof blobs !== "object" || Array.isArray(blobs)) {
      return `${where}.blobs is not an object`;
    }
    for (const [k, v] of Object.entries(blobs)) {
      if (!(BLOB_FIELDS as readonly string[]).includes(k)) {
        return `${where}.blobs names an unknown field "${k}"`;
      }
      if (typeof v !== "string" || !HEX64.test(v)) {
        return `${where}.blobs.${k} is not a sha-256`;
      }
    }
  }
  const hasNewBlob = (blobs as Record<string, unknown> | undefined)?.new;
  if (o.hashes === undefined && hasNewBlob) return null;
  if (
    !Array.isArray(o.hashes) ||
    !o.hashes.every((x) => Number.isSafeInteger(x) && x >= 0 && x < 2 ** 32)
  ) {
    return `${where}.hashes is not a list of 32-bit hashes`;
  }
  return null;
}

function fileProblem(f: unknown, where: string): string | null {
  if (f === null || typeof f !== "object" || Array.isArray(f)) {
    return `${where} is not an object`;
  }
  const o = f as Record<string, unknown>;
  if (typeof o.path !== "string" || o.path === "") {
    return `${where}.path is not a name`;
  }
  if (!count(o.added) || !count(o.removed)) {
    return `${where}.added/removed are not counts`;
  }
  for (const k of ["created", "deleted"]) {
    if (o[k] !== undefined && typeof o[k] !== "boolean") {
      return `${where}.${k} is not a boolean`;
    }
  }
  for (const k of ["whole", "noUndo", "renamedFrom", "link"]) {
    if (o[k] !== undefined && typeof o[k] !== "string") {
      return `${where}.${k} is not a string`;
    }
  }
  if (!Array.isArray(o.hunks)) return `${where}.hunks is not a list`;
  for (let i = 0; i < o.hunks.length; i++) {
    const p = hunkProblem(o.hunks[i], `${where}.hunks[${i}]`);
    if (p) return p;
  }
  return null;
}

/**
 * What is wrong with a record's shape, or null when it is a well-formed
 * entry record.
 *
 * @param r A parsed JSON value from the log.
 * @returns A short reason naming the bad field, or null.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordProblem } from "./check.ts";
 * assert.equal(recordProblem({ id: "h_1", files: [null] }) !== null, true);
 * ```
 */
export function recordProblem(r: unknown): string | null {
  if (r === null || typeof r !== "object" || Array.isArray(r)) {
    return "it is not an object";
  }
  const o = r as Record<string, unknown>;
  if (typeof o.id !== "string" || !ENTRY_ID.test(o.id)) {
    return "its id is not of the form h_N";
  }
  for (const k of ["time", "session", "summary"]) {
    if (typeof o[k] !== "string") return `its ${k} is not a string`;
  }
  if (
    !TIME.test(o.time as string) || Number.isNaN(Date.parse(o.time as string))
  ) {
    return "its time is not an ISO 8601 UTC time";
  }
  if (typeof o.door !== "string" || !(DOORS as string[]).includes(o.door)) {
    return "its door is not one of the known doors";
  }
  if (
    o.undoOf !== undefined &&
    (typeof o.undoOf !== "string" || !ENTRY_ID.test(o.undoOf))
  ) {
    return "its undoOf is not an entry id of the form h_N";
  }
  if (!Array.isArray(o.files)) return "its files is not a list";
  for (let i = 0; i < o.files.length; i++) {
    const p = fileProblem(o.files[i], `files[${i}]`);
    if (p) return p;
  }
  return null;
}
