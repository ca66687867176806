/**
 * Undo planning (pure): given what an entry did to a file and the file as
 * it stands now, the content that reverts the entry there, or the lines
 * that moved on since (`MOVED_ON`).
 *
 * @module
 */
import type { Problem } from "../errors.ts";
import { bare, type HunkPlan, hunksOf, lineCount, segments } from "./hunks.ts";
import type { Hunk, RecordFile } from "./types.ts";

/** What undoing an entry does to one file. */
export type UndoStep =
  | {
    action: "write";
    text: string;
    hunks: Hunk[];
    added: number;
    removed: number;
  }
  | { action: "delete"; hunks: Hunk[]; removed: number }
  | { action: "create"; text: string; hunks: Hunk[]; added: number };

/** The plan for one file, or why it cannot be undone. */
export type UndoPlan = { ok: true; step: UndoStep } | {
  ok: false;
  problems: Problem[];
};

const MAX_LINES_NAMED = 10;

function terminatorOf(segment: string): string {
  if (segment.endsWith("\r\n")) return "\r\n";
  if (segment.endsWith("\n")) return "\n";
  return "";
}

function quote(line: string): string {
  const cut = line.length > 60 ? `${line.slice(0, 60)}…` : line;
  return JSON.stringify(cut);
}

function movedOn(path: string, line: number, message: string): Problem {
  return { code: "MOVED_ON", path, line, message };
}

/** Whether the run of lines `want` stands at `q` of `cur`, by content (terminators aside). */
function standsAt(cur: string[], want: string[], q: number): boolean {
  if (q < 0 || q + want.length > cur.length) return false;
  for (let k = 0; k < want.length; k++) {
    if (bare(cur[q + k], true) !== bare(want[k], true)) return false;
  }
  return true;
}

/** Whether the line before position `q` is the one the entry left before its region. */
function beforeHolds(cur: string[], h: Hunk, q: number): boolean {
  return q === 0 ? h.before === null : h.before !== null &&
    bare(cur[q - 1], true) === bare(h.before, true);
}

/** Whether the line at position `end` is the one the entry left after its region. */
function afterHolds(cur: string[], h: Hunk, end: number): boolean {
  return end === cur.length ? h.after === null : h.after !== null &&
    end < cur.length && bare(cur[end], true) === bare(h.after, true);
}

/**
 * Whether the written run `m` lines long at `q` keeps at least one of the
 * lines the entry left around it (its `before` or its `after`).
 */
function framedAt(cur: string[], h: Hunk, q: number, m: number): boolean {
  return beforeHolds(cur, h, q) || afterHolds(cur, h, q + m);
}

function contextAt(cur: string[], h: Hunk, q: number): boolean {
  // A gap past the end (the file shrank since) holds no context.
  if (q < 0 || q > cur.length) return false;
  return beforeHolds(cur, h, q) && afterHolds(cur, h, q);
}

/**
 * Plans the undo of one file of an entry.
 *
 * @param id The entry's id (named in problems).
 * @param file What the entry did to the file.
 * @param current The file's text now, or null when it does not exist.
 * @param currentSha sha-256 hex of the file's bytes now (needed for a whole-file write).
 * @returns The step that reverts the entry's change, or `MOVED_ON` problems.
 */
