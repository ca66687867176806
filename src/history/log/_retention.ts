/**
 * Retention (docs/history.md, "Retention"): the newest `limit` entries and
 * at most `maxBytes` of history state (the log and its blobs) are kept,
 * oldest first out, the newest never; a blob no kept entry names goes once
 * it is older than a grace period (a commit in flight may name it).
 *
 * @module
 */
import { fstatSync } from "../../_runtime/fs.ts";
import { writeStateFile } from "../../fs/state_file.ts";
import type { EntryRecord } from "../types.ts";
import { recordProblem } from "../check.ts";
import { type Blobs, blobsOf } from "../blobs.ts";
import { idNumber } from "../ids.ts";
import { frameRecord, idOf, isVoid, parseLine } from "./_frames.ts";
import { DISORDER, lineAt, type ReadStats, scanBack } from "./_offsets.ts";

const encoder = new TextEncoder();

/** Options of a {@link HistoryLog}. */
export interface HistoryLogOptions {
  /** Entries kept (the newest; default 10,000). */
  limit?: number;
  /** Bytes of history state kept (the log and its blobs; default 256 MiB). */
  maxBytes?: number;
  /** Unreferenced blobs younger than this are spared by a prune (a commit in flight may name them; default 60 s). */
  blobGraceMs?: number;
}

/** What retention keeps. */
export interface Limits {
  /** Entries kept (the newest). */
  limit: number;
  /** Bytes of history state kept (the log and its blobs). */
  maxBytes: number;
  /** Unreferenced blobs younger than this are spared. */
  blobGraceMs: number;
}

/**
 * Whether the counts are past a limit: the log may hold up to a tenth more
 * entries than kept between prunes, so a prune is not every append's cost.
 */
export function overLimits(
  s: { count: number; bytes: number },
  limits: Limits,
): boolean {
  return s.count > limits.limit + Math.floor(limits.limit / 10) ||
    s.bytes > limits.maxBytes;
}

/**
 * Rewrites the log `file` with the newest of `all` (oldest first by id)
 * that fit the limits (the newest always), then removes the blobs no kept
 * record names; the caller holds the history lock.
 *
 * @returns The entries kept and the bytes of history state left.
 */
export function prune(
  file: string,
  all: EntryRecord[],
  blobs: Blobs,
  limits: Limits,
): { count: number; bytes: number } {
  const sizes = new Map(blobs.list().map((b) => [b.sha, b]));
  const budget = Math.floor(limits.maxBytes * 0.9);
  const kept: string[] = [];
  const named = new Set<string>();
  let bytes = 0;
  for (let i = all.length - 1; i >= 0 && kept.length < limits.limit; i--) {
    const line = frameRecord(all[i]);
    let cost = encoder.encode(line).length;
    const fresh = blobsOf(all[i]).filter((sha) => !named.has(sha));
    for (const sha of new Set(fresh)) cost += sizes.get(sha)?.size ?? 0;
    if (kept.length > 0 && bytes + cost > budget) break;
    kept.push(line);
    for (const sha of fresh) named.add(sha);
    bytes += cost;
  }
  writeStateFile(file, kept.reverse().join(""), { flush: true });
  const now = Date.now();
  for (const b of sizes.values()) {
    if (named.has(b.sha)) continue;
    if (now - b.mtimeMs < limits.blobGraceMs) {
      bytes += b.size;
      continue;
    }
    blobs.remove(b.sha);
  }
  return { count: kept.length, bytes };
}

/**
 * Whether `limit` entries or more stand after the record of `id` at
 * `offset` in the log at `fd`. Ids only grow (within a short disorder of
 * appends), so an id that few ids follow needs no count; else the entries
 * after it are counted, stopping at `limit`.
 */
export function pastRetention(
  fd: number,
  id: string,
  offset: number,
  limit: number,
  stats: ReadStats,
): boolean {
  let newest = NaN;
  scanBack(fd, stats, (value) => {
    newest = idOf(value);
    return Number.isNaN(newest);
  });
  if (newest + DISORDER - idNumber(id) < limit) return false;
  const size = fstatSync(fd).size;
  let p: number | null = lineAt(fd, offset, size, stats)?.next ?? null;
  let after = 0;
  while (p !== null) {
    const line = lineAt(fd, p, size, stats);
    if (line === null) break;
    const parsed = parseLine(line.bytes);
    if (
      parsed && !isVoid(parsed.value) &&
      recordProblem(parsed.value) === null && ++after >= limit
    ) return true;
    p = line.next;
  }
  return false;
}
