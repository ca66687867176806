/**
 * Patches of huge files (docs/workspace.md): one hashing pass that collects
 * what the rules ask for (`linesNeeded`) plus the lines near each edit, then
 * a rewrite into the commit's temporary file that copies untouched byte
 * ranges verbatim.
 *
 * @module
 */
import { parseAnchor } from "../anchor/anchor.ts";
import type { FileHandle } from "../_runtime/file_handle.ts";
import { readSync } from "../_runtime/fs.ts";
import type { LineBatch } from "../hash/types.ts";
import { createLineScanner } from "../hash/mod.ts";
import { linesNeeded } from "../patch/lookup.ts";
import { anchorsOf, rowOf } from "../patch/ops.ts";
import { changedError } from "../errors.ts";
import type {
  LineLookup,
  PatchOp,
  PlannedEdit,
  ReadMemory,
} from "../patch/types.ts";
import type { FileIdentity, Target } from "../fs/confine.ts";
import {
  borrowBuffer,
  CHUNK_BYTES,
  eachChunk,
  openTarget,
  readRange,
  returnBuffer,
} from "../fs/io.ts";
import type { Engine } from "./read.ts";
import { TailWriter } from "./tail_writer.ts";
import { checkNul, notText, NUL_WINDOW, windowLines } from "../fs/text.ts";

/** Most lines whose hashes are kept for the drift alignment (4 bytes each). */
const ALIGN_MAX_LINES = 16 * 1024 * 1024;

/** Largest range whose every old line is collected for the diff of a streamed patch. */
const DIFF_RANGE_MAX = 4000;

interface Seen {
  hash: number;
  start: number;
  end: number;
  text?: string;
}

/** What one pass over a huge file learned for a patch. */
export interface ScannedFile {
  /** The file's identity during the pass. */
  id: FileIdentity;
  /** Lines in the file. */
  lineCount: number;
  /** Bytes of the BOM (0 or 3). */
  bomLen: number;
  /** The file's first terminator, `\n` when it has none. */
  eol: "\n" | "\r\n";
  /** Whether the last line is terminated. */
  finalNewline: boolean;
  /** The file as validation sees it. */
  lookup: LineLookup;
  /** Old line n when collected. */
  oldLine(n: number): string | undefined;
  /** Byte offset just past line n (0 → just past the BOM). */
  end(n: number): number;
}

function wantedRanges(ops: PatchOp[], need: number[]): [number, number][] {
  const ranges: [number, number][] = [[1, 1]];
  for (const n of need) ranges.push([n, n]);
  const anchor = (text: string): number | null => {
    try {
      return parseAnchor(text).line;
    } catch {
      return null;
    }
  };
  for (const op of ops) {
    const region = rowOf(op).region;
    const texts = anchorsOf(op);
    if (region === "range") {
      const s = anchor(texts[0]);
      const e = texts.length < 2 ? s : anchor(texts[1]);
      if (s === null || e === null) continue;
      if (e >= s && e - s < DIFF_RANGE_MAX) ranges.push([s - 4, e + 4]);
      else ranges.push([s - 4, s + 4], [e - 4, e + 4]);
    } else if (region === "after" || region === "before") {
      const l = anchor(texts[0]);
      if (l !== null) ranges.push([l - 4, l + 4]);
    } else if (region === "start") {
      ranges.push([1, 4]);
    }
  }
  const sorted = ranges.map(([a, b]) => [Math.max(1, a), b] as [number, number])
    .filter(([a, b]) => b >= a)
    .sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const r of sorted) {
    const top = out[out.length - 1];
    if (top && r[0] <= top[1] + 1) top[1] = Math.max(top[1], r[1]);
    else out.push(r);
  }
  return out;
}

/**
 * One hashing pass over a huge file collecting what validating `ops`, and
 * summarizing and applying them, needs.
 */
