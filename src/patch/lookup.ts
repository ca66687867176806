/**
 * Lookups (docs/patch-format.md#validation): what the rules ask of a file
 * as it is now ({@link LineLookup}), answered from lines in memory, and the
 * list of lines a streaming caller must collect to answer them.
 *
 * @module
 */
import { parseAnchor } from "../anchor/anchor.ts";
import { lineHash32 } from "../hash/fnv.ts";
import { CONTEXT } from "./fresh.ts";
import { anchorsOf, rowOf } from "./ops.ts";
import type { Anchor, LineLookup, PatchOp, ReadMemory } from "./types.ts";

/** The anchors an op names, in order (start, end; or the insert anchor). */
export { anchorsOf };

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
 * import { linesNeeded } from "./lookup.ts";
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
    if (rowOf(op).region === "range") {
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

/**
 * A {@link LineLookup} over lines held in memory; full hashes are computed
 * on first use, and the hash index for `linesWithHash` only when asked.
 *
 * @param lines The lines of a file, without terminators.
 * @returns A lookup answering from those lines.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lookupFromLines } from "./lookup.ts";
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
    allHashes: () => Uint32Array.from(lines, (_, i) => hash32(i + 1)),
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
