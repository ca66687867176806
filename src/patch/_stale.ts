/**
 * Stale findings (docs/patch-format.md#validation): an anchor whose line
 * changed (by the 2-hex fold, or by the full hash the session read), lines
 * changed inside a replaced or deleted range, and where a moved line went;
 * each turned into a problem that lists the lines as they are now and names
 * the one next step.
 *
 * @module
 */
import type { ErrorCode } from "../errors.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import { CONTEXT, renderListing, runsOf, window } from "./fresh.ts";
import type { Shown } from "./problems.ts";
import type { Anchor, LineLookup, ReadMemory } from "./types.ts";

/** Most lines one problem shows around changed lines inside a range. */
const MAX_SHOWN = 40;

/** Adds one problem. */
export type Add = (
  code: ErrorCode,
  message: string,
  line?: number,
  shown?: Shown[],
) => void;

/** A stale finding of one op, turned into a problem once the op is judged whole. */
export interface Finding {
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

/** Where the remembered content of an anchored line stands now, when that is one other line. */
export function movedLine(
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

/** The changed lines strictly inside a range that the session saw, as one finding. */
export function interior(
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
export function judge(
  now: LineLookup,
  parsed: (Anchor | null)[],
  label: string,
  all: Finding[],
  add: Add,
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
        renderListing(now, f.listing)
      }`;
    add(f.code, `${f.head}.${step ? ` ${step}` : ""}${listing}`, f.line, shown);
  }
}
