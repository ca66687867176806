/**
 * The shared core of patching (docs/patch-format.md#validation): checking ops
 * against a file as it is now and planning their application. Both work
 * through {@link LineLookup} and {@link ReadMemory}, so content in memory and
 * files streamed from disk are judged by the same rules.
 *
 * @module
 */

import { parseAnchor, readPrefixOf } from "../anchor/anchor.ts";
import { formatLine } from "../anchor/format.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import type { ErrorCode, Problem } from "../errors.ts";
import { lineFault } from "./_line_fault.ts";
import type {
  Anchor,
  LineLookup,
  PatchOp,
  PlannedEdit,
  ReadMemory,
} from "./types.ts";

export type { Problem };

/** Options of {@link validateOps}. */
export interface ValidateOptions {
  /** Full hashes the session saw when it read the file. */
  memory?: ReadMemory;
  /** Path put on each problem. */
  path?: string;
}

/** Lines around a stale anchor shown with fresh anchors. */
const CONTEXT = 2;
/** Most lines one problem shows around changed lines inside a range. */
const MAX_SHOWN = 40;
/** Most bad new lines named per op. */
const MAX_BAD_LINES = 3;

interface Span {
  index: number;
  start: number;
  end: number;
}
interface Point {
  index: number;
  line: number;
}
type Shown = { start: number; hashes: number[] };

/** A stale finding of one op, turned into a problem once the op is judged whole. */
interface Finding {
  code: "STALE_ANCHOR" | "OUT_OF_RANGE";
  /** Whether it is about one of the op's anchors (else: inside its range). */
  anchor: boolean;
  line: number;
  head: string;
  /** Lines listed with fresh anchors (none for out of range). */
  listing: [number, number][];
  /** Where the anchored line now stands, when it moved to exactly one line. */
  movedTo?: number;
  /** The remembered hash of the moved line. */
  movedHash?: number;
  /** Whether the listing was cut at {@link MAX_SHOWN}. */
  cut?: boolean;
}

/** Names an op in messages: `op 2 (replace 12:a3..14:0e)`. */
export function opLabel(op: PatchOp, index: number): string {
  let where = "";
  if (op.op === "replace" || op.op === "delete") {
    where = ` ${op.start}${op.end !== undefined ? `..${op.end}` : ""}`;
  } else if (op.op === "insert_after" || op.op === "insert_before") {
    where = ` ${op.anchor}`;
  }
  return `op ${index + 1} (${op.op}${where})`;
}

/** The anchors an op names, in order (start, end; or the insert anchor). */
export function anchorsOf(op: PatchOp): string[] {
  switch (op.op) {
    case "replace":
    case "delete":
      return op.end !== undefined ? [op.start, op.end] : [op.start];
    case "insert_after":
    case "insert_before":
      return [op.anchor];
    default:
      return [];
  }
}

/** Parses an anchor, or null when it does not parse. */
export function tryAnchor(text: unknown): Anchor | null {
  try {
    return parseAnchor(text as string);
  } catch {
    return null;
  }
}

/** The lines an op addresses as read: `[start, end]`, or null for append/prepend or bad anchors. */
export function regionOf(op: PatchOp): [number, number] | null {
  const anchors = anchorsOf(op).map(tryAnchor);
  if (anchors.length === 0 || anchors.some((a) => a === null)) return null;
  const s = anchors[0]!.line;
  const e = anchors[anchors.length - 1]!.line;
  return e >= s ? [s, e] : null;
}

function linesWord(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}

function clampRange(
  from: number,
  to: number,
  lineCount: number | undefined,
): [number, number] {
  return [
    Math.max(1, from),
    lineCount === undefined ? to : Math.min(lineCount, to),
  ];
}

function existsIn(now: LineLookup): (n: number) => boolean {
  return now.has
    ? (n) => n >= 1 && now.has!(n)
    : (n) => n >= 1 && n <= now.lineCount;
}

/**
 * Lists what a streaming caller must collect, in one pass over the file, to
 * answer every {@link LineLookup} query {@link validateOps} may make: the
 * anchored lines with ±2 lines of context (hash and text), every line inside
 * a replaced or deleted range that `memory` holds, with ±2 of context (to
 * catch and show a change there), and the remembered full hashes whose
 * current line numbers are needed ("moved to line N"). With `rebase`, the
 * hashes also cover every line `rebaseOps` looks for; rebased ops address
 * other lines, so a streaming caller lists and collects again for them.
 *
 * @param ops The ops to be validated.
 * @param options `memory` (the session's read record), `lineCount` (to clip
 *   the context) and `rebase` (also list what `rebaseOps` asks for).
 * @returns Sorted, distinct line numbers and full hashes.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { linesNeeded } from "./validate.ts";
 * const need = linesNeeded([{ op: "delete", start: "2:aa" }], { lineCount: 3 });
 * assert.deepEqual(need, { lines: [1, 2, 3], hashes: [] });
 * ```
 */
