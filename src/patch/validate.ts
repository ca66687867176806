/**
 * The rules an edit must pass to land (docs/patch-format.md#validation):
 * anchors that parse, name a line and match it; ranges that run forwards and
 * ops that do not overlap; new lines that a read could show and that carry
 * no pasted read prefix. They work through {@link LineLookup} and
 * {@link ReadMemory}, so content in memory and files streamed from disk are
 * judged by the same rules.
 *
 * @module
 */

import { readPrefixOf } from "../anchor/anchor.ts";
import type { ErrorCode } from "../errors.ts";
import { foldHash, hex2, lineHash32 } from "../hash/fnv.ts";
import { leanLines } from "../anchor/lean.ts";
import { lineFault } from "./_line_fault.ts";
import {
  type Add,
  type Finding,
  interior,
  judge,
  movedLine,
} from "./_stale.ts";
import { CONTEXT, existsIn, window } from "./fresh.ts";
import { tryAnchor } from "./lookup.ts";
import { anchorsOf, rowOf, takesLines } from "./ops.ts";
import {
  capital,
  linesWord,
  opLabel,
  type Problem,
  problem,
} from "./problems.ts";
import type { Anchor, LineLookup, PatchOp, ReadMemory } from "./types.ts";
import { whereText } from "./_drift.ts";
import type { Placement } from "./align.ts";
import { pushAll } from "../_internal/arrays.ts";

export type { Problem };

/** Options of {@link validateOps}. */
export interface ValidateOptions {
  /** Full hashes the session saw when it read the file. */
  memory?: ReadMemory;
  /** Path put on each problem. */
  path?: string;
  /**
   * Where each remembered line of an op's region stands now, by the drift
   * alignment (docs/patch-format.md#drift): an op applies in place only
   * while every such line is placed at its own number.
   */
  place?: (line: number) => Placement | undefined;
  /** Ops already placed by rebase (their lines were checked there). */
  placedOps?: ReadonlySet<number>;
  /** Ops already refused (their problems are reported elsewhere). */
  skip?: ReadonlySet<number>;
  /**
   * The session last read the file in the lean form: fresh lines are shown
   * as `LINE|content`, and a new line `N|text` whose text is line N as read
   * is refused as a pasted prefix.
   */
  lean?: boolean;
  /** The record as read, for the lean pasted-prefix rule (default `memory`). */
  read?: ReadMemory;
}

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
 * import { lookupFromLines } from "./lookup.ts";
 * import { validateOps } from "./validate.ts";
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
  const lean = options.lean === true;
  const add: Add = (code, message, line, shown) => {
    problems.push(
      problem(code, lean ? leanLines(message) : message, {
        path,
        line,
        shown,
      }),
    );
  };
  const exists = existsIn(now);
  const reported = new Set<string>();
  const spans: Span[] = [];
  const points: Point[] = [];

  ops.forEach((op, index) => {
    if (options.skip?.has(index)) return;
    const label = opLabel(op, index);
    const parsed: (Anchor | null)[] = [];
    const findings: Finding[] = [];
    let usable = true;
    for (const text of anchorsOf(op)) {
      const a = tryAnchor(text);
      parsed.push(a);
      if (!a) {
        usable = false;
        add("BAD_ANCHOR", notAnAnchor(label, text));
        continue;
      }
      const key = `${a.line}:${a.hash}`;
      if (reported.has(key)) continue;
      const remembered = memory?.hash32(a.line);
      const placed = remembered === undefined
        ? undefined
        : options.place?.(a.line);
      const moved = placed
        ? (placed.kind === "placed" && placed.at !== a.line
          ? placed.at
          : undefined)
        : movedLine(now, exists, a, remembered);
      const movedText = moved !== undefined
        ? `${
          placed ? ` (line ${a.line} → ${moved})` : ""
        }; the line you read moved to line ${moved} → ${moved}:${a.hash}`
        : placed?.kind === "ambiguous"
        ? `; line ${a.line} → ${whereText(placed)}, so nothing is relocated`
        : "";
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

    const region = rowOf(op).region;
    if (region === "range") {
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
    } else if (region === "after" || region === "before") {
      if (usable && parsed[0]) points.push({ index, line: parsed[0].line });
    }

    if (
      usable && findings.length === 0 && options.place && memory &&
      !options.placedOps?.has(index)
    ) {
      pushAll(
        findings,
        displaced(now, exists, memory, options.place, parsed, label),
      );
    }

    judge(now, parsed, label, findings, add);

    if (takesLines(op)) {
      if (region !== "range" && op.lines.length === 0) {
        add(
          "EMPTY_INSERT",
          `${
            capital(label)
          } has no lines to insert: give at least one line, or drop the op.`,
        );
      }
      checkNewLines(
        op.lines,
        op.literal === true,
        label,
        add,
        lean ? options.read ?? memory : undefined,
      );
    }
  });

  findOverlaps(ops, spans, points, add);
  return problems;
}

