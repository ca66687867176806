/**
 * A small seeded random source (mulberry32), so every choice the benchmark
 * makes follows from its seed and a rerun yields the same tasks.
 *
 * @module
 */

/** Seeded pseudo-random numbers. */
export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi] (both inclusive). */
  between(lo: number, hi: number): number;
  /** A copy of `items` in a seeded order. */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * Derives a 32-bit seed from a base seed and labels, so each purpose (file
 * choice, the mutations of one kind, one task's drift) has its own stream
 * and adding tasks of one kind leaves the choices of another untouched.
 *
 * @param seed The run's seed.
 * @param labels What the stream is for.
 * @returns A 32-bit unsigned seed.
 */
export function deriveSeed(
  seed: number,
  ...labels: (string | number)[]
): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (const ch of labels.join("\u0000")) {
    h = Math.imul(h ^ ch.codePointAt(0)!, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Creates a seeded random source.
 *
 * @param seed A 32-bit seed.
 * @returns The random source.
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    between: (lo, hi) => lo + int(hi - lo + 1),
    shuffle<T>(items: readonly T[]): T[] {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
