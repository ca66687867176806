/**
 * Bare line numbers (docs/reads.md#lean-reads): an op that names a line by
 * its number alone (`12`, `12*`) is checked against the session's read
 * record, so each is rewritten as the full anchor the record holds for that
 * line (`12:a3`) before the rules run; with no record, or no record of the
 * line, it is refused.
 *
 * @module
 */
import { parseBareAnchor } from "../anchor/lean.ts";
import { foldHash, hex2 } from "../hash/fnv.ts";
import { anchorsOf, mapAnchors } from "./ops.ts";
import {
  lineNeverShown,
  lineOutOfRange,
  opLabel,
  type Problem,
  problem,
} from "./problems.ts";
import type { PatchOp, ReadMemory } from "./types.ts";

/** Ops with bare numbers resolved, the problems of those that could not be, and their indexes. */
export interface ResolvedBare {
  ops: PatchOp[];
  problems: Problem[];
  skip: Set<number>;
}

/**
 * Rewrites every bare line number as the anchor the record holds for it.
 * Without a record it is `BAD_ANCHOR` (naming the `LINE:HH` form); a line
 * the record does not hold is `NOT_READ`.
 *
 * @param ops The ops as sent.
 * @param memory The session's read record of the file, if any.
 * @param path Put on each problem.
 * @param lineCount Lines the file has now: a number past them that the
 *   record does not hold is `OUT_OF_RANGE` rather than a line to read.
 *   Asked only for such a number, so content indexed lazily is not counted
 *   to its end for every patch (bench/patch_bench.ts).
 * @returns The ops, problems, and the indexes of the ops refused here.
 */
export function resolveBare(
  ops: PatchOp[],
  memory: ReadMemory | undefined,
  path?: string,
  lineCount?: () => number,
): ResolvedBare {
  const problems: Problem[] = [];
  const skip = new Set<number>();
  const out = ops.map((op, index) => {
    const texts = anchorsOf(op);
    if (!texts.some((t) => parseBareAnchor(t))) return op;
    const label = opLabel(op, index);
    const resolved = texts.map((text) => {
      const bare = parseBareAnchor(text);
      if (!bare || skip.has(index)) return text;
      if (!memory) {
        problems.push(problem(
          "BAD_ANCHOR",
          `In ${label}, ${
            JSON.stringify(text)
          } names a line by its number alone, which only a session's read record can check; this call has none, so write LINE:HH as shown in a read, such as "${bare.line}:a3".`,
          { path, line: bare.line },
        ));
        skip.add(index);
        return text;
      }
      const h = memory.hash32(bare.line);
      const count = h === undefined ? lineCount?.() : undefined;
      if (count !== undefined && bare.line > count) {
        problems.push(lineOutOfRange(label, bare.line, count, path));
        skip.add(index);
        return text;
      }
      if (h === undefined) {
        problems.push(lineNeverShown(label, bare.line, path));
        skip.add(index);
        return text;
      }
      return `${bare.line}:${hex2(foldHash(h))}${bare.block ? "*" : ""}`;
    });
    return skip.has(index) ? op : mapAnchors(op, (_, __, i) => resolved[i]);
  });
  return { ops: out, problems, skip };
}
