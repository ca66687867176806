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
 * An error counts as old when the old content has one of the same kind and
 * token with the same text on its line and the lines beside it (each old
 * error excuses one new one). Failing that, an error well clear of the
 * changed lines (more than two lines away) is old when the old content has
 * an unmatched error of the same kind and token: a valid edit elsewhere can
 * move where the parser resumes after an error that was there before.
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
  const oldKeys = new Map<string, number>();
  const oldKinds = new Map<string, number>();
  for (const e of before.errors) {
    const k = keyOf(e, before.lines);
    oldKeys.set(k, (oldKeys.get(k) ?? 0) + 1);
  }
  const unmatched: RawError[] = [];
  for (const e of after.errors) {
    const k = keyOf(e, after.lines);
    const n = oldKeys.get(k) ?? 0;
    if (n > 0) oldKeys.set(k, n - 1);
    else unmatched.push(e);
  }
  if (unmatched.length === 0) return [];
  // Old errors no new one matched by context stay available by kind and token.
  const matchedNew = new Map<string, number>();
  for (const e of after.errors) {
    if (unmatched.includes(e)) continue;
    const k = keyOf(e, after.lines);
    matchedNew.set(k, (matchedNew.get(k) ?? 0) + 1);
  }
  for (const e of before.errors) {
    const k = keyOf(e, before.lines);
    const used = matchedNew.get(k) ?? 0;
    if (used > 0) {
      matchedNew.set(k, used - 1);
      continue;
    }
    const kind = `${e.kind}\0${e.token}`;
    oldKinds.set(kind, (oldKinds.get(kind) ?? 0) + 1);
  }
  const { head, tail } = unchangedEnds(before.lines, after.lines);
  const changedFrom = head + 1;
  const changedTo = after.lines.length - tail;
  const out: RawError[] = [];
  for (const e of unmatched) {
    const clear = e.line < changedFrom - 2 || e.line > changedTo + 2;
    const kind = `${e.kind}\0${e.token}`;
    const n = oldKinds.get(kind) ?? 0;
    if (clear && n > 0) oldKinds.set(kind, n - 1);
    else out.push(e);
  }
  return out;
}