export function linesNeeded(
  ops: PatchOp[],
  options: { memory?: ReadMemory; lineCount?: number; rebase?: boolean } = {},
): { lines: number[]; hashes: number[] } {
  const { memory, lineCount } = options;
  const lines = new Set<number>();
  const hashes = new Set<number>();
  const around = (n: number): void => {
    const [from, to] = clampRange(n - CONTEXT, n + CONTEXT, lineCount);
    for (let k = from; k <= to; k++) lines.add(k);
  };
  for (const op of ops) {
    for (const text of anchorsOf(op)) {
      const a = tryAnchor(text);
      if (!a) continue;
      around(a.line);
      const remembered = memory?.hash32(a.line);
      if (remembered !== undefined) hashes.add(remembered);
    }
    const region = regionOf(op);
    if (!memory || !region) continue;
    const [s, e] = region;
    if (op.op === "replace" || op.op === "delete") {
      const last = lineCount === undefined ? e - 1 : Math.min(e - 1, lineCount);
      for (let n = s + 1; n <= last; n++) {
        if (memory.hash32(n) !== undefined) around(n);
      }
    }
    if (options.rebase) {
      for (let n = Math.max(1, s - 1); n <= e + 1; n++) {
        const h = memory.hash32(n);
        if (h !== undefined) hashes.add(h);
      }
    }
  }
  return {
    lines: [...lines].sort((x, y) => x - y),
    hashes: [...hashes].sort((x, y) => x - y),
  };
}

/** Lines `from..to` clipped to the file, as `[line, hash]` pairs. */
function window(
  exists: (n: number) => boolean,
  now: LineLookup,
  from: number,
  to: number,
): [number, number][] {
  const out: [number, number][] = [];
  for (let n = Math.max(1, from); n <= to && exists(n); n++) {
    out.push([n, now.hash32(n)]);
  }
  return out;
}

function render(now: LineLookup, listing: [number, number][]): string {
  return listing.map(([n, h]) =>
    formatLine(n, now.text(n), undefined, foldHash(h))
  )
    .join("\n");
}

/**
 * Lines `at - 2` to `at + 2` of `now` (clipped to the file) as a refusal
 * shows them: the `LINE:HH|text` rows, and the runs of full hashes shown.
 *
 * @param now The file as it is now.
 * @param at The line the refusal is about.
 * @returns The rows joined by `\n`, and what they show.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshAround, lookupFromLines } from "./validate.ts";
 * const { text, shown } = freshAround(lookupFromLines(["a", "b"]), 1);
 * assert.equal(text, "1:ed|a\n2:23|b");
 * assert.equal(shown[0].start, 1);
 * ```
 */
export function freshAround(
  now: LineLookup,
  at: number,
): { text: string; shown: Shown[] } {
  const listing = window(existsIn(now), now, at - CONTEXT, at + CONTEXT);
  return { text: render(now, listing), shown: runsOf(listing) };
}

function runsOf(listing: [number, number][]): Shown[] {
  const out: Shown[] = [];
  for (const [n, h] of listing) {
    const top = out[out.length - 1];
    if (top && top.start + top.hashes.length === n) top.hashes.push(h);
    else out.push({ start: n, hashes: [h] });
  }
  return out;
}

/** Where the remembered content of an anchored line stands now, when that is one other line. */
function movedLine(
  now: LineLookup,
  exists: (n: number) => boolean,
  a: Anchor,
  remembered: number | undefined,
): number | undefined {
  if (remembered === undefined || hex2(foldHash(remembered)) !== a.hash) {
    return undefined;
  }
  if (exists(a.line) && now.hash32(a.line) === remembered) return undefined;
  const at = now.linesWithHash(remembered).filter((n) => n !== a.line);
  return at.length === 1 ? at[0] : undefined;
}