/**
 * The in-place rule: every remembered line of the op's region must be
 * placed at its own number; the op's anchors that are not, or else the
 * first such line inside its range, become stale findings naming where
 * their lines now stand.
 */
function displaced(
  now: LineLookup,
  exists: (n: number) => boolean,
  memory: ReadMemory,
  place: (line: number) => Placement | undefined,
  parsed: (Anchor | null)[],
  label: string,
): Finding[] {
  if (parsed.length === 0 || parsed.some((a) => a === null)) return [];
  const s = parsed[0]!.line;
  const e = parsed[parsed.length - 1]!.line;
  const off = (n: number) => {
    const p = place(n);
    return p && !(p.kind === "placed" && p.at === n) ? p : undefined;
  };
  const findingOf = (n: number, head: string): Finding => {
    const p = off(n)!;
    const at = p.kind === "gone" ? [n] : p.kind === "placed" ? [p.at] : p.at;
    let from = n;
    let to = n;
    for (const a of at) {
      from = Math.min(from, a);
      to = Math.max(to, a);
    }
    from -= CONTEXT;
    to += CONTEXT;
    let listing: [number, number][];
    try {
      // A streamed file holds only the lines collected around the op.
      listing = to - from <= 4 * CONTEXT + 4
        ? window(exists, now, from, to)
        : window(exists, now, n - CONTEXT, n + CONTEXT);
    } catch {
      listing = window(exists, now, n - CONTEXT, n + CONTEXT);
    }
    const moved = p.kind === "placed"
      ? `${p.at}:${hex2(foldHash(memory.hash32(n)!))}`
      : "";
    const why = p.kind === "placed"
      ? ` (lines were inserted or removed above it; it now reads ${moved})`
      : p.kind === "ambiguous"
      ? "; the file now fits what was read in more than one place, so nothing is relocated"
      : "";
    return {
      code: "STALE_ANCHOR",
      anchor: parsed.some((a) => a!.line === n),
      line: n,
      head: `${head}: line ${n} → ${whereText(p)}${why}`,
      listing,
      movedTo: p.kind === "placed" ? p.at : undefined,
      movedHash: p.kind === "placed" ? memory.hash32(n) : undefined,
    };
  };
  const out: Finding[] = [];
  const seen = new Set<number>();
  for (const a of parsed) {
    if (seen.has(a!.line)) continue;
    seen.add(a!.line);
    if (off(a!.line)) {
      out.push(findingOf(a!.line, `Anchor ${a!.line}:${a!.hash} is stale`));
    }
  }
  if (out.length > 0) return out;
  for (let n = s + 1; n < e; n++) {
    if (memory.hash32(n) === undefined || !off(n)) continue;
    return [
      findingOf(
        n,
        `Line ${n} inside ${label} no longer stands where it was read`,
      ),
    ];
  }
  return [];
}

const LEAN_PREFIX = /^(\d+)\|/;

/** `N|` at the start of a line whose rest is line N as read (lean form), or null. */
function leanPrefixOf(line: string, read?: ReadMemory): string | null {
  if (!read) return null;
  const m = LEAN_PREFIX.exec(line);
  if (!m) return null;
  const h = read.hash32(Number(m[1]));
  return h !== undefined && h === lineHash32(line.slice(m[0].length))
    ? m[0]
    : null;
}

function checkNewLines(
  lines: readonly string[],
  literal: boolean,
  label: string,
  add: (code: ErrorCode, message: string) => void,
  leanRead?: ReadMemory,
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
    const prefix = readPrefixOf(line) ?? leanPrefixOf(line, leanRead);
    if (prefix) {
      pasted = true;
      add(
        "PASTED_PREFIX",
        `New line ${
          i + 1
        } of ${label} starts with the read prefix "${prefix}": new lines are written exactly as given, so send the line without its ${
          prefix.includes(":") ? "LINE:HH|" : "LINE|"
        } prefix (or set "literal": true on the op if the file really holds such lines).`,
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
        rowOf(other).verb
      }: put the new lines into that op instead.`,
      point.line,
    );
  }
}

/**
 * Why an op's anchor is not one, naming the likeliest slip: the read's
 * `LINE:HH|content` copied whole instead of `LINE:HH`.
 */
function notAnAnchor(label: string, text: string): string {
  const pasted = /^\s*(\d+:[0-9a-fA-F]{2})\|/.exec(text);
  if (pasted) {
    return `In ${label}, ${
      JSON.stringify(text.slice(0, 80))
    } is not an anchor: an anchor is ${
      pasted[1]
    }; the text after "|" is not part of it.`;
  }
  return `In ${label}, ${
    JSON.stringify(text.slice(0, 80))
  } is not an anchor: write LINE:HH as shown in the read, such as "12:a3".`;
}
