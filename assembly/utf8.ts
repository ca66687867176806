// Scalar UTF-8 decoding, shared by line hashing and validation.
//
// Well-formed sequences follow Unicode Table 3-7 (no overlongs, no
// surrogates, nothing above U+10FFFF). At a position where no well-formed
// sequence starts, the single byte there counts as the code point equal to
// its value and decoding moves on by one byte. A sequence cut short by the
// end of a line is therefore ill-formed at its lead byte.

export const BASIS: u32 = 0x811c9dc5;
export const PRIME: u32 = 0x01000193;

/** Lowest address of an ill-formed sequence seen since the last reset. */
export let firstInvalid: usize = <usize> -1;

export function resetInvalid(): void {
  firstInvalid = <usize> -1;
}

export function noteInvalid(p: usize): void {
  if (p < firstInvalid) firstInvalid = p;
}

function isCont(b: u32): bool {
  return (b & 0xc0) == 0x80;
}

/** Lowest allowed second byte after a lead byte (Table 3-7). */
function secondLow(lead: u32): u32 {
  return lead == 0xe0 ? 0xa0 : lead == 0xf0 ? 0x90 : 0x80;
}

/** Highest allowed second byte after a lead byte (Table 3-7). */
function secondHigh(lead: u32): u32 {
  return lead == 0xed ? 0x9f : lead == 0xf4 ? 0x8f : 0xbf;
}

/** Sequence length a lead byte announces, or 0 when it cannot start one. */
function seqLen(lead: u32): u32 {
  if (lead < 0x80) return 1;
  if (lead < 0xc2) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  if (lead < 0xf5) return 4;
  return 0;
}

/**
 * Continues FNV-1a over the code points of [p, e), which holds no line
 * terminator. Records the first ill-formed sequence.
 */
export function hashUtf8(h: u32, p: usize, e: usize): u32 {
  let seen = false;
  while (p < e) {
    let b = <u32> load<u8>(p);
    if (b < 0x80) {
      h = (h ^ b) * PRIME;
      p++;
      continue;
    }
    const n = seqLen(b);
    let cp = b;
    let used: usize = 1;
    if (n != 0 && p + <usize> n <= e) {
      const b1 = <u32> load<u8>(p + 1);
      if (b1 >= secondLow(b) && b1 <= secondHigh(b)) {
        if (n == 2) {
          cp = ((b & 0x1f) << 6) | (b1 & 0x3f);
          used = 2;
        } else {
          const b2 = <u32> load<u8>(p + 2);
          if (isCont(b2)) {
            if (n == 3) {
              cp = ((b & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
              used = 3;
            } else {
              const b3 = <u32> load<u8>(p + 3);
              if (isCont(b3)) {
                cp = ((b & 0x07) << 18) | ((b1 & 0x3f) << 12) |
                  ((b2 & 0x3f) << 6) | (b3 & 0x3f);
                used = 4;
              }
            }
          }
        }
      }
    }
    if (used == 1 && !seen) {
      seen = true;
      noteInvalid(p);
    }
    h = (h ^ (cp & 0xff)) * PRIME;
    if (cp > 0xff) {
      h = (h ^ ((cp >> 8) & 0xff)) * PRIME;
      if (cp > 0xffff) h = (h ^ (cp >> 16)) * PRIME;
    }
    p += used;
  }
  return h;
}

/**
 * Length of the well-formed sequence that starts at `p` (a byte >= 0x80)
 * and ends by `e`, or 0 when none does.
 */
export function wellFormedLen(p: usize, e: usize): usize {
  const b = <u32> load<u8>(p);
  const n = <usize> seqLen(b);
  if (n == 0 || p + n > e) return 0;
  const b1 = <u32> load<u8>(p + 1);
  if (b1 < secondLow(b) || b1 > secondHigh(b)) return 0;
  if (n >= 3 && !isCont(<u32> load<u8>(p + 2))) return 0;
  if (n == 4 && !isCont(<u32> load<u8>(p + 3))) return 0;
  return n;
}

/**
 * Finds the first ill-formed sequence in [p, e), starting at a sequence
 * boundary; skips ASCII sixteen bytes at a time. Returns e when none.
 */
export function validate(p: usize, e: usize): usize {
  while (p < e) {
    if (p + 16 <= e && i8x16.bitmask(v128.load(p)) == 0) {
      p += 16;
      continue;
    }
    if (load<u8>(p) < 0x80) {
      p++;
      continue;
    }
    const n = wellFormedLen(p, e);
    if (n == 0) return p;
    p += n;
  }
  return e;
}

/**
 * How many bytes at the end of [s, e) cannot be decided before more input
 * arrives: a trailing CR (it may start CRLF) or a proper prefix of a
 * well-formed sequence. Everything before them decodes the same whatever
 * follows.
 */
export function undecidedTail(s: usize, e: usize): usize {
  if (e <= s) return 0;
  const last = <u32> load<u8>(e - 1);
  if (last == 0x0d) return 1;
  if (last < 0x80) return 0;
  for (let k: usize = 1; k <= 3 && e - k >= s; k++) {
    const b = <u32> load<u8>(e - k);
    if (isCont(b)) continue;
    const n = <usize> seqLen(b);
    if (n <= k) return 0;
    if (k >= 2) {
      const b1 = <u32> load<u8>(e - k + 1);
      if (b1 < secondLow(b) || b1 > secondHigh(b)) return 0;
    }
    if (k == 3 && !isCont(<u32> load<u8>(e - 1))) return 0;
    return k;
  }
  return 0;
}
