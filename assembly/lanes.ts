// Hashing sixteen lines at once. FNV-1a is a serial xor-multiply chain per
// line, so one line at a time waits on the multiplier. Sixteen lines run in
// four i32x4 vectors (four lines each, four independent chains): sixteen
// bytes of each are loaded, transposed so that one vector holds the same
// word of four lines, and fed round by round.
//
// The code is unrolled by hand and the rounds of all chains alternate in
// program order, pinned there by stores nobody reads (see pin()): left to
// themselves the compilers would gather each chain's rounds into one long
// run, and the core's scheduler, which only looks a few dozen instructions
// ahead, would then overlap fewer chains.

import { CONSTS, GROUP_LENS, HASHES, PIN, SCRATCH } from "./layout";
import { BASIS, PRIME } from "./utf8";

/**
 * Loads sixteen bytes at `off` into each of the four lines of the quad whose
 * slots start at `q`, and stores them transposed to `to`: word k of every
 * lane at `to + 16k`.
 */
function transpose(q: usize, off: usize, to: usize): void {
  const a = v128.load(<usize> load<u32>(q) + off);
  const b = v128.load(<usize> load<u32>(q, 8) + off);
  const c = v128.load(<usize> load<u32>(q, 16) + off);
  const d = v128.load(<usize> load<u32>(q, 24) + off);
  const ab0 = i32x4.shuffle(a, b, 0, 4, 1, 5);
  const ab1 = i32x4.shuffle(a, b, 2, 6, 3, 7);
  const cd0 = i32x4.shuffle(c, d, 0, 4, 1, 5);
  const cd1 = i32x4.shuffle(c, d, 2, 6, 3, 7);
  v128.store(to, i64x2.shuffle(ab0, cd0, 0, 2));
  v128.store(to, i64x2.shuffle(ab0, cd0, 1, 3), 16);
  v128.store(to, i64x2.shuffle(ab1, cd1, 0, 2), 32);
  v128.store(to, i64x2.shuffle(ab1, cd1, 1, 3), 48);
}

function storeQuad(q: usize, h: v128): void {
  v128.store32_lane(HASHES + (<usize> load<u32>(q, 4) << 2), h, 0);
  v128.store32_lane(HASHES + (<usize> load<u32>(q, 12) << 2), h, 1);
  v128.store32_lane(HASHES + (<usize> load<u32>(q, 20) << 2), h, 2);
  v128.store32_lane(HASHES + (<usize> load<u32>(q, 28) << 2), h, 3);
}

function storeVectors(g: usize, ha: v128, hb: v128, hc: v128, hd: v128): void {
  storeQuad(g, ha);
  storeQuad(g + 32, hb);
  storeQuad(g + 64, hc);
  storeQuad(g + 96, hd);
}

function fnv(h: v128, b: v128, prime: v128): v128 {
  return i32x4.mul(v128.xor(h, b), prime);
}

/** A round where lanes outside `live` xor 0 and multiply by 1, so their hash stays. */
function fnvMasked(h: v128, b: v128, live: v128, prime: v128, one: v128): v128 {
  const factor = i32x4.add(v128.and(live, i32x4.sub(prime, one)), one);
  return i32x4.mul(v128.xor(h, v128.and(b, live)), factor);
}

/**
 * Stores the four hashes where nothing reads them. The stores keep the
 * rounds of the chains interleaved in the generated code.
 */
function pin(ha: v128, hb: v128, hc: v128, hd: v128): void {
  v128.store(PIN, ha);
  v128.store(PIN, hb, 16);
  v128.store(PIN, hc, 32);
  v128.store(PIN, hd, 48);
}

function minLane(v: v128): usize {
  v = i32x4.min_u(v, i32x4.shuffle(v, v, 2, 3, 0, 1));
  v = i32x4.min_u(v, i32x4.shuffle(v, v, 1, 0, 3, 2));
  return <usize> i32x4.extract_lane(v, 0);
}

function maxLane(v: v128): usize {
  v = i32x4.max_u(v, i32x4.shuffle(v, v, 2, 3, 0, 1));
  v = i32x4.max_u(v, i32x4.shuffle(v, v, 1, 0, 3, 2));
  return <usize> i32x4.extract_lane(v, 0);
}

// Loaded from memory where they are used: written as literals, the
// compilers rebuild each constant vector inside the loops, which costs more
// than the rounds themselves.
v128.store(CONSTS, i32x4.splat(PRIME), 16);
v128.store(CONSTS, i32x4.splat(0xff), 32);
// Byte 1, then byte 2, of each 32-bit lane, zero-extended (index -1 reads 0).
v128.store(CONSTS, i32x4(0xffffff01, 0xffffff05, 0xffffff09, 0xffffff0d), 48);
v128.store(CONSTS, i32x4(0xffffff02, 0xffffff06, 0xffffff0a, 0xffffff0e), 64);
v128.store(CONSTS, i32x4.splat(1), 80);

