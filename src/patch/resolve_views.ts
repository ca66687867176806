/**
 * Resolving a line number through the session's views
 * (docs/reads.md#views-several-edits-from-one-read): `N:HH` and a bare `N`
 * name the line some view showed as number N; the session's own commits
 * since that view say exactly where that line stands now. The anchor is
 * rewritten to that number before the rules of `validate.ts` judge it
 * against the file on disk; two views that disagree, or a line the
 * session's own edit replaced, refuse the op instead.
 *
 * @module
 */
import { leanLines } from "../anchor/lean.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import { freshAround } from "./fresh.ts";
import {
  lineNeverShown,
  lineOutOfRange,
  opLabel,
  type Problem,
  problem,
  type Shown,
} from "./problems.ts";
import { anchorFieldsOf, rowOf } from "./ops.ts";
import type { LineLookup, MoveOp, PatchOp } from "./types.ts";
import type { FileViews, OwnCommit, View } from "./views.ts";

/** What resolution needs of one file. */
export interface ViewedFile {
  /** The session's views of it (none: anchors are left as they are). */
  views?: FileViews;
  /** The file now, for the fresh lines a refusal shows. */
  now?: LineLookup;
  /** The session reads it in the lean form (`LINE|content`). */
  lean?: boolean;
  /** Whether the session knows line n of the file now (it was shown it). */
  known?: (n: number) => boolean;
}

/** A line an anchor named that the session's own commits moved. */
export interface MovedNote {
  /** The number as the model wrote it. */
  from: number;
  /** Where that line stands now. */
  to: number;
  /** The own commit that moved it last, when history is kept. */
  entry?: string;
}

/** The outcome of resolving one file's anchors. */
export interface ViewResolution<T> {
  /** The ops with every anchor in the file's numbering now. */
  ops: T[];
  /** Problems of anchors that could not be resolved (their ops are left out of `ops`). */
  problems: Problem[];
  /** Indexes (in the input) of the ops refused here. */
  refused: Set<number>;
  /** Lines moved by the session's own commits, by their number now. */
  moved: Map<number, MovedNote>;
}

/**
 * Problems about a number the session's views could not settle: the lines
 * they show then stand for that number as a read's would, so a resend
 * built from them resolves (docs/reads.md#views-several-edits-from-one-read).
 */
const SETTLING = new WeakMap<Problem, Shown[]>();

/**
 * The lines an ambiguity refusal settles: where its candidates stand now,
 * which stand for their numbers in a resend written `N:HH`.
 */
export function settledBy(p: Problem): Shown[] | undefined {
  return SETTLING.get(p);
}

function settleWith(p: Problem, lines: Shown[]): Problem {
  if (lines.length > 0) SETTLING.set(p, lines);
  return p;
}

const ANCHOR_TEXT = /^(\d+)(?::([0-9a-fA-F]{2}))?(\*)?(\|)?$/;

interface Parsed {
  line: number;
  hash?: string;
  block: boolean;
}

function parse(text: unknown): Parsed | null {
  if (typeof text !== "string") return null;
  const m = ANCHOR_TEXT.exec(text.trim());
  if (!m || (m[4] && (!m[2] || m[3]))) return null;
  const line = Number(m[1]);
  if (!(line >= 1) || !Number.isSafeInteger(line)) return null;
  return { line, hash: m[2]?.toLowerCase(), block: m[3] === "*" };
}

type Outcome = { line: number; view: View } | { gone: OwnCommit; view: View };

/** One anchor's verdict: its text now, or a problem. */
type Verdict =
  | { text: string; moved?: MovedNote }
  | { problem: Problem };

function describe(v: View): string {
  return v.read ? "a read" : "an edit result or refusal";
}

function listing(
  file: ViewedFile,
  at: number,
): { text: string; shown: Shown[] } | null {
  if (!file.now || at < 1 || at > file.now.lineCount) return null;
  const fresh = freshAround(file.now, at);
  return {
    text: file.lean ? leanLines(fresh.text) : fresh.text,
    shown: fresh.shown,
  };
}

