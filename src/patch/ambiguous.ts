/**
 * Ambiguous anchors (docs/patch-format.md#validation): an anchor that fits
 * both the line now and the line this session's last commit replaced there.
 *
 * @module
 */
import { foldHash } from "../hash/fnv.ts";
import { freshAround } from "./fresh.ts";
import { anchorsOf, tryAnchor } from "./lookup.ts";
import { type Problem, problem } from "./problems.ts";
import type { LineLookup, PatchOp } from "./types.ts";

/**
 * Anchors that fit both the line now and the line this session's last
 * commit replaced there (their short hashes agree, 1 time in 256): such an
 * anchor may come from the read before that commit, so it is refused with
 * fresh anchors rather than guessed; the resend passes.
 *
 * @param ops The ops, as they will be applied.
 * @param replaced For each line the last commit replaced one for one, the full hash of the line it replaced.
 * @param now The file as it is now.
 * @param path Put on each problem.
 * @returns One `STALE_ANCHOR` problem per ambiguous anchor.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ambiguousAnchors } from "./ambiguous.ts";
 * import { lookupFromLines } from "./lookup.ts";
 * const now = lookupFromLines(["a"]);
 * assert.deepEqual(ambiguousAnchors([{ op: "delete", start: "1:ed" }], undefined, now, "f"), []);
 * ```
 */
export function ambiguousAnchors(
  ops: readonly PatchOp[],
  replaced: ReadonlyMap<number, number> | undefined,
  now: LineLookup,
  path: string | undefined,
): Problem[] {
  if (!replaced || replaced.size === 0) return [];
  const problems: Problem[] = [];
  for (const op of ops) {
    for (const text of anchorsOf(op)) {
      const a = tryAnchor(text);
      if (!a) continue;
      const old = replaced.get(a.line);
      if (old === undefined || a.line > now.lineCount) continue;
      const h = now.hash32(a.line);
      if (foldHash(old) !== foldHash(h) || old === h) continue;
      const fresh = freshAround(now, a.line);
      problems.push(problem(
        "STALE_ANCHOR",
        `Anchor ${a.line}:${a.hash} is ambiguous: this session's last edit replaced line ${a.line}, and the line it replaced had the same short hash, so this anchor may come from the read before that edit. Resend with these anchors:\n${fresh.text}`,
        { path, line: a.line, shown: fresh.shown },
      ));
    }
  }
  return problems;
}