/**
 * Hashes the sixteen lines of the group at `g`, all `len` bytes long, into
 * HASHES. The last len % 16 bytes are read from a window that ends where the
 * lines end, and a switch enters the unrolled rounds at the first byte still
 * to hash.
 */
export function hashGroupSame(g: usize, len: usize): void {
  const prime = v128.load(CONSTS, 16);
  const low = v128.load(CONSTS, 32);
  const sel1 = v128.load(CONSTS, 48);
  const sel2 = v128.load(CONSTS, 64);
  let ha = i32x4.splat(BASIS);
  let hb = ha;
  let hc = ha;
  let hd = ha;
  let wa: v128;
  let wb: v128;
  let wc: v128;
  let wd: v128;
  const whole = len & ~15;
  for (let off: usize = 0; off < whole; off += 16) {
    transpose(g, off, SCRATCH);
    transpose(g + 32, off, SCRATCH + 64);
    transpose(g + 64, off, SCRATCH + 128);
    transpose(g + 96, off, SCRATCH + 192);
    wa = v128.load(SCRATCH, 0);
    wb = v128.load(SCRATCH, 64);
    wc = v128.load(SCRATCH, 128);
    wd = v128.load(SCRATCH, 192);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 16);
    wb = v128.load(SCRATCH, 80);
    wc = v128.load(SCRATCH, 144);
    wd = v128.load(SCRATCH, 208);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 32);
    wb = v128.load(SCRATCH, 96);
    wc = v128.load(SCRATCH, 160);
    wd = v128.load(SCRATCH, 224);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 48);
    wb = v128.load(SCRATCH, 112);
    wc = v128.load(SCRATCH, 176);
    wd = v128.load(SCRATCH, 240);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
  }
  const rem = len & 15;
  if (rem != 0) {
    // May start before the lines (when len < 16): those bytes are never hashed.
    transpose(g, len - 16, SCRATCH);
    transpose(g + 32, len - 16, SCRATCH + 64);
    transpose(g + 64, len - 16, SCRATCH + 128);
    transpose(g + 96, len - 16, SCRATCH + 192);
    switch (rem) {
      case 15:
        wa = v128.load(SCRATCH, 0);
        wb = v128.load(SCRATCH, 64);
        wc = v128.load(SCRATCH, 128);
        wd = v128.load(SCRATCH, 192);
        ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
      case 14:
        wa = v128.load(SCRATCH, 0);
        wb = v128.load(SCRATCH, 64);
        wc = v128.load(SCRATCH, 128);
        wd = v128.load(SCRATCH, 192);
        ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
      case 13:
        wa = v128.load(SCRATCH, 0);
        wb = v128.load(SCRATCH, 64);
        wc = v128.load(SCRATCH, 128);
        wd = v128.load(SCRATCH, 192);
        ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
        hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
        hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
        hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
        pin(ha, hb, hc, hd);
      case 12:
        wa = v128.load(SCRATCH, 16);
        wb = v128.load(SCRATCH, 80);
        wc = v128.load(SCRATCH, 144);
        wd = v128.load(SCRATCH, 208);
        ha = fnv(ha, v128.and(wa, low), prime);
        hb = fnv(hb, v128.and(wb, low), prime);
        hc = fnv(hc, v128.and(wc, low), prime);
        hd = fnv(hd, v128.and(wd, low), prime);
      case 11:
        wa = v128.load(SCRATCH, 16);
        wb = v128.load(SCRATCH, 80);
        wc = v128.load(SCRATCH, 144);
        wd = v128.load(SCRATCH, 208);
        ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
      case 10:
        wa = v128.load(SCRATCH, 16);
        wb = v128.load(SCRATCH, 80);
        wc = v128.load(SCRATCH, 144);
        wd = v128.load(SCRATCH, 208);
        ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
      case 9:
        wa = v128.load(SCRATCH, 16);
        wb = v128.load(SCRATCH, 80);
        wc = v128.load(SCRATCH, 144);
        wd = v128.load(SCRATCH, 208);
        ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
        hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
        hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
        hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
        pin(ha, hb, hc, hd);
      case 8:
        wa = v128.load(SCRATCH, 32);
        wb = v128.load(SCRATCH, 96);
        wc = v128.load(SCRATCH, 160);
        wd = v128.load(SCRATCH, 224);
        ha = fnv(ha, v128.and(wa, low), prime);
        hb = fnv(hb, v128.and(wb, low), prime);
        hc = fnv(hc, v128.and(wc, low), prime);
        hd = fnv(hd, v128.and(wd, low), prime);
      case 7:
        wa = v128.load(SCRATCH, 32);
        wb = v128.load(SCRATCH, 96);
        wc = v128.load(SCRATCH, 160);
        wd = v128.load(SCRATCH, 224);
        ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
      case 6:
        wa = v128.load(SCRATCH, 32);
        wb = v128.load(SCRATCH, 96);
        wc = v128.load(SCRATCH, 160);
        wd = v128.load(SCRATCH, 224);
        ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
      case 5:
        wa = v128.load(SCRATCH, 32);
        wb = v128.load(SCRATCH, 96);
        wc = v128.load(SCRATCH, 160);
        wd = v128.load(SCRATCH, 224);
        ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
        hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
        hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
        hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
        pin(ha, hb, hc, hd);
      case 4:
        wa = v128.load(SCRATCH, 48);
        wb = v128.load(SCRATCH, 112);
        wc = v128.load(SCRATCH, 176);
        wd = v128.load(SCRATCH, 240);
        ha = fnv(ha, v128.and(wa, low), prime);
        hb = fnv(hb, v128.and(wb, low), prime);
        hc = fnv(hc, v128.and(wc, low), prime);
        hd = fnv(hd, v128.and(wd, low), prime);
      case 3:
        wa = v128.load(SCRATCH, 48);
        wb = v128.load(SCRATCH, 112);
        wc = v128.load(SCRATCH, 176);
        wd = v128.load(SCRATCH, 240);
        ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
      case 2:
        wa = v128.load(SCRATCH, 48);
        wb = v128.load(SCRATCH, 112);
        wc = v128.load(SCRATCH, 176);
        wd = v128.load(SCRATCH, 240);
        ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
      case 1:
        wa = v128.load(SCRATCH, 48);
        wb = v128.load(SCRATCH, 112);
        wc = v128.load(SCRATCH, 176);
        wd = v128.load(SCRATCH, 240);
        ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
        hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
        hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
        hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
        pin(ha, hb, hc, hd);
    }
  }
  storeVectors(g, ha, hb, hc, hd);
}

