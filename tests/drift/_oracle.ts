import type { Placement } from "../../src/patch/align.ts";

/** Every best alignment, enumerated: the placement of each remembered line. */
export function oracle(
  lines: number[],
  hashes: number[],
  now: number[],
): Map<number, Placement> {
  let best = 0;
  let all: [number, number][][] = [];
  const walk = (i: number, j: number, pairs: [number, number][]) => {
    if (pairs.length + Math.min(lines.length - i, now.length - j) < best) {
      return;
    }
    if (i === lines.length) {
      if (pairs.length > best) [best, all] = [pairs.length, []];
      if (pairs.length === best) all.push(pairs.slice());
      return;
    }
    walk(i + 1, j, pairs);
    for (let k = j; k < now.length; k++) {
      if (now[k] !== hashes[i]) continue;
      pairs.push([i, k]);
      walk(i + 1, k + 1, pairs);
      pairs.pop();
    }
  };
  walk(0, 0, []);
  const out = new Map<number, Placement>();
  lines.forEach((line, i) => {
    const partners = new Set<number>();
    for (const a of all) {
      const p = a.find(([r]) => r === i);
      partners.add(p ? p[1] + 1 : -1);
    }
    const at = [...partners].filter((n) => n > 0).sort((p, q) => p - q);
    out.set(
      line,
      partners.size === 1 && at.length === 1
        ? { kind: "placed", at: at[0] }
        : at.length === 0
        ? { kind: "gone" }
        : { kind: "ambiguous", at },
    );
  });
  return out;
}

/**
 * The same placements by full LCS tables (no band): a pair lies on a best
 * alignment when the best prefix and suffix around it add up to the best
 * total; a line is unpaired in one when some crossing of its row without a
 * pair does.
 */
export function oracleTables(
  lines: number[],
  hashes: number[],
  now: number[],
): Map<number, Placement> {
  const R = hashes.length;
  const N = now.length;
  const F = Array.from({ length: R + 1 }, () => new Array(N + 1).fill(0));
  const G = Array.from({ length: R + 2 }, () => new Array(N + 2).fill(0));
  for (let i = 1; i <= R; i++) {
    for (let j = 1; j <= N; j++) {
      F[i][j] = Math.max(
        F[i - 1][j],
        F[i][j - 1],
        F[i - 1][j - 1] + (hashes[i - 1] === now[j - 1] ? 1 : 0),
      );
    }
  }
  for (let i = R - 1; i >= 0; i--) {
    for (let j = N - 1; j >= 0; j--) {
      G[i][j] = Math.max(
        G[i + 1][j],
        G[i][j + 1],
        G[i + 1][j + 1] + (hashes[i] === now[j] ? 1 : 0),
      );
    }
  }
  const L = F[R][N];
  const out = new Map<number, Placement>();
  for (let i = 1; i <= R; i++) {
    const at: number[] = [];
    let skipped = false;
    for (let j = 0; j <= N; j++) {
      if (F[i - 1][j] + G[i][j] === L) skipped = true;
      if (j >= 1 && hashes[i - 1] === now[j - 1]) {
        if (F[i - 1][j - 1] + 1 + G[i][j] === L) at.push(j);
      }
    }
    out.set(
      lines[i - 1],
      at.length === 1 && !skipped
        ? { kind: "placed", at: at[0] }
        : at.length === 0
        ? { kind: "gone" }
        : { kind: "ambiguous", at },
    );
  }
  return out;
}
