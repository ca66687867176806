/**
 * Compiling a dialect patch into a hashline patch
 * (docs/patch-format.md#other-dialects): each hunk is located by its
 * context and removed lines in the session's view of the file — the line
 * numbers and full hashes the session was shown — at exactly one place,
 * and becomes `replace`, `delete` and insert ops anchored `N:HH` to those
 * lines. From there it is judged as any hashline patch (against disk, with
 * drift and rebase). Nothing is ever applied by searching the file on disk.
 *
 * @module
 */
import { foldHash, hex2, lineHash32 } from "../../hash/fnv.ts";
import { existsIn, renderListing, runsOf, window } from "../fresh.ts";
import { notRead, type Problem, problem } from "../problems.ts";
import type { FilePatch, LineLookup, Patch, PatchOp } from "../types.ts";
import type {
  DialectFile,
  DialectHunk,
  DialectPatch,
  HunkRow,
} from "./types.ts";

/**
 * What the session was shown of one file, as line number → full 32-bit
 * hash (a read record satisfies it).
 */
export interface SessionView {
  /** The full hash of line n as shown, or undefined when it was not shown. */
  hash32(n: number): number | undefined;
  /** Every line shown, as `[line, hash]`, in line order. */
  entries(): Iterable<[number, number]>;
  /** Lines the file had when it was shown, when known. */
  readonly lineCount?: number;
}

/** One file a dialect patch edits, as the compiler sees it. */
export interface DialectTarget {
  /** The path as shown in messages. */
  display: string;
  /** What the session was shown of it; undefined when it never read it. */
  view: SessionView | undefined;
  /** The file as it is now, for the fresh lines of a refusal (optional). */
  now?: LineLookup;
}

/** A compiled patch, or the problems that refuse it. */
export interface Compiled {
  /** The hashline patch (empty when there are problems). */
  patch: Patch;
  /** Every hunk that could not be located, across every file. */
  problems: Problem[];
}

/**
 * Compiles a dialect patch into a hashline patch.
 *
 * @param dialect The parsed dialect patch.
 * @param targetOf The view (and the file now) of each path an update or a
 *   deletion with hunks names.
 * @returns The patch, or the problems (nothing located is guessed).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../../hash/fnv.ts";
 * import { memoryFromHashes } from "../memory.ts";
 * import { parseApplyPatch } from "./apply_patch.ts";
 * import { compileDialect } from "./compile.ts";
 * const view = memoryFromHashes(["a", "b", "c"].map(lineHash32));
 * const out = compileDialect(
 *   parseApplyPatch("*** Begin Patch\n*** Update File: x\n@@\n a\n-b\n+B\n*** End Patch"),
 *   () => ({ display: "x", view }),
 * );
 * assert.deepEqual(out.patch.files[0].ops, [{ op: "replace", start: "2:23", lines: ["B"] }]);
 * ```
 */
export function compileDialect(
  dialect: DialectPatch,
  targetOf: (path: string) => DialectTarget,
): Compiled {
  const files: FilePatch[] = [];
  const problems: Problem[] = [];
  for (const file of dialect.files) {
    if (file.kind === "add") {
      const lines = file.lines ?? [];
      files.push({
        path: file.path,
        create: true,
        ops: lines.length > 0 ? [{ op: "append", lines }] : [],
      });
      continue;
    }
    if (file.kind === "delete" && file.hunks.length === 0) {
      files.push({ path: file.path, delete: true, ops: [] });
      continue;
    }
    const target = targetOf(file.path);
    const ops = compileFile(file, target, problems);
    if (ops === null) continue;
    if (file.kind === "delete") {
      files.push({ path: file.path, delete: true, ops: [] });
    } else {
      files.push({
        path: file.path,
        ops,
        ...(file.moveTo !== undefined ? { rename: file.moveTo } : {}),
      });
    }
  }
  return problems.length > 0
    ? { patch: { files: [] }, problems }
    : { patch: { files }, problems };
}

/** The view as arrays: sorted lines, their hashes, and lines by hash. */
class Indexed {
  readonly byHash = new Map<number, number[]>();
  readonly last: number;
  constructor(readonly view: SessionView) {
    let last = 0;
    for (const [n, h] of view.entries()) {
      const list = this.byHash.get(h);
      if (list) list.push(n);
      else this.byHash.set(h, [n]);
      last = n;
    }
    this.last = view.lineCount ?? last;
  }
  /** Every line p where `hashes` stand shown, one after another, from p on. */
  places(hashes: readonly number[]): number[] {
    const out: number[] = [];
    for (const p of this.byHash.get(hashes[0]) ?? []) {
      let ok = true;
      for (let k = 1; k < hashes.length && ok; k++) {
        ok = this.view.hash32(p + k) === hashes[k];
      }
      if (ok) out.push(p);
    }
    return out;
  }
  anchor(n: number): string {
    return `${n}:${hex2(foldHash(this.view.hash32(n)!))}`;
  }
}