/**
 * Hashes the sixteen lines of the group at `g`, of different lengths (given
 * after the slots), into HASHES: common sixteen-byte steps first, then
 * rounds where lanes that ran out keep their hash.
 */
export function hashGroupMixed(g: usize): void {
  const la = v128.load(g + GROUP_LENS);
  const lb = v128.load(g + GROUP_LENS, 16);
  const lc = v128.load(g + GROUP_LENS, 32);
  const ld = v128.load(g + GROUP_LENS, 48);
  const shortest = minLane(
    i32x4.min_u(i32x4.min_u(la, lb), i32x4.min_u(lc, ld)),
  );
  const longest = maxLane(
    i32x4.max_u(i32x4.max_u(la, lb), i32x4.max_u(lc, ld)),
  );
  const prime = v128.load(CONSTS, 16);
  const low = v128.load(CONSTS, 32);
  const one = v128.load(CONSTS, 80);
  const sel1 = v128.load(CONSTS, 48);
  const sel2 = v128.load(CONSTS, 64);
  let ha = i32x4.splat(BASIS);
  let hb = ha;
  let hc = ha;
  let hd = ha;
  let wa: v128;
  let wb: v128;
  let wc: v128;
  let wd: v128;
  const whole = shortest & ~15;
  let off: usize = 0;
  for (; off < whole; off += 16) {
    transpose(g, off, SCRATCH);
    transpose(g + 32, off, SCRATCH + 64);
    transpose(g + 64, off, SCRATCH + 128);
    transpose(g + 96, off, SCRATCH + 192);
    wa = v128.load(SCRATCH, 0);
    wb = v128.load(SCRATCH, 64);
    wc = v128.load(SCRATCH, 128);
    wd = v128.load(SCRATCH, 192);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 16);
    wb = v128.load(SCRATCH, 80);
    wc = v128.load(SCRATCH, 144);
    wd = v128.load(SCRATCH, 208);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 32);
    wb = v128.load(SCRATCH, 96);
    wc = v128.load(SCRATCH, 160);
    wd = v128.load(SCRATCH, 224);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
    wa = v128.load(SCRATCH, 48);
    wb = v128.load(SCRATCH, 112);
    wc = v128.load(SCRATCH, 176);
    wd = v128.load(SCRATCH, 240);
    ha = fnv(ha, v128.and(wa, low), prime);
    hb = fnv(hb, v128.and(wb, low), prime);
    hc = fnv(hc, v128.and(wc, low), prime);
    hd = fnv(hd, v128.and(wd, low), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
    ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
    hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
    hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
    hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
    ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
    hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
    hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
    hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
    pin(ha, hb, hc, hd);
  }
  for (; off < longest; off += 16) {
    transpose(g, off, SCRATCH);
    transpose(g + 32, off, SCRATCH + 64);
    transpose(g + 64, off, SCRATCH + 128);
    transpose(g + 96, off, SCRATCH + 192);
    const sure = shortest > off ? shortest - off : 0;
    const most = longest - off;
    for (let k: usize = 0; k < 16 && k < most; k += 4) {
      wa = v128.load(SCRATCH + (k << 2));
      wb = v128.load(SCRATCH + (k << 2), 64);
      wc = v128.load(SCRATCH + (k << 2), 128);
      wd = v128.load(SCRATCH + (k << 2), 192);
      if (k + 4 <= sure) {
        ha = fnv(ha, v128.and(wa, low), prime);
        hb = fnv(hb, v128.and(wb, low), prime);
        hc = fnv(hc, v128.and(wc, low), prime);
        hd = fnv(hd, v128.and(wd, low), prime);
        ha = fnv(ha, i8x16.swizzle(wa, sel1), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel1), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel1), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel1), prime);
        ha = fnv(ha, i8x16.swizzle(wa, sel2), prime);
        hb = fnv(hb, i8x16.swizzle(wb, sel2), prime);
        hc = fnv(hc, i8x16.swizzle(wc, sel2), prime);
        hd = fnv(hd, i8x16.swizzle(wd, sel2), prime);
        ha = fnv(ha, i32x4.shr_u(wa, 24), prime);
        hb = fnv(hb, i32x4.shr_u(wb, 24), prime);
        hc = fnv(hc, i32x4.shr_u(wc, 24), prime);
        hd = fnv(hd, i32x4.shr_u(wd, 24), prime);
        pin(ha, hb, hc, hd);
      } else {
        let at = i32x4.splat(<i32> (off + k));
        ha = fnvMasked(ha, v128.and(wa, low), i32x4.gt_s(la, at), prime, one);
        hb = fnvMasked(hb, v128.and(wb, low), i32x4.gt_s(lb, at), prime, one);
        hc = fnvMasked(hc, v128.and(wc, low), i32x4.gt_s(lc, at), prime, one);
        hd = fnvMasked(hd, v128.and(wd, low), i32x4.gt_s(ld, at), prime, one);
        at = i32x4.add(at, one);
        ha = fnvMasked(
          ha,
          i8x16.swizzle(wa, sel1),
          i32x4.gt_s(la, at),
          prime,
          one,
        );
        hb = fnvMasked(
          hb,
          i8x16.swizzle(wb, sel1),
          i32x4.gt_s(lb, at),
          prime,
          one,
        );
        hc = fnvMasked(
          hc,
          i8x16.swizzle(wc, sel1),
          i32x4.gt_s(lc, at),
          prime,
          one,
        );
        hd = fnvMasked(
          hd,
          i8x16.swizzle(wd, sel1),
          i32x4.gt_s(ld, at),
          prime,
          one,
        );
        at = i32x4.add(at, one);
        ha = fnvMasked(
          ha,
          i8x16.swizzle(wa, sel2),
          i32x4.gt_s(la, at),
          prime,
          one,
        );
        hb = fnvMasked(
          hb,
          i8x16.swizzle(wb, sel2),
          i32x4.gt_s(lb, at),
          prime,
          one,
        );
        hc = fnvMasked(
          hc,
          i8x16.swizzle(wc, sel2),
          i32x4.gt_s(lc, at),
          prime,
          one,
        );
        hd = fnvMasked(
          hd,
          i8x16.swizzle(wd, sel2),
          i32x4.gt_s(ld, at),
          prime,
          one,
        );
        at = i32x4.add(at, one);
        ha = fnvMasked(ha, i32x4.shr_u(wa, 24), i32x4.gt_s(la, at), prime, one);
        hb = fnvMasked(hb, i32x4.shr_u(wb, 24), i32x4.gt_s(lb, at), prime, one);
        hc = fnvMasked(hc, i32x4.shr_u(wc, 24), i32x4.gt_s(lc, at), prime, one);
        hd = fnvMasked(hd, i32x4.shr_u(wd, 24), i32x4.gt_s(ld, at), prime, one);
        pin(ha, hb, hc, hd);
      }
    }
  }
  storeVectors(g, ha, hb, hc, hd);
}
