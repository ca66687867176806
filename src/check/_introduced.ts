/**
 * Which syntax errors an edit introduced: the errors of the new content less
 * those the old content already had, matched by what they are and the text
 * around them rather than by line number, so lines inserted or removed above
 * an old error never make it look new.
 *
 * @module
 */
import type { RawError } from "./_engine.ts";

function around(lines: readonly string[], line: number): string {
  const from = Math.max(0, line - 2);
  return lines.slice(from, line + 1).map((l) => l.trim()).join("\n");
}

function keyOf(e: RawError, lines: readonly string[]): string {
  return `${e.kind}\0${e.token}\0${around(lines, e.line)}`;
}

/** Lines the edit left alone at the start and at the end of the file. */
function unchangedEnds(
  before: readonly string[],
  after: readonly string[],
): { head: number; tail: number } {
  const most = Math.min(before.length, after.length);
  let head = 0;
  while (head < most && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < most - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) tail++;
  return { head, tail };
}

/**
 * The errors of `after` that `before` did not have.
 *
 * Each old error excuses at most one new error, matched in three passes:
 * 1. the same kind and token with the same text on its line and the lines
 *    beside it;
 * 2. the same kind, token and text on its own line, for a new error on a line
 *    the edit left alone (an edit right beside an old error changes its
 *    neighbours, not the error);
 * 3. the same kind and token, for a new error well clear of the changed lines
 *    (more than two lines away): a valid edit elsewhere can move where the
 *    parser resumes after an error that was there before.
 *
 * @param before The old content's lines and errors (null for a new file).
 * @param after The new content's lines and errors.
 * @returns The introduced errors, in the order of `after.errors`.
 */
export function introducedErrors(
  before: { lines: readonly string[]; errors: readonly RawError[] } | null,
  after: { lines: readonly string[]; errors: readonly RawError[] },
): RawError[] {
  if (after.errors.length === 0) return [];
  if (!before || before.errors.length === 0) return [...after.errors];
  const { head, tail } = unchangedEnds(before.lines, after.lines);
  const changedFrom = head + 1;
  const changedTo = after.lines.length - tail;
  const kindOf = (e: RawError) => `${e.kind}\0${e.token}`;
  const ownLine = (e: RawError, lines: readonly string[]) =>
    `${kindOf(e)}\0${(lines[e.line - 1] ?? "").trim()}`;
  const passes: {
    key: (e: RawError, lines: readonly string[]) => string;
    eligible: (e: RawError) => boolean;
  }[] = [
    { key: keyOf, eligible: () => true },
    {
      key: ownLine,
      eligible: (e) => e.line < changedFrom || e.line > changedTo,
    },
    {
      key: kindOf,
      eligible: (e) => e.line < changedFrom - 2 || e.line > changedTo + 2,
    },
  ];
  let olds = [...before.errors];
  let news = [...after.errors];
  for (const pass of passes) {
    const pool = new Map<string, RawError[]>();
    for (const e of olds) {
      const k = pass.key(e, before.lines);
      const list = pool.get(k);
      if (list) list.push(e);
      else pool.set(k, [e]);
    }
    const left: RawError[] = [];
    const used = new Set<RawError>();
    for (const e of news) {
      const match = pass.eligible(e)
        ? pool.get(pass.key(e, after.lines))?.pop()
        : undefined;
      if (match) used.add(match);
      else left.push(e);
    }
    news = left;
    olds = olds.filter((e) => !used.has(e));
    if (news.length === 0 || olds.length === 0) break;
  }
  return news;
}