function oldRows(hunk: DialectHunk): string[] {
  return hunk.rows.filter((r) => r.kind !== "+").map((r) => r.text);
}

function compileFile(
  file: DialectFile,
  target: DialectTarget,
  problems: Problem[],
): PatchOp[] | null {
  const { view, display } = target;
  if (!view) {
    problems.push(notRead(display, "resend the patch"));
    return null;
  }
  const index = new Indexed(view);
  const ops: PatchOp[] = [];
  let ok = true;
  for (const hunk of file.hunks) {
    const out = compileHunk(hunk, index, target);
    if ("problem" in out) {
      problems.push(out.problem);
      ok = false;
    } else ops.push(...out.ops);
  }
  return ok ? ops : null;
}

type HunkOut = { ops: PatchOp[] } | { problem: Problem };

function compileHunk(
  hunk: DialectHunk,
  index: Indexed,
  target: DialectTarget,
): HunkOut {
  const old = oldRows(hunk);
  const added = hunk.rows.filter((r) => r.kind === "+").map((r) => r.text);
  const where = `the hunk at patch line ${hunk.line}`;
  let headerAt: number[] | null = null;
  if (hunk.header !== undefined) {
    headerAt = index.byHash.get(lineHash32(hunk.header)) ?? [];
    if (headerAt.length === 0) {
      return {
        problem: notFound(
          target,
          `${where}: its "@@ ${hunk.header}" line is not a line this session was shown of the file`,
          [hunk.header],
          index,
          hunk.oldStart,
        ),
      };
    }
  }
  if (old.length === 0) return insertOnly(hunk, added, index, target, headerAt);
  let places = index.places(old.map(lineHash32));
  if (hunk.atEnd) {
    places = places.filter((p) => p + old.length - 1 === index.last);
  }
  if (headerAt) places = firstAfter(headerAt, places);
  if (places.length === 0) {
    return {
      problem: notFound(
        target,
        `${where}: its ${
          old.length === 1 ? "line" : `${old.length} " " and "-" lines`
        } ${
          hunk.atEnd ? "do not end the file" : "do not stand together"
        } in the file as this session was shown it`,
        old,
        index,
        hunk.oldStart,
      ),
    };
  }
  if (places.length > 1) {
    return { problem: ambiguous(target, where, old, places) };
  }
  return { ops: opsAt(hunk.rows, places[0], index) };
}

/** For each header line, the first place after it (apply_patch's `@@ context`). */
function firstAfter(headers: number[], places: number[]): number[] {
  const kept = new Set<number>();
  for (const h of headers) {
    const p = places.find((q) => q > h);
    if (p !== undefined) kept.add(p);
  }
  return [...kept].sort((a, b) => a - b);
}

/** A hunk that only adds lines: after its `@@` line, after line l (`-l,0`), or at the end. */
function insertOnly(
  hunk: DialectHunk,
  lines: string[],
  index: Indexed,
  target: DialectTarget,
  headerAt: number[] | null,
): HunkOut {
  const where = `the hunk at patch line ${hunk.line}`;
  if (headerAt) {
    if (headerAt.length > 1) {
      return { problem: ambiguous(target, where, [hunk.header!], headerAt) };
    }
    return {
      ops: [{ op: "insert_after", anchor: index.anchor(headerAt[0]), lines }],
    };
  }
  if (hunk.oldStart === undefined || hunk.atEnd) {
    return { ops: [{ op: "append", lines }] };
  }
  if (hunk.oldStart === 0) return { ops: [{ op: "prepend", lines }] };
  if (index.view.hash32(hunk.oldStart) === undefined) {
    return {
      problem: problem(
        "NOT_READ",
        `${where} adds lines after line ${hunk.oldStart}, which this session was not shown: read that part of the file first, then resend the patch.`,
        { path: target.display, line: hunk.oldStart },
      ),
    };
  }
  return {
    ops: [{ op: "insert_after", anchor: index.anchor(hunk.oldStart), lines }],
  };
}

/** The hunk's rows as ops, its first old line standing at line `p`. */
function opsAt(rows: readonly HunkRow[], p: number, index: Indexed): PatchOp[] {
  const ops: PatchOp[] = [];
  const oldCount = rows.filter((r) => r.kind !== "+").length;
  const end = p + oldCount - 1;
  let n = p;
  let i = 0;
  while (i < rows.length) {
    if (rows[i].kind === " ") {
      n++, i++;
      continue;
    }
    const from = n;
    const lines: string[] = [];
    while (i < rows.length && rows[i].kind !== " ") {
      if (rows[i].kind === "-") n++;
      else lines.push(rows[i].text);
      i++;
    }
    if (n > from) {
      const range = {
        start: index.anchor(from),
        ...(n - 1 > from ? { end: index.anchor(n - 1) } : {}),
      };
      ops.push(
        lines.length > 0
          ? { op: "replace", ...range, lines }
          : { op: "delete", ...range },
      );
    } else if (from > p) {
      ops.push({ op: "insert_after", anchor: index.anchor(from - 1), lines });
    } else if (from <= end) {
      ops.push({ op: "insert_before", anchor: index.anchor(from), lines });
    }
  }
  return ops;
}

