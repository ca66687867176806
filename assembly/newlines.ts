// The newline scan: 64 bytes per step, four vector compares folded into one
// 64-bit mask, positions written without a branch per line (a
// data-dependent branch per newline costs more than the scan itself).

import { HIGHS, NLPOS } from "./layout";

/** Address of the first NUL in the last scan, or -1. */
export let nulAt: usize = <usize> -1;
/** Entries written to HIGHS by the last scan. */
export let highCount: usize = 0;

/**
 * Writes the address of every LF in [s, e) to NLPOS and returns how many.
 * Looks for a NUL only when `findNul`. When `findHigh`, lists every 64-byte
 * block holding a byte >= 0x80 in HIGHS (address and bit mask), so later
 * steps can tell ASCII lines apart without reading them again. Reads up to
 * 63 bytes past e (the layout leaves slack).
 */
export function scanNewlines(
  s: usize,
  e: usize,
  findNul: bool,
  findHigh: bool,
): usize {
  nulAt = <usize> -1;
  let highs = HIGHS;
  const lf = i8x16.splat(0x0a);
  const zero = i8x16.splat(0);
  let out = NLPOS;
  for (let p = s; p < e; p += 64) {
    const v0 = v128.load(p);
    const v1 = v128.load(p, 16);
    const v2 = v128.load(p, 32);
    const v3 = v128.load(p, 48);
    let m: u64 = <u64> <u32> i8x16.bitmask(i8x16.eq(v0, lf)) |
      (<u64> <u32> i8x16.bitmask(i8x16.eq(v1, lf)) << 16) |
      (<u64> <u32> i8x16.bitmask(i8x16.eq(v2, lf)) << 32) |
      (<u64> <u32> i8x16.bitmask(i8x16.eq(v3, lf)) << 48);
    const room = e - p;
    const keep: u64 = room >= 64 ? <u64> -1 : ((<u64> 1 << <u64> room) - 1);
    m &= keep;
    if (findNul) {
      const z = v128.or(
        v128.or(i8x16.eq(v0, zero), i8x16.eq(v1, zero)),
        v128.or(i8x16.eq(v2, zero), i8x16.eq(v3, zero)),
      );
      if (v128.any_true(z)) {
        const zm: u64 = (<u64> <u32> i8x16.bitmask(i8x16.eq(v0, zero)) |
          (<u64> <u32> i8x16.bitmask(i8x16.eq(v1, zero)) << 16) |
          (<u64> <u32> i8x16.bitmask(i8x16.eq(v2, zero)) << 32) |
          (<u64> <u32> i8x16.bitmask(i8x16.eq(v3, zero)) << 48)) & keep;
        if (zm != 0) {
          nulAt = p + <usize> ctz(zm);
          findNul = false;
        }
      }
    }
    if (
      findHigh && i8x16.bitmask(v128.or(v128.or(v0, v1), v128.or(v2, v3))) != 0
    ) {
      const hm: u64 = (<u64> <u32> i8x16.bitmask(v0) |
        (<u64> <u32> i8x16.bitmask(v1) << 16) |
        (<u64> <u32> i8x16.bitmask(v2) << 32) |
        (<u64> <u32> i8x16.bitmask(v3) << 48)) & keep;
      if (hm != 0) {
        store<u32>(highs, <u32> p);
        store<u64>(highs, hm, 8);
        highs += 16;
      }
    }
    // Most blocks hold at most four line ends: write four positions without
    // looking (stale ones past the count are overwritten later), and loop
    // only for the rare crowded block.
    const count = <usize> popcnt(m);
    const base = <u32> p;
    store<u32>(out, base + <u32> ctz(m));
    m &= m - 1;
    store<u32>(out, base + <u32> ctz(m), 4);
    m &= m - 1;
    store<u32>(out, base + <u32> ctz(m), 8);
    m &= m - 1;
    store<u32>(out, base + <u32> ctz(m), 12);
    m &= m - 1;
    const qe = out + (count << 2);
    for (let q = out + 16; q < qe; q += 4) {
      store<u32>(q, base + <u32> ctz(m));
      m &= m - 1;
    }
    out = qe;
  }
  highCount = (highs - HIGHS) >> 4;
  return (out - NLPOS) >> 2;
}
