// The newline scan: 64 bytes per step, four vector compares folded into one
// 64-bit mask, positions written without a branch per line (a
// data-dependent branch per newline costs more than the scan itself).

import { CONSTS, HIGHS, NLPOS } from "./layout";

// Loaded rather than written as constants, so the compilers keep them in
// registers instead of rebuilding them in every iteration.
v128.store(CONSTS, i8x16.splat(0x0a));

/** Address of the first NUL in the last scan, or -1. */
export let nulAt: usize = <usize> -1;
/** Entries written to HIGHS by the last scan. */
export let highCount: usize = 0;
/** Where the scan writes its next newline position. */
let out: usize = NLPOS;

/** Starts a scan of a new chunk: nothing found yet. */
export function startScan(): void {
  nulAt = <usize> -1;
  highCount = 0;
  out = NLPOS;
}

export function mask64(a: v128, b: v128, c: v128, d: v128): u64 {
  return <u64> <u32> i8x16.bitmask(a) |
    (<u64> <u32> i8x16.bitmask(b) << 16) |
    (<u64> <u32> i8x16.bitmask(c) << 32) |
    (<u64> <u32> i8x16.bitmask(d) << 48);
}

/**
 * Appends the address of every LF in [s, e) to NLPOS and returns how many
 * the chunk has so far; a chunk may be scanned in consecutive pieces of a
 * multiple of 64 bytes (see startScan).
 * The 64 bytes after e must hold no LF, NUL or byte >= 0x80 (the caller
 * pads them). Looks for a NUL only when `findNul`. When `findHigh`, lists
 * every 64-byte block holding a byte >= 0x80 in HIGHS (address and bit
 * mask), so later steps can tell ASCII lines apart without reading them
 * again.
 */
export function scanNewlines(
  s: usize,
  e: usize,
  findNul: bool,
  findHigh: bool,
): usize {
  findNul = findNul && nulAt == <usize> -1;
  let highs = HIGHS + (highCount << 4);
  const lf = v128.load(CONSTS);
  const zero = i8x16.splat(0);
  let at = out;
  for (let p = s; p < e; p += 64) {
    const v0 = v128.load(p);
    const v1 = v128.load(p, 16);
    const v2 = v128.load(p, 32);
    const v3 = v128.load(p, 48);
    let m = mask64(
      i8x16.eq(v0, lf),
      i8x16.eq(v1, lf),
      i8x16.eq(v2, lf),
      i8x16.eq(v3, lf),
    );
    if (findNul) {
      const least = i8x16.min_u(i8x16.min_u(v0, v1), i8x16.min_u(v2, v3));
      if (v128.any_true(i8x16.eq(least, zero))) {
        const zm = mask64(
          i8x16.eq(v0, zero),
          i8x16.eq(v1, zero),
          i8x16.eq(v2, zero),
          i8x16.eq(v3, zero),
        );
        nulAt = p + <usize> ctz(zm);
        findNul = false;
      }
    }
    if (
      findHigh && i8x16.bitmask(v128.or(v128.or(v0, v1), v128.or(v2, v3))) != 0
    ) {
      store<u32>(highs, <u32> p);
      store<u64>(highs, mask64(v0, v1, v2, v3), 8);
      highs += 16;
    }
    // Most blocks hold at most four line ends: write four positions without
    // looking (stale ones past the count are overwritten later), and loop
    // only for the rare crowded block.
    const count = <usize> popcnt(m);
    const base = <u32> p;
    store<u32>(at, base + <u32> ctz(m));
    m &= m - 1;
    store<u32>(at, base + <u32> ctz(m), 4);
    m &= m - 1;
    store<u32>(at, base + <u32> ctz(m), 8);
    m &= m - 1;
    store<u32>(at, base + <u32> ctz(m), 12);
    m &= m - 1;
    const end = at + (count << 2);
    for (let q = at + 16; q < end; q += 4) {
      store<u32>(q, base + <u32> ctz(m));
      m &= m - 1;
    }
    at = end;
  }
  highCount = (highs - HIGHS) >> 4;
  out = at;
  return (at - NLPOS) >> 2;
}
