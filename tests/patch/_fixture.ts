import { splitLines } from "../../src/anchor/split.ts";
import { foldHash, hex2, lineHash32 } from "../../src/hash/fnv.ts";
import type { LineLookup } from "../../src/patch/types.ts";
import { lookupFromLines } from "../../src/patch/lookup.ts";

/** The anchor `N:HH` of line n of content. */
export function anchorOf(content: string, n: number): string {
  return `${n}:${hex2(foldHash(lineHash32(splitLines(content).lines[n - 1])))}`;
}

/** Anchor of line n with a hash that is certainly wrong. */
export function staleAnchorOf(content: string, n: number): string {
  const h = foldHash(lineHash32(splitLines(content).lines[n - 1]));
  return `${n}:${hex2(h ^ 0xff)}`;
}

/** A line that folds to the same 2-hex hash as `line` but has another full hash. */
export function foldTwin(line: string): string {
  const want = foldHash(lineHash32(line));
  for (let i = 0;; i++) {
    const candidate = `${line} /*${i}*/`;
    if (foldHash(lineHash32(candidate)) === want) return candidate;
  }
}

/**
 * A lookup over `lines` that throws when asked about a line or hash outside
 * the allowed sets, to prove validation asks only for what linesNeeded lists.
 */
export function guardedLookup(
  lines: string[],
  allowedLines: number[],
  allowedHashes: number[],
): LineLookup & { asked: Set<string> } {
  const inner = lookupFromLines(lines);
  const okLines = new Set(allowedLines);
  const okHashes = new Set(allowedHashes);
  const asked = new Set<string>();
  const line = (n: number): void => {
    asked.add(`line ${n}`);
    if (!okLines.has(n)) {
      throw new Error(
        `validation asked for line ${n}, not listed by linesNeeded`,
      );
    }
  };
  return {
    asked,
    lineCount: inner.lineCount,
    hash32(n) {
      line(n);
      return inner.hash32(n);
    },
    text(n) {
      line(n);
      return inner.text(n);
    },
    linesWithHash(h) {
      asked.add(`hash ${h}`);
      if (!okHashes.has(h)) {
        throw new Error(
          `validation asked for hash ${h}, not listed by linesNeeded`,
        );
      }
      return inner.linesWithHash(h);
    },
  };
}