/**
 * Checks ops against a file as it is now (docs/patch-format.md#validation):
 * anchors parse (`BAD_ANCHOR`), name a line that exists (`OUT_OF_RANGE`),
 * and match it (`STALE_ANCHOR`: by the 2-hex fold, and by the full hash where
 * `memory` holds one); every line inside a replaced or deleted range that
 * `memory` holds is unchanged (`STALE_ANCHOR`); ranges run forwards
 * (`BAD_RANGE`); ops do not overlap, nor does an insert anchor on a line
 * another op replaces or deletes (`OVERLAP`); inserts carry lines
 * (`EMPTY_INSERT`); no new line holds a line break, a NUL or a lone surrogate
 * (`BAD_LINE`), or starts with a pasted read prefix such as `12:a3|` unless
 * the op is `literal` (`PASTED_PREFIX`). Each stale problem lists the current
 * lines with fresh anchors, says the one next step (resend with them, or
 * re-read the op's lines when they are more than it shows), and carries what
 * it showed in `shown`. Queries `now` only for what {@link linesNeeded} lists.
 *
 * @param ops The ops of one file, addressed against the file as read.
 * @param now The file as it is now.
 * @param options `memory` (the session's read record) and `path` (put on each problem).
 * @returns Every problem found; empty when the ops may be applied.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookupFromLines, validateOps } from "./validate.ts";
 * const now = lookupFromLines(["a", "b", "c"]);
 * assert.deepEqual(validateOps([{ op: "delete", start: "2:23" }], now), []);
 * const [problem] = validateOps([{ op: "delete", start: "2:ff" }], now);
 * assert.equal(problem.code, "STALE_ANCHOR");
 * assert.match(problem.message, /^Anchor 2:ff is stale: line 2 now reads 2:23\./);
 * assert.match(problem.message, /Resend with these anchors:\n1:ed\|a\n2:23\|b\n3:94\|c$/);
 * assert.equal(problem.shown?.[0].start, 1);
 * ```
 */
export function validateOps(
  ops: PatchOp[],
  now: LineLookup,
  options: ValidateOptions = {},
): Problem[] {
  const { memory, path } = options;
  const problems: Problem[] = [];
  const add = (
    code: ErrorCode,
    message: string,
    line?: number,
    shown?: Shown[],
  ): void => {
    const p: Problem = { code, message };
    if (path !== undefined && path !== "") p.path = path;
    if (line !== undefined) p.line = line;
    if (shown && shown.length > 0) p.shown = shown;
    problems.push(p);
  };
  const exists = existsIn(now);
  const reported = new Set<string>();
  const spans: Span[] = [];
  const points: Point[] = [];

  ops.forEach((op, index) => {
    const label = opLabel(op, index);
    const parsed: (Anchor | null)[] = [];
    const findings: Finding[] = [];
    let usable = true;
    for (const text of anchorsOf(op)) {
      const a = tryAnchor(text);
      parsed.push(a);
      if (!a) {
        usable = false;
        add(
          "BAD_ANCHOR",
          `In ${label}, ${
            JSON.stringify(text)
          } is not an anchor: write LINE:HH as shown in the read, such as "12:a3".`,
        );
        continue;
      }
      const key = `${a.line}:${a.hash}`;
      if (reported.has(key)) continue;
      const remembered = memory?.hash32(a.line);
      const moved = movedLine(now, exists, a, remembered);
      const movedText = moved === undefined
        ? ""
        : `; the line you read moved to line ${moved} → ${moved}:${a.hash}`;
      if (!exists(a.line)) {
        reported.add(key);
        const n = now.lineCount;
        findings.push({
          code: "OUT_OF_RANGE",
          anchor: true,
          line: a.line,
          head: `Anchor ${key} is out of range: the file has ${linesWord(n)}${
            n === 0 ? " (it is empty; use append or prepend)" : ""
          }${movedText}`,
          listing: [],
          movedTo: moved,
          movedHash: remembered,
        });
        continue;
      }
      const h = now.hash32(a.line);
      const fresh = `${a.line}:${hex2(foldHash(h))}`;
      let why = "";
      if (hex2(foldHash(h)) !== a.hash) {
        why = `line ${a.line} now reads ${fresh}`;
      } else if (remembered !== undefined && remembered !== h) {
        why =
          `line ${a.line} changed since it was read, although its short hash is still ${a.hash}`;
      }
      if (!why) continue;
      reported.add(key);
      findings.push({
        code: "STALE_ANCHOR",
        anchor: true,
        line: a.line,
        head: `Anchor ${key} is stale: ${why}${movedText}`,
        listing: window(exists, now, a.line - CONTEXT, a.line + CONTEXT),
        movedTo: moved,
        movedHash: remembered,
      });
    }

    if (op.op === "replace" || op.op === "delete") {
      const [s, e] = [parsed[0], parsed[1] ?? parsed[0]];
      if (usable && s && e) {
        if (e.line < s.line) {
          add(
            "BAD_RANGE",
            `In ${label}, the range ends (line ${e.line}) before it starts (line ${s.line}): write the first line of the range first.`,
            s.line,
          );
        } else {
          spans.push({ index, start: s.line, end: e.line });
          if (memory && e.line - s.line >= 2) {
            const inner = interior(now, exists, memory, s.line, e.line, label);
            if (inner) findings.push(inner);
          }
        }
      }
    } else if (op.op === "insert_after" || op.op === "insert_before") {
      if (usable && parsed[0]) points.push({ index, line: parsed[0].line });
    }

    judge(now, parsed, label, findings, add);

    if ("lines" in op) {
      if (op.op !== "replace" && op.lines.length === 0) {
        add(
          "EMPTY_INSERT",
          `${
            capital(label)
          } has no lines to insert: give at least one line, or drop the op.`,
        );
      }
      checkNewLines(op.lines, op.literal === true, label, add);
    }
  });

  findOverlaps(ops, spans, points, add);
  return problems;
}