export async function scanForPatch(
  target: Target,
  ops: PatchOp[],
  memory: ReadMemory | undefined,
  engine: Engine,
): Promise<ScannedFile> {
  const need = linesNeeded(ops, { memory });
  const ranges = wantedRanges(ops, need.lines);
  const wantHash = new Set(need.hashes);
  // A 64 Ki-entry filter on the low 16 bits answers most lines without a
  // set lookup (the pass looks at every line of the file).
  const maybe = new Uint8Array(1 << 16);
  for (const h of need.hashes) maybe[h & 0xffff] = 1;
  const matches = new Map<number, number[]>();
  const seen = new Map<number, Seen>();
  const tail: [number, Seen][] = [];
  const { handle, id } = await openTarget(target);
  const scanner = createLineScanner({ engine, hash: true });
  let lines = 0;
  let pos = 0;
  let prevEnd = 0;
  let r = 0;
  // Every line's hash, for the drift alignment of the session's record.
  let all: Uint32Array | null = memory && ops.length > 0
    ? new Uint32Array(1 << 16)
    : null;
  const take = (batch: LineBatch) => {
    const c = batch.count;
    if (lines === 0 && c > 0) prevEnd = scanner.hasBom ? 3 : 0;
    const { hashes, ends } = batch;
    if (all !== null) {
      if (lines + c > ALIGN_MAX_LINES) all = null;
      else {
        if (lines + c > all.length) {
          const grown = new Uint32Array(Math.max(all.length * 2, lines + c));
          grown.set(all.subarray(0, lines));
          all = grown;
        }
        for (let i = 0; i < c; i++) all[lines + i] = hashes[i];
      }
    }
    if (wantHash.size > 0) {
      for (let i = 0; i < c; i++) {
        const h = hashes[i];
        if (maybe[h & 0xffff] === 1 && wantHash.has(h)) {
          const at = matches.get(h);
          if (at) at.push(lines + i + 1);
          else matches.set(h, [lines + i + 1]);
        }
      }
    }
    while (r < ranges.length && ranges[r][1] <= lines) r++;
    for (let k = r; k < ranges.length && ranges[k][0] <= lines + c; k++) {
      const from = Math.max(ranges[k][0], lines + 1);
      const to = Math.min(ranges[k][1], lines + c);
      for (let n = from; n <= to; n++) {
        const i = n - lines - 1;
        seen.set(n, {
          hash: hashes[i],
          start: i === 0 ? prevEnd : ends[i - 1],
          end: ends[i],
        });
      }
    }
    for (let i = Math.max(0, c - 4); i < c; i++) {
      tail.push([lines + i + 1, {
        hash: hashes[i],
        start: i === 0 ? prevEnd : ends[i - 1],
        end: ends[i],
      }]);
    }
    if (tail.length > 8) tail.splice(0, tail.length - 4);
    if (c > 0) prevEnd = ends[c - 1];
    lines += c;
  };
  try {
    pos = await eachChunk(handle, (chunk, at) => {
      if (at < NUL_WINDOW) checkNul(target.display, chunk, at);
      take(scanner.push(chunk));
    });
    take(scanner.end());
    if (scanner.invalidAt >= 0) {
      notText(target.display, scanner.invalidAt, false);
    }
    for (const [n, s] of tail.slice(-4)) if (!seen.has(n)) seen.set(n, s);
    await fillTexts(handle, target.display, seen);
  } finally {
    await handle.close();
  }
  if (pos !== id.size) throw changedError(target.display);
  const bomLen = scanner.hasBom ? 3 : 0;
  const first = seen.get(1);
  let eol: "\n" | "\r\n" = "\n";
  let finalNewline = false;
  if (first && lines > 0) {
    const firstBytes = first.end - first.start;
    const bare = new TextEncoder().encode(first.text!).length;
    if (firstBytes - bare === 2) eol = "\r\n";
    const lastLine = seen.get(lines)!;
    finalNewline = lastLine.end - lastLine.start >
      new TextEncoder().encode(lastLine.text!).length;
  }
  const get = (n: number): Seen => {
    const s = seen.get(n);
    if (!s) {
      throw new Error(
        `Internal: line ${n} of "${target.display}" was not collected.`,
      );
    }
    return s;
  };
  return {
    id,
    lineCount: lines,
    bomLen,
    eol,
    finalNewline,
    lookup: {
      lineCount: lines,
      hash32: (n) => get(n).hash,
      text: (n) => get(n).text!,
      linesWithHash: (h) => matches.get(h)?.slice() ?? [],
      ...(all === null ? {} : { allHashes: () => all!.subarray(0, lines) }),
    },
    oldLine: (n) => seen.get(n)?.text,
    end: (n) => (n === 0 ? bomLen : n === lines ? id.size : get(n).end),
  };
}

