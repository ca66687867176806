// The read view as JSON string content, in one pass over UTF-8 bytes: every
// line of a window written as `LINE:HH|text`, lines joined by the two
// characters `\n`, and each line's text escaped exactly as JSON.stringify
// escapes it (`\"`, `\\`, `\b \t \f \r`, `\u00xx` for the other controls;
// everything else, bytes of other characters included, as it is).
//
// The host first runs the scanner over the same bytes at IN (one chunk, so
// FOLDS holds the folded anchor of every line), then calls formatView, which
// reads HH from there. Lines are split as the scanner splits them (LF or CRLF
// ends a line, a lone CR is content, EF BB BF at offset 0 is a BOM and not
// part of line 1). Plain text is copied sixteen bytes at a time; a byte that
// needs escaping, or a line end, is found with one vector compare.
//
// A window line of more bytes than the display limit might need the cut
// marker: the kernel then gives up and the host formats the view itself.

import { DIGITS, FOLDS, IN, OUT, OUT_CAP } from "./layout";

function hexDigit(v: u32): u8 {
  const d = v & 15;
  return <u8> (d < 10 ? 0x30 + d : 0x57 + d);
}

/** Sets the number at DIGITS to n; returns how many digits it has. */
export function setNumber(n: u32): usize {
  let digits: usize = 1;
  for (let x = n; x >= 10; x /= 10) digits++;
  let x = n;
  for (let k = digits; k > 0; k--) {
    store<u8>(DIGITS + k - 1, <u8> (0x30 + x % 10));
    x /= 10;
  }
  return digits;
}

/** Adds one to the number at DIGITS; returns how many digits it now has. */
export function nextNumber(digits: usize): usize {
  let k = digits;
  while (k > 0) {
    const d = load<u8>(DIGITS + k - 1);
    if (d != 0x39) {
      store<u8>(DIGITS + k - 1, d + 1);
      return digits;
    }
    store<u8>(DIGITS + k - 1, 0x30);
    k--;
  }
  // 99…9 became 00…0: one more digit in front.
  memory.copy(DIGITS + 1, DIGITS, digits);
  store<u8>(DIGITS, 0x31);
  return digits + 1;
}

/**
 * Writes `LINE:HH|` at o (the number's `digits` digits are at DIGITS, the
 * anchor byte at FOLDS); returns the address past it. Writes up to eight
 * bytes past the mark, which every caller keeps room for.
 */
export function linePrefix(o: usize, digits: usize, line: u32): usize {
  // The number is copied as one word (a line number has at most eight
  // digits): memory.copy is a call out of the engine, which costs more than
  // the copy at this size.
  store<u64>(o, load<u64>(DIGITS));
  o += digits;
  const fold = <u32> load<u8>(FOLDS + <usize> (line - 1));
  store<u32>(
    o,
    0x3a | (<u32> hexDigit(fold >> 4) << 8) | (<u32> hexDigit(fold) << 16) |
      (0x7c << 24),
  );
  return o + 4;
}

/** Writes the escape of one byte below 0x20, or `"` or `\`, at q; returns the address past it. */
function escape(q: usize, b: u32): usize {
  store<u8>(q, 0x5c);
  let c: u32 = 0;
  if (b == 0x22 || b == 0x5c) c = b;
  else if (b == 0x08) c = 0x62;
  else if (b == 0x09) c = 0x74;
  else if (b == 0x0c) c = 0x66;
  else if (b == 0x0d) c = 0x72;
  if (c != 0) {
    store<u8>(q + 1, <u8> c);
    return q + 2;
  }
  store<u8>(q + 1, 0x75);
  store<u8>(q + 2, 0x30);
  store<u8>(q + 3, 0x30);
  store<u8>(q + 4, hexDigit(b >> 4));
  store<u8>(q + 5, hexDigit(b));
  return q + 6;
}

/**
 * Formats lines `first`..`last` (1-based, inclusive; the window holds at
 * least one line) of the `len` bytes at IN into OUT.
 *
 * @returns Bytes written at OUT, or -1 when a window line is longer than
 *   `maxBytes` bytes or OUT would overflow.
 */
export function formatView(
  len: u32,
  first: u32,
  last: u32,
  maxBytes: u32,
): i32 {
  let p: usize = IN;
  const end: usize = IN + <usize> len;
  if (
    len >= 3 && load<u8>(p) == 0xef && load<u8>(p + 1) == 0xbb &&
    load<u8>(p + 2) == 0xbf
  ) p += 3;
  // Lines before the window are skipped.
  let line: u32 = 1;
  while (line < first && p < end) {
    while (p < end && load<u8>(p) != 0x0a) p++;
    if (p < end) p++;
    line++;
  }
  let o: usize = OUT;
  // Room for one vector store past the mark, an escape and a prefix.
  const limit: usize = OUT + OUT_CAP - 64;
  const space = i8x16.splat(0x20);
  const quote = i8x16.splat(0x22);
  const slash = i8x16.splat(0x5c);
  let digits = setNumber(line);
  while (p < end && line <= last) {
    if (line > first) {
      store<u8>(o, 0x5c);
      store<u8>(o + 1, 0x6e);
      o += 2;
      digits = nextNumber(digits);
    }
    o = linePrefix(o, digits, line);
    const start = p;
    // Copy up to the line's end, escaping on the way.
    for (;;) {
      if (o >= limit) return -1;
      if (p + 16 <= end) {
        const v = v128.load(p);
        const special = v128.or(
          i8x16.lt_u(v, space),
          v128.or(i8x16.eq(v, quote), i8x16.eq(v, slash)),
        );
        const mask = i8x16.bitmask(special);
        v128.store(o, v);
        if (mask == 0) {
          p += 16;
          o += 16;
          continue;
        }
        const k = <usize> ctz(mask);
        p += k;
        o += k;
      } else if (p >= end) {
        break;
      }
      const b = <u32> load<u8>(p);
      if (b >= 0x20 && b != 0x22 && b != 0x5c) {
        store<u8>(o++, <u8> b);
        p++;
        continue;
      }
      if (b == 0x0a) break;
      if (b == 0x0d && p + 1 < end && load<u8>(p + 1) == 0x0a) {
        p++;
        break;
      }
      o = escape(o, b);
      p++;
    }
    // p is at the LF (or the end); the CR of a CRLF was stepped over.
    if (<u32> (p - start) > maxBytes) return -1;
    if (p < end) p++;
    line++;
  }
  return <i32> (o - OUT);
}