/** The changed lines strictly inside a range that the session saw, as one finding. */
function interior(
  now: LineLookup,
  exists: (n: number) => boolean,
  memory: ReadMemory,
  s: number,
  e: number,
  label: string,
): Finding | null {
  const changed: number[] = [];
  for (let n = s + 1; n < e && exists(n); n++) {
    const r = memory.hash32(n);
    if (r !== undefined && now.hash32(n) !== r) changed.push(n);
  }
  if (changed.length === 0) return null;
  const listing: [number, number][] = [];
  let cut = false;
  for (const n of changed) {
    const last = listing.length ? listing[listing.length - 1][0] : 0;
    for (
      const pair of window(
        exists,
        now,
        Math.max(last + 1, n - CONTEXT),
        n + CONTEXT,
      )
    ) {
      if (listing.length >= MAX_SHOWN) {
        cut = true;
        break;
      }
      listing.push(pair);
    }
    if (cut) break;
  }
  const which = changed.length === 1
    ? `Line ${changed[0]} inside ${label} changed since it was read`
    : `${changed.length} lines inside ${label} changed since they were read (line ${
      changed.slice(0, 5).join(", ")
    }${changed.length > 5 ? ", …" : ""})`;
  return {
    code: "STALE_ANCHOR",
    anchor: false,
    line: changed[0],
    head: `${which}: the range edit would discard that change`,
    listing,
    cut,
  };
}

/**
 * Turns an op's findings into problems, each ending with the one next step:
 * resend with the anchors shown, or re-read the op's lines when the listing
 * does not cover them (a region that moved and is larger than what is shown,
 * or a listing cut short).
 */
function judge(
  now: LineLookup,
  parsed: (Anchor | null)[],
  label: string,
  all: Finding[],
  add: (
    code: ErrorCode,
    message: string,
    line?: number,
    shown?: Shown[],
  ) => void,
): void {
  let findings = all;
  if (findings.length === 0) return;
  const s = parsed[0]?.line;
  const e = parsed[parsed.length - 1]?.line;
  const anchored = findings.filter((f) => f.anchor);
  const deltas = new Set(
    anchored.map((f) => f.movedTo === undefined ? NaN : f.movedTo - f.line),
  );
  const d = deltas.size === 1 ? [...deltas][0] : NaN;
  const distinct = new Set(parsed.map((a) => a && `${a.line}:${a.hash}`));
  const moved = Number.isFinite(d) && anchored.length === distinct.size;
  // Lines inside a range that moved are compared at their old numbers, so
  // their "changes" only repeat the move.
  if (moved) findings = anchored;
  const shownLines = new Set<number>();
  const shownOf = (f: Finding): Shown[] => {
    const runs = runsOf(f.listing);
    if (f.movedTo !== undefined && f.movedHash !== undefined) {
      runs.push({ start: f.movedTo, hashes: [f.movedHash] });
    }
    return runs;
  };
  for (const f of findings) {
    for (const r of shownOf(f)) {
      for (let k = 0; k < r.hashes.length; k++) shownLines.add(r.start + k);
    }
  }
  let rereadFrom = 0;
  let rereadTo = 0;
  if (s !== undefined && e !== undefined && e >= s) {
    const [from, to] = moved ? [s + d, e + d] : [s, e];
    let covered = !findings.some((f) => f.cut);
    if (moved) {
      for (let n = from; n <= to && covered; n++) {
        if (!shownLines.has(n)) covered = false;
      }
    }
    if (!covered) [rereadFrom, rereadTo] = [from, to];
  }
  for (const f of findings) {
    const shown = shownOf(f);
    let step: string;
    if (rereadFrom > 0) {
      step = `Re-read ${
        rereadFrom === rereadTo
          ? `line ${rereadFrom}`
          : `lines ${rereadFrom}–${rereadTo}`
      }, then resend ${label}: it covers more lines than this shows.`;
    } else if (moved) {
      step = `Resend with the ${
        parsed.length > 1 ? "anchors" : "anchor"
      } it moved to.`;
    } else if (f.listing.length > 0) {
      step = "Resend with these anchors:";
    } else {
      step = now.lineCount === 0
        ? ""
        : "Re-read the file, then resend with anchors from that read.";
    }
    const listing = f.listing.length === 0
      ? ""
      : `${step.endsWith(":") ? "" : " Current lines:"}\n${
        render(now, f.listing)
      }`;
    add(f.code, `${f.head}.${step ? ` ${step}` : ""}${listing}`, f.line, shown);
  }
}