function span(p: number, k: number): string {
  return k === 1 ? `line ${p}` : `lines ${p}–${p + k - 1}`;
}

/** Lines `from..to` of the file now, as a refusal shows them. */
function freshLines(
  target: DialectTarget,
  from: number,
  to: number,
): { text: string; shown: ReturnType<typeof runsOf> } | null {
  const now = target.now;
  if (!now) return null;
  const listing = window(existsIn(now), now, from, to);
  if (listing.length === 0) return null;
  return { text: renderListing(now, listing), shown: runsOf(listing) };
}

const squeeze = (s: string): string => s.replace(/\s+/g, "");

/** Where `lines` stand in the file now, compared exactly or with whitespace dropped. */
function placesNow(
  now: LineLookup,
  lines: readonly string[],
  norm: (s: string) => string,
): number[] {
  const want = lines.map(norm);
  const out: number[] = [];
  for (let p = 1; p + want.length - 1 <= now.lineCount; p++) {
    let ok = true;
    for (let k = 0; k < want.length && ok; k++) {
      ok = norm(now.text(p + k)) === want[k];
    }
    if (ok) out.push(p);
  }
  return out;
}

/** The view's line where most of `hashes` stand in order, or null. */
function closest(index: Indexed, hashes: readonly number[]): number | null {
  const score = new Map<number, number>();
  hashes.forEach((h, j) => {
    for (const n of index.byHash.get(h) ?? []) {
      score.set(n - j, (score.get(n - j) ?? 0) + 1);
    }
  });
  let best: number | null = null;
  let top = 0;
  for (const [p, s] of score) {
    if (s > top || (s === top && best !== null && p < best)) {
      [best, top] = [p, s];
    }
  }
  return best;
}

/** The refusal of a hunk found nowhere in the view. */
function notFound(
  target: DialectTarget,
  head: string,
  old: readonly string[],
  index: Indexed,
  oldStart: number | undefined,
): Problem {
  const now = target.now;
  const exact = now ? placesNow(now, old, (s) => s) : [];
  const unread = exact.find((p) => {
    for (let k = 0; k < old.length; k++) {
      if (index.view.hash32(p + k) === undefined) return true;
    }
    return false;
  });
  if (unread !== undefined) {
    const lines = freshLines(target, unread, unread + old.length - 1);
    return problem(
      "NOT_READ",
      `${head}: it names ${
        span(unread, old.length)
      }, which this session was not shown. Read them first, then resend the patch.`,
      { path: target.display, line: unread, shown: lines?.shown },
    );
  }
  let at = closest(index, old.map(lineHash32));
  let note = "";
  if (now) {
    const loose = placesNow(now, old, squeeze).filter((p) =>
      !exact.includes(p)
    );
    if (loose.length > 0) {
      at = loose[0];
      note = ` They match ${
        span(at, old.length)
      } only if whitespace is changed, and a hunk is matched exactly (no whitespace-insensitive fallback).`;
    }
  }
  at ??= oldStart && oldStart > 0 ? oldStart : 1;
  const lines = freshLines(target, at - 2, at + old.length + 1);
  return problem(
    "NO_MATCH",
    `${head}.${note}${
      lines ? ` The closest lines now:\n${lines.text}\n` : " "
    }Resend the hunk with " " and "-" lines copied exactly from them, or edit with hashline anchors.`,
    { path: target.display, line: at, shown: lines?.shown },
  );
}

/** The refusal of a hunk found at several places of the view. */
function ambiguous(
  target: DialectTarget,
  where: string,
  old: readonly string[],
  places: number[],
): Problem {
  const texts: string[] = [];
  const shown: ReturnType<typeof runsOf> = [];
  for (const p of places.slice(0, 4)) {
    const lines = freshLines(target, p - 1, p + old.length);
    if (lines) {
      texts.push(lines.text);
      shown.push(...lines.shown);
    }
  }
  return problem(
    "MANY_MATCHES",
    `${where}: its lines stand at ${places.length} places in the file as this session was shown it (${
      places.map((p) => span(p, old.length)).join(", ")
    }), and a hunk's line numbers never pick between them.${
      texts.length > 0 ? ` Lines now:\n${texts.join("\n…\n")}\n` : " "
    }Add context lines until the hunk matches at one place, or edit with hashline anchors.`,
    { path: target.display, line: places[0], shown },
  );
}