/** What became of a line that has no number now. */
function goneBy(c: OwnCommit): string {
  return c.theirs
    ? "was changed or removed by another party before this session's next edit"
    : `was replaced or removed by its own edit${c.entry ? ` ${c.entry}` : ""}`;
}

/** Where an own commit put the lines it wrote, in the numbering now. */
function landedAt(views: FileViews, gone: OwnCommit, line: number): number {
  let at = line;
  let shift = 0;
  for (const e of gone.edits) {
    if (e.at + e.deleteCount <= line) shift += e.added - e.deleteCount;
    else {
      at = e.at;
      break;
    }
  }
  let now = at + shift;
  for (const c of views.commits) {
    if (c.epoch <= gone.epoch) continue;
    for (const e of c.edits) {
      if (e.at + e.deleteCount <= now) now += e.added - e.deleteCount;
      else break;
    }
  }
  return Math.max(1, now);
}

function resolveOne(
  text: string,
  file: ViewedFile,
  label: string,
  path: string | undefined,
): Verdict {
  const views = file.views;
  const a = parse(text);
  if (!views || !a) return { text };
  const shownAt = views.candidates(a.line, a.hash === undefined);
  const fits = a.hash === undefined
    ? shownAt
    : shownAt.filter((v) =>
      hex2(foldHash(views.hashIn(v, a.line)!)) === a.hash
    );
  const named = a.hash === undefined ? `line ${a.line}` : `${a.line}:${a.hash}`;
  if (fits.length === 0) {
    if (
      shownAt.length === 0 && a.hash !== undefined && !views.dropped &&
      views.commits.length === 0
    ) {
      // Nothing this session was shown says otherwise: judged where written.
      return { text };
    }
    if (shownAt.length > 0) {
      const first = views.translate(shownAt[shownAt.length - 1], a.line);
      if ("line" in first && first.line === a.line) return { text };
    }
    const count = file.now?.lineCount;
    if (a.hash === undefined && count !== undefined && a.line > count) {
      return { problem: lineOutOfRange(label, a.line, count, path) };
    }
    if (a.hash === undefined && shownAt.length === 0 && !views.dropped) {
      return { problem: lineNeverShown(label, a.line, path) };
    }
    const here = shownAt.length > 0
      ? views.translate(shownAt[shownAt.length - 1], a.line)
      : { line: a.line };
    const at = "line" in here ? here.line : landedAt(views, here.gone, a.line);
    const fresh = listing(file, at);
    const where = "line" in here && here.line !== a.line
      ? ` Line ${a.line} as this session read it is line ${here.line} now:`
      : fresh
      ? " The lines there now:"
      : " Read the lines again, then resend.";
    return {
      problem: problem(
        "STALE_ANCHOR",
        `In ${label}, ${named} matches no line this session was shown as line ${a.line} that it can still place.${where}${
          fresh ? `\n${fresh.text}` : ""
        }`,
        { path, line: at, shown: fresh?.shown },
      ),
    };
  }
  const outcomes: Outcome[] = fits.map((v) => ({
    ...views.translate(v, a.line),
    view: v,
  }));
  // Two views may put one number on different lines even with no own
  // commit between them (another party's edit in between): their hashes
  // then differ, and the number names neither for sure.
  const lines = new Set(
    outcomes.map((o) =>
      "line" in o
        ? `l${o.line}:${views.hashIn(o.view, a.line)}`
        : `g${o.gone.epoch}`
    ),
  );
  const places = new Set(outcomes.map((o) => ("line" in o ? o.line : -1)));
  if (lines.size > 1 && places.size === 1 && !places.has(-1)) {
    const at = [...places][0];
    const fresh = listing(file, at);
    const now = file.now;
    const settle = now && at <= now.lineCount
      ? [{ start: at, hashes: [now.hash32(at)] }]
      : [];
    return {
      problem: settleWith(
        problem(
          "STALE_ANCHOR",
          `In ${label}, ${named} is ambiguous, so it is refused as stale: the views this session was shown put different lines at line ${a.line} (the file changed between them). Read the lines again, or resend with the anchor of the line you mean${
            fresh ? `; line ${at} now:\n${fresh.text}` : "."
          }`,
          { path, line: at, shown: fresh?.shown },
        ),
        settle,
      ),
    };
  }
  if (lines.size > 1) {
    const shown: Shown[] = [];
    const parts: string[] = [];
    const settle: Shown[] = [];
    const seen = new Set<string>();
    for (const o of outcomes) {
      const key = "line" in o ? `l${o.line}` : `g${o.gone.epoch}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if ("line" in o) {
        const fresh = listing(file, o.line);
        const now = file.now;
        if (now && o.line <= now.lineCount) {
          settle.push({ start: o.line, hashes: [now.hash32(o.line)] });
        }
        parts.push(
          `Line ${a.line} as ${
            describe(o.view)
          } showed it is line ${o.line} now${fresh ? `:\n${fresh.text}` : "."}`,
        );
        if (fresh) shown.push(...fresh.shown);
      } else {
        parts.push(
          `Line ${a.line} as ${describe(o.view)} showed it ${goneBy(o.gone)}.`,
        );
      }
    }
    return {
      problem: settleWith(
        problem(
          "STALE_ANCHOR",
          `In ${label}, ${named} is ambiguous, so it is refused as stale: this session was shown different lines as line ${a.line}, and they stand apart now. Resend with the anchor of the line you mean as it stands now, or read the file again.\n${
            parts.join("\n")
          }`,
          { path, line: a.line, shown },
        ),
        settle,
      ),
    };
  }
  const o = outcomes[outcomes.length - 1];
  if ("gone" in o) {
    const at = landedAt(views, o.gone, a.line);
    const fresh = listing(file, at);
    return {
      problem: problem(
        "STALE_ANCHOR",
        `In ${label}, line ${a.line} as this session was shown it ${
          goneBy(o.gone)
        }, so it is no longer in the file. ${
          o.gone.theirs
            ? "Read the lines again"
            : "Build the op from that edit's result"
        }${fresh ? " (the lines there now are below)" : ""}${
          o.gone.theirs ? "" : ", or read the lines again"
        }.${fresh ? `\n${fresh.text}` : ""}`,
        { path, line: at, shown: fresh?.shown },
      ),
    };
  }
  const hash = a.hash ?? hex2(foldHash(views.hashIn(o.view, a.line)!));
  const out = `${o.line}:${hash}${a.block ? "*" : ""}`;
  if (o.line === a.line) return { text: out };
  const last = [...views.commits].reverse().find((c) =>
    c.epoch > o.view.epoch && !c.theirs
  );
  return {
    text: out,
    moved: {
      from: a.line,
      to: o.line,
      ...(last?.entry ? { entry: last.entry } : {}),
    },
  };
}

/**
 * Rewrites every anchor of a file's ops (and of its moves and copies, whose
 * target anchors resolve through the target file's views) in the numbering
 * of the file now.
 *
 * @param ops The ops as sent.
 * @param fileOf The views and content of a file, by path; `self` is this file's path.
 * @param self This file's path (named in problems).
 * @returns The rewritten ops, problems, the ops refused, and the moved lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineHash32 } from "../hash/fnv.ts";
 * import { FileViews } from "./views.ts";
 * import { resolveThroughViews } from "./resolve_views.ts";
 * const views = new FileViews();
 * views.add(true, [{ start: 1, hashes: ["a", "b", "c"].map(lineHash32) }]);
 * views.commit([{ at: 1, deleteCount: 0, lines: ["new"] }]);
 * const out = resolveThroughViews([{ op: "delete", start: "3" }], () => ({ views }), "f");
 * assert.deepEqual(out.ops, [{ op: "delete", start: "4:94" }]);
 * ```
 */
export function resolveThroughViews<T extends PatchOp | MoveOp>(
  ops: readonly T[],
  fileOf: (path: string) => ViewedFile,
  self: string,
): ViewResolution<T> {
  const problems: Problem[] = [];
  const refused = new Set<number>();
  const moved = new Map<number, MovedNote>();
  const out: T[] = [];
  ops.forEach((op, index) => {
    const label = opLabel(op, index);
    const fields = anchorFieldsOf(op);
    const next = { ...op } as Record<string, unknown>;
    let bad = false;
    for (const field of fields) {
      const target = (field === "after" || field === "before") &&
          (op as MoveOp).to !== undefined
        ? (op as MoveOp).to!
        : self;
      const verdict = resolveOne(
        next[field] as string,
        fileOf(target),
        label,
        target,
      );
      if ("problem" in verdict) {
        problems.push(verdict.problem);
        bad = true;
        break;
      }
      next[field] = verdict.text;
      if (verdict.moved && target === self) {
        moved.set(verdict.moved.to, verdict.moved);
      }
    }
    if (!bad) {
      const unseen = unseenInside(op, next, fileOf(self), label, self);
      if (unseen) {
        problems.push(unseen);
        bad = true;
      }
    }
    if (bad) refused.add(index);
    else out.push(next as T);
  });
  return { ops: out, problems, refused, moved };
}

/** Most lines inside one range checked for a line the session was not shown. */
const MAX_INSIDE = 20_000;

/**
 * A range whose ends now stand further apart or closer than as written
 * spans lines that came or went since: each line now between its ends must
 * be one the session was shown, else the range would take a line nobody
 * showed it (another party's, met by the session's own commit).
 */
function unseenInside(
  op: PatchOp | MoveOp,
  next: Record<string, unknown>,
  file: ViewedFile,
  label: string,
  path: string,
): Problem | null {
  if (
    !file.known || rowOf(op).region !== "range" && rowOf(op).region !== "source"
  ) {
    return null;
  }
  const ends = (o: Record<string, unknown>) => {
    const s = parse(o.start);
    const e = o.end === undefined ? s : parse(o.end);
    return s && e ? [s.line, e.line] : null;
  };
  const was = ends(op as unknown as Record<string, unknown>);
  const now = ends(next);
  if (!was || !now || now[1] - now[0] === was[1] - was[0]) return null;
  for (let n = now[0] + 1; n < now[1] && n <= now[0] + MAX_INSIDE; n++) {
    if (file.known(n)) continue;
    const fresh = listing(file, n);
    return problem(
      "STALE_ANCHOR",
      `In ${label}, line ${n} now stands inside the range (lines ${now[0]}–${
        now[1]
      } now) and this session was never shown it: read those lines again, then resend.${
        fresh ? `\n${fresh.text}` : ""
      }`,
      { path, line: n, shown: fresh?.shown },
    );
  }
  return null;
}

/**
 * Names, in the problems of a file, the lines that the session's own
 * commits moved: a stale finding at line 111 for an anchor written as line
 * 101 says so first.
 *
 * @param problems Problems of one file (changed in place).
 * @param moved The lines moved, by their number now.
 * @param path The file the problems are about.
 */
export function noteMoved(
  problems: Problem[],
  moved: ReadonlyMap<number, MovedNote>,
  path: string | undefined,
): void {
  if (moved.size === 0) return;
  for (const p of problems) {
    if (
      p.line === undefined ||
      (path !== undefined && p.path !== undefined && p.path !== path)
    ) {
      continue;
    }
    const m = moved.get(p.line);
    if (!m) continue;
    p.message = `Line ${m.from} as this session read it is line ${m.to} now${
      m.entry ? ` (moved by its own edit ${m.entry})` : ""
    }. ${p.message}`;
  }
}