function checkNewLines(
  lines: readonly string[],
  literal: boolean,
  label: string,
  add: (code: ErrorCode, message: string) => void,
): void {
  let bad = 0;
  let pasted = false;
  lines.forEach((line, i) => {
    const fault = lineFault(line);
    if (fault) {
      bad++;
      if (bad <= MAX_BAD_LINES) {
        add(
          "BAD_LINE",
          `New line ${i + 1} of ${label} ${fault}.`,
        );
      }
      return;
    }
    if (literal || pasted) return;
    const prefix = readPrefixOf(line);
    if (prefix) {
      pasted = true;
      add(
        "PASTED_PREFIX",
        `New line ${
          i + 1
        } of ${label} starts with the read prefix "${prefix}": new lines are written exactly as given, so send the line without its LINE:HH| prefix (or set "literal": true on the op if the file really holds such lines).`,
      );
    }
  });
  if (bad > MAX_BAD_LINES) {
    add(
      "BAD_LINE",
      `${capital(label)} has ${
        bad - MAX_BAD_LINES
      } more bad new lines like those above.`,
    );
  }
}

function capital(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

function findOverlaps(
  ops: PatchOp[],
  spans: Span[],
  points: Point[],
  add: (code: ErrorCode, message: string, line?: number) => void,
): void {
  const sorted = [...spans].sort((a, b) =>
    a.start - b.start || a.index - b.index
  );
  let reach: Span | null = null;
  const clashes: [Span, Span][] = [];
  for (const span of sorted) {
    if (reach && span.start <= reach.end) clashes.push([reach, span]);
    if (!reach || span.end > reach.end) reach = span;
  }
  for (const [a, b] of clashes) {
    const [first, second] = a.index < b.index ? [a, b] : [b, a];
    const line = Math.max(a.start, b.start);
    add(
      "OVERLAP",
      `${capital(opLabel(ops[second.index], second.index))} overlaps ${
        opLabel(ops[first.index], first.index)
      }: both change line ${line}. Merge them into one op.`,
      line,
    );
  }
  for (const point of points) {
    const hit = sorted.find((s) =>
      s.start <= point.line && point.line <= s.end
    );
    if (!hit) continue;
    const other = ops[hit.index];
    add(
      "OVERLAP",
      `${
        capital(opLabel(ops[point.index], point.index))
      } anchors on line ${point.line}, which ${opLabel(other, hit.index)} ${
        other.op === "delete" ? "deletes" : "replaces"
      }: put the new lines into that op instead.`,
      point.line,
    );
  }
}

/**
 * Turns validated ops into sorted edits (see {@link PlannedEdit}). Inserts
 * into the same gap (`insert_after L` and `insert_before L+1`, or `append`
 * and `prepend` on an empty file) keep the order of their ops; a replace with
 * `lines: []` deletes.
 *
 * @param ops Ops that passed {@link validateOps}.
 * @param lineCount Number of lines in the file now.
 * @returns Edits sorted by `at`; at one `at`, inserts first, then op order.
 * @throws {SyntaxError} When an anchor does not parse (validate first).
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { planOps } from "./validate.ts";
 * assert.deepEqual(planOps([
 *   { op: "replace", start: "2:23", lines: ["B"] },
 *   { op: "insert_after", anchor: "1:ed", lines: ["x"] },
 *   { op: "append", lines: ["z"] },
 * ], 3), [
 *   { at: 2, deleteCount: 0, lines: ["x"] },
 *   { at: 2, deleteCount: 1, lines: ["B"] },
 *   { at: 4, deleteCount: 0, lines: ["z"] },
 * ]);
 * ```
 */
export function planOps(ops: PatchOp[], lineCount: number): PlannedEdit[] {
  return planEdits(ops, () => lineCount);
}

/**
 * {@link planOps} asking for the line count only when an op appends, so
 * content indexed lazily is not counted to the end for an edit at the top.
 */
export function planEdits(
  ops: PatchOp[],
  lineCount: () => number,
): PlannedEdit[] {
  const edits = ops.map((op, index) => {
    let at: number;
    let deleteCount = 0;
    switch (op.op) {
      case "replace":
      case "delete": {
        at = parseAnchor(op.start).line;
        const end = op.end !== undefined ? parseAnchor(op.end).line : at;
        deleteCount = end - at + 1;
        break;
      }
      case "insert_after":
        at = parseAnchor(op.anchor).line + 1;
        break;
      case "insert_before":
        at = parseAnchor(op.anchor).line;
        break;
      case "append":
        at = lineCount() + 1;
        break;
      case "prepend":
        at = 1;
        break;
    }
    const lines = op.op === "delete" ? [] : op.lines.slice();
    return { index, edit: { at, deleteCount, lines } };
  });
  edits.sort((a, b) =>
    a.edit.at - b.edit.at ||
    Number(a.edit.deleteCount > 0) - Number(b.edit.deleteCount > 0) ||
    a.index - b.index
  );
  return edits.map((e) => e.edit);
}

/**
 * A {@link LineLookup} over lines held in memory; full hashes are computed
 * on first use, and the hash index for `linesWithHash` only when asked.
 *
 * @param lines The lines of a file, without terminators.
 * @returns A lookup answering from those lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookupFromLines } from "./validate.ts";
 * const now = lookupFromLines(["x", "y", "x"]);
 * assert.equal(now.lineCount, 3);
 * assert.equal(now.text(2), "y");
 * assert.deepEqual(now.linesWithHash(now.hash32(1)), [1, 3]);
 * ```
 */
export function lookupFromLines(lines: readonly string[]): LineLookup {
  const hashes = new Map<number, number>();
  let index: Map<number, number[]> | null = null;
  const hash32 = (n: number): number => {
    let h = hashes.get(n);
    if (h === undefined) {
      h = lineHash32(lines[n - 1]);
      hashes.set(n, h);
    }
    return h;
  };
  return {
    lineCount: lines.length,
    hash32,
    text: (n) => lines[n - 1],
    linesWithHash(h) {
      if (!index) {
        index = new Map();
        for (let n = 1; n <= lines.length; n++) {
          const k = hash32(n);
          const at = index.get(k);
          if (at) at.push(n);
          else index.set(k, [n]);
        }
      }
      return index.get(h)?.slice() ?? [];
    },
  };
}

/**
 * A {@link ReadMemory} from remembered full hashes: an array (index 0 is
 * line 1; holes mean "not seen") or a map from line number to hash.
 *
 * @param hashes Full 32-bit hashes by line.
 * @returns The read record.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../hash/fnv.ts";
 * import { memoryFromHashes } from "./validate.ts";
 * const memory = memoryFromHashes(["a", "b"].map(lineHash32));
 * assert.equal(memory.hash32(2), lineHash32("b"));
 * assert.equal(memory.hash32(3), undefined);
 * assert.equal(memoryFromHashes(new Map([[7, 1]])).hash32(7), 1);
 * ```
 */
export function memoryFromHashes(
  hashes: ReadonlyMap<number, number> | ArrayLike<number | undefined>,
): ReadMemory {
  if (hashes instanceof Map) {
    const map = hashes as ReadonlyMap<number, number>;
    return { hash32: (n) => map.get(n) };
  }
  const list = hashes as ArrayLike<number | undefined>;
  return {
    hash32: (
      n,
    ) => (Number.isInteger(n) && n >= 1 && n <= list.length
      ? list[n - 1]
      : undefined),
  };
}