export function planUndo(
  id: string,
  file: RecordFile,
  current: string | null,
  currentSha?: string,
): UndoPlan {
  const path = file.path;
  if (file.noUndo) {
    return {
      ok: false,
      problems: [{ code: "MOVED_ON", path, message: file.noUndo }],
    };
  }
  if (file.deleted) {
    if (current !== null) {
      return {
        ok: false,
        problems: [
          movedOn(
            path,
            1,
            `a file is at this path again since ${id} removed it, so ${id} cannot be undone.`,
          ),
        ],
      };
    }
    const text = file.hunks.map((h) => h.old).join("");
    return {
      ok: true,
      step: {
        action: "create",
        text,
        hunks: hunksOf("", text),
        added: lineCount(text),
      },
    };
  }
  if (current === null) {
    return {
      ok: false,
      problems: [
        movedOn(
          path,
          1,
          `the file is gone since ${id}, so ${id} cannot be undone.`,
        ),
      ],
    };
  }
  if (file.created) {
    const text = file.hunks.map((h) => h.new).join("");
    if (current !== text) {
      return {
        ok: false,
        problems: [
          movedOn(
            path,
            firstDiffering(current, text),
            `the file changed since ${id} created it, so ${id} cannot remove it.`,
          ),
        ],
      };
    }
    return {
      ok: true,
      step: {
        action: "delete",
        hunks: hunksOf(current, ""),
        removed: lineCount(current),
      },
    };
  }
  if (file.whole !== undefined && currentSha !== file.whole) {
    return {
      ok: false,
      problems: [{
        code: "MOVED_ON",
        path,
        message:
          `the file changed since ${id} wrote it whole, so ${id} cannot restore the old content.`,
      }],
    };
  }
  const cur = segments(current);
  const problems: Problem[] = [];
  const located: { q: number; h: Hunk; m: number }[] = [];
  let delta = 0;
  let floor = 0;
  for (const h of file.hunks) {
    const want = h.new === "" ? [] : segments(h.new);
    const m = want.length;
    const p = h.newAt - 1 + delta;
    const fits = (q: number) =>
      q >= floor && (m > 0 ? standsAt(cur, want, q) : contextAt(cur, h, q));
    // At their place, or else at the one place they stand. Lines it wrote
    // are looked for elsewhere only beside a line it left next to them:
    // their text alone could be another run of the same lines (a copy's
    // source, once the copy was edited), never reverted in their place.
    let q = fits(p) ? p : -1;
    if (q < 0) {
      const found: number[] = [];
      for (let i = floor; i <= cur.length - m && found.length < 2; i++) {
        if (fits(i) && (m === 0 || framedAt(cur, h, i, m))) found.push(i);
      }
      if (found.length === 1) q = found[0];
    }
    if (q < 0) {
      if (m === 0) {
        problems.push(
          movedOn(
            path,
            Math.min(Math.max(p, 1), Math.max(cur.length, 1)),
            `the lines around where ${id} removed lines ${h.at}–${
              h.at + lineCount(h.old) - 1
            } changed since, so ${id} cannot put them back.`,
          ),
        );
      } else {
        let named = 0;
        for (let k = 0; k < m && named < MAX_LINES_NAMED; k++) {
          const now = p + k < cur.length ? bare(cur[p + k], true) : undefined;
          const wrote = bare(want[k], true);
          if (now === wrote) continue;
          named++;
          problems.push(
            movedOn(
              path,
              p + k + 1,
              now === undefined
                ? `line ${p + k + 1}, which ${id} wrote as ${
                  quote(wrote)
                }, is gone.`
                : `line ${p + k + 1} no longer holds what ${id} wrote (${
                  quote(wrote)
                }): it now holds ${quote(now)}.`,
            ),
          );
        }
        if (named === 0) {
          problems.push(
            movedOn(
              path,
              p + 1,
              `the lines ${id} wrote at ${p + 1}–${
                p + m
              } no longer stand as one run where it left them.`,
            ),
          );
        }
      }
      continue;
    }
    located.push({ q, h, m });
    delta = q - (h.newAt - 1);
    floor = q + m;
  }
  if (problems.length > 0) return { ok: false, problems };
  // Concatenated, never joined: the engine keeps the big pieces (a
  // deletion's whole old text) as they are instead of copying them.
  let text = "";
  const plan: HunkPlan[] = [];
  let at = 0;
  let added = 0;
  let removed = 0;
  // Where each current line starts: a run of kept lines is one slice.
  const starts = [0];
  for (const c of cur) starts.push(starts[starts.length - 1] + c.length);
  const keep = (from: number, to: number) => {
    if (to > from) text += current.slice(starts[from], starts[to]);
  };
  for (const { q, h, m } of located) {
    keep(at, q);
    let put = h.old;
    if (m > 0 && put !== "") {
      const want = segments(h.new);
      const was = terminatorOf(want[m - 1]);
      const now = terminatorOf(cur[q + m - 1]);
      if (was !== now) {
        const olds = segments(put);
        const last = olds[olds.length - 1];
        olds[olds.length - 1] =
          last.slice(0, last.length - terminatorOf(last).length) + now;
        put = olds.join("");
      }
    }
    text += put;
    const putLines = lineCount(put);
    plan.push({ at: q + 1, deleteCount: m, lines: { length: putLines } });
    added += putLines;
    removed += m;
    at = q + m;
  }
  keep(at, cur.length);
  return {
    ok: true,
    step: {
      action: "write",
      text,
      hunks: hunksOf(current, text, plan),
      added,
      removed,
    },
  };
}

function firstDiffering(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}