/** Reads and decodes the text of every collected line, consecutive lines in one read. */
async function fillTexts(
  handle: FileHandle,
  display: string,
  seen: Map<number, Seen>,
): Promise<void> {
  const nums = [...seen.keys()].sort((a, b) => a - b);
  let i = 0;
  while (i < nums.length) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    const from = seen.get(nums[i])!.start;
    const bytes = await readRange(handle, from, seen.get(nums[j])!.end);
    const lines = windowLines(display, bytes, from, j - i + 1);
    for (let k = i; k <= j; k++) seen.get(nums[k])!.text = lines[k - i];
    i = j + 1;
  }
}

/**
 * Writes the patched content of a huge file into `out`: untouched byte
 * ranges are copied verbatim, new lines get the file's first terminator.
 *
 * @throws {PatchRefusedError} `CHANGED` when the file is no longer the one scanned.
 */
export async function rewrite(
  out: FileHandle,
  target: Target,
  scanned: ScannedFile,
  plan: PlannedEdit[],
): Promise<void> {
  const { handle } = await openTarget(target, scanned.id);
  const buf = borrowBuffer();
  try {
    const w = new TailWriter(
      out,
      scanned.bomLen,
      scanned.eol,
      scanned.finalNewline || scanned.lineCount === 0,
    );
    let cursor = 0;
    const copy = async (to: number) => {
      while (cursor < to) {
        const bytesRead = readSync(
          handle.fd,
          buf,
          0,
          Math.min(CHUNK_BYTES, to - cursor),
          cursor,
        );
        if (bytesRead === 0) throw changedError(target.display);
        await w.write(buf.subarray(0, bytesRead));
        cursor += bytesRead;
      }
    };
    for (const edit of plan) {
      await copy(scanned.end(edit.at - 1));
      for (const line of edit.lines) await w.line(line);
      if (edit.deleteCount > 0) {
        cursor = Math.max(cursor, scanned.end(edit.at + edit.deleteCount - 1));
      }
    }
    await copy(scanned.id.size);
    await w.finish();
  } finally {
    returnBuffer(buf);
    await handle.close();
  }
}

/**
 * Finds the first remembered line of a huge file whose content is no longer
 * what the session saw (or that no longer exists).
 *
 * @returns That line number (0 when every remembered line still matches) and the file's line count.
 */
export async function firstStaleLine(
  target: Target,
  runs: [number, number[]][],
  engine: Engine,
): Promise<{ stale: number; lines: number }> {
  const { handle } = await openTarget(target);
  const scanner = createLineScanner({ engine, hash: true });
  let lines = 0;
  let r = 0;
  let stale = 0;
  const take = (batch: LineBatch) => {
    const c = batch.count;
    while (stale === 0 && r < runs.length && runs[r][0] <= lines + c) {
      const [start, hashes] = runs[r];
      const from = Math.max(start, lines + 1);
      const to = Math.min(start + hashes.length - 1, lines + c);
      for (let n = from; n <= to && stale === 0; n++) {
        if (batch.hashes[n - lines - 1] !== hashes[n - start]) stale = n;
      }
      if (start + hashes.length - 1 > lines + c) break;
      r++;
    }
    lines += c;
  };
  try {
    await eachChunk(handle, (chunk) => {
      take(scanner.push(chunk));
      return stale === 0;
    });
    if (stale === 0) take(scanner.end());
  } finally {
    await handle.close();
  }
  if (stale === 0 && r < runs.length) stale = Math.max(runs[r][0], lines + 1);
  return { stale, lines };
}
