/**
 * The shared core of patching (DESIGN §3 rules 2–5, §9): checking ops against
 * a file as it is now and planning their application. Both work through
 * {@link LineLookup} and {@link ReadMemory}, so content in memory and files
 * streamed from disk are judged by the same rules.
 *
 * @module
 */

import { parseAnchor, readPrefixOf } from "../anchor/anchor.ts";
import { formatLine } from "../anchor/format.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import type { Problem } from "../errors.ts";
import { newLines, splitEntry } from "./_lines.ts";
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

interface Span {
  index: number;
  start: number;
  end: number;
}
interface Point {
  index: number;
  line: number;
}

function opLabel(op: PatchOp, index: number): string {
  let where = "";
  if (op.op === "replace" || op.op === "delete") {
    where = ` ${op.start}${op.end !== undefined ? `..${op.end}` : ""}`;
  } else if (op.op === "insert_after" || op.op === "insert_before") {
    where = ` ${op.anchor}`;
  }
  return `op ${index + 1} (${op.op}${where})`;
}

function anchorsOf(op: PatchOp): string[] {
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

function tryAnchor(text: unknown): Anchor | null {
  try {
    return parseAnchor(text as string);
  } catch {
    return null;
  }
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

/**
 * Lists what a streaming caller must collect, in one pass over the file, to
 * answer every {@link LineLookup} query {@link validateOps} may make: the
 * anchored lines with ±2 lines of context (hash and text), and the
 * remembered full hashes whose current line numbers are needed (for
 * "moved to line N").
 *
 * @param ops The ops to be validated.
 * @param options `memory` (the session's read record) and `lineCount` (to clip the context).
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
  options: { memory?: ReadMemory; lineCount?: number } = {},
): { lines: number[]; hashes: number[] } {
  const lines = new Set<number>();
  const hashes = new Set<number>();
  for (const op of ops) {
    for (const text of anchorsOf(op)) {
      const a = tryAnchor(text);
      if (!a) continue;
      const [from, to] = clampRange(
        a.line - CONTEXT,
        a.line + CONTEXT,
        options.lineCount,
      );
      for (let n = from; n <= to; n++) lines.add(n);
      const remembered = options.memory?.hash32(a.line);
      if (remembered !== undefined) hashes.add(remembered);
    }
  }
  return {
    lines: [...lines].sort((x, y) => x - y),
    hashes: [...hashes].sort((x, y) => x - y),
  };
}

/**
 * Renders lines `from..to` of a file in read format (`LINE:HH|content`),
 * clipped to the file.
 */
function contextLines(now: LineLookup, from: number, to: number): string {
  const out: string[] = [];
  for (let n = Math.max(1, from); n <= Math.min(now.lineCount, to); n++) {
    out.push(formatLine(n, now.text(n), undefined, foldHash(now.hash32(n))));
  }
  return out.join("\n");
}

/** Where the remembered content of an anchored line stands now, when that is one line. */
function movedTo(
  now: LineLookup,
  a: Anchor,
  remembered: number | undefined,
): string {
  if (remembered === undefined || hex2(foldHash(remembered)) !== a.hash) {
    return "";
  }
  const at = now.linesWithHash(remembered).filter((n) => n !== a.line);
  if (
    at.length !== 1 ||
    (a.line <= now.lineCount && now.hash32(a.line) === remembered)
  ) {
    return "";
  }
  return `; the line you read moved to line ${at[0]} → ${at[0]}:${a.hash}`;
}

/**
 * Checks ops against a file as it is now (DESIGN §3 rules 2–5 and §9):
 * anchors parse (`BAD_ANCHOR`), name a line that exists (`OUT_OF_RANGE`),
 * and match it (`STALE_ANCHOR`: by the 2-hex fold, and by the full hash where
 * `memory` holds one); ranges run forwards (`BAD_RANGE`); ops do not overlap,
 * nor does an insert anchor on a line another op replaces or deletes
 * (`OVERLAP`); inserts carry lines (`EMPTY_INSERT`); no new line starts with
 * a pasted read prefix such as `12:a3|` (`PASTED_PREFIX`). Queries `now` only
 * for what {@link linesNeeded} lists.
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
 * assert.match(problem.message, /\n1:ed\|a\n2:23\|b\n3:94\|c$/);
 * ```
 */
export function validateOps(
  ops: PatchOp[],
  now: LineLookup,
  options: ValidateOptions = {},
): Problem[] {
  const { memory, path } = options;
  const problems: Problem[] = [];
  const add = (code: string, message: string, line?: number): void => {
    const p: Problem = { code, message };
    if (path !== undefined && path !== "") p.path = path;
    if (line !== undefined) p.line = line;
    problems.push(p);
  };
  const n = now.lineCount;
  const reported = new Set<string>();
  const spans: Span[] = [];
  const points: Point[] = [];

  ops.forEach((op, index) => {
    const label = opLabel(op, index);
    const parsed: (Anchor | null)[] = [];
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
      if (a.line > n) {
        reported.add(key);
        add(
          "OUT_OF_RANGE",
          `Anchor ${key} is out of range: the file has ${linesWord(n)}${
            n === 0 ? " (it is empty; use append or prepend)" : ""
          }${movedTo(now, a, remembered)}.`,
          a.line,
        );
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
      add(
        "STALE_ANCHOR",
        `Anchor ${key} is stale: ${why}${
          movedTo(now, a, remembered)
        }. Current lines:\n${
          contextLines(now, a.line - CONTEXT, a.line + CONTEXT)
        }`,
        a.line,
      );
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
        }
      }
    } else if (op.op === "insert_after" || op.op === "insert_before") {
      if (usable && parsed[0]) points.push({ index, line: parsed[0].line });
    }

    if ("lines" in op) {
      if (op.op !== "replace" && op.lines.length === 0) {
        add(
          "EMPTY_INSERT",
          `${
            capital(label)
          } has no lines to insert: give at least one line, or drop the op.`,
        );
      }
      op.lines.forEach((entry, i) => {
        for (const line of splitEntry(entry)) {
          const prefix = readPrefixOf(line);
          if (prefix) {
            add(
              "PASTED_PREFIX",
              `New line ${
                i + 1
              } of ${label} starts with the read prefix "${prefix}": new lines are written exactly as given, so send the line without its LINE:HH| prefix.`,
            );
            break;
          }
        }
      });
    }
  });

  findOverlaps(ops, spans, points, add);
  return problems;
}

function capital(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

function findOverlaps(
  ops: PatchOp[],
  spans: Span[],
  points: Point[],
  add: (code: string, message: string, line?: number) => void,
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
 * `lines: []` deletes. New lines holding line breaks are split into lines.
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
        at = lineCount + 1;
        break;
      case "prepend":
        at = 1;
        break;
    }
    const lines = op.op === "delete" ? [] : newLines(op.lines);
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
