// The request body `{"content":"…"}` of POST /v1/format, read straight
// from its bytes. The host writes the body at BODY; unescapeBody writes the
// content's UTF-8 bytes at IN, where push and formatView read them, and
// notes where each line ends in the body. Decoding the body to a string and
// JSON.parse cost as much as all the engine's work; here the string is
// copied sixteen bytes at a time and only escapes are taken byte by byte.
//
// Only that one shape is taken: a JSON object whose one member is
// "content" (spelled without escapes) holding a string, with JSON
// whitespace around the tokens. Anything else (other members, a BOM, a
// raw control character, a bad or lone-surrogate escape) answers -1 and the
// host takes the general path, which gives every answer and every refusal.
// Ill-formed UTF-8 is not looked for here: it stays ill-formed after
// unescaping (an escape writes whole sequences), and the scanner then
// reports it, which sends the host to the general path too.
//
// When every escape is the one JSON.stringify writes for its character
// (as it is in a body a JSON library wrote), each line of the content is
// spelled in the body exactly as the view spells it, and formatBody copies
// the lines' spellings instead of escaping the content again.

import { BODY, BODY_INFO, BREAKS, IN, OUT, OUT_CAP } from "./layout";
import { linePrefix, nextNumber, setNumber } from "./format";

// BODY_INFO words: where the content's spelling starts and ends in the
// body, how many line breaks it holds, and whether every escape is the one
// JSON.stringify writes.
const I_START: usize = 0;
const I_END: usize = 4;
const I_BREAKS: usize = 8;
const I_CANONICAL: usize = 12;
const CR_BEFORE: u32 = 0x80000000;

/** JSON whitespace: space, tab, LF, CR. */
function skipSpace(p: usize, end: usize): usize {
  while (p < end) {
    const b = load<u8>(p);
    if (b != 0x20 && b != 0x09 && b != 0x0a && b != 0x0d) break;
    p++;
  }
  return p;
}

function hexValue(b: u32): i32 {
  if (b - 0x30 < 10) return <i32> (b - 0x30);
  const l = b | 0x20; // A-F as a-f
  if (l - 0x61 < 6) return <i32> (l - 0x57);
  return -1;
}

/** The code unit of the four hex digits at p, or -1. */
function hex4(p: usize): i32 {
  const a = hexValue(load<u8>(p));
  const b = hexValue(load<u8>(p + 1));
  const c = hexValue(load<u8>(p + 2));
  const d = hexValue(load<u8>(p + 3));
  if ((a | b | c | d) < 0) return -1;
  return (a << 12) | (b << 8) | (c << 4) | d;
}

/** Writes code point cp as UTF-8 at o; returns the address past it. */
function putUtf8(o: usize, cp: u32): usize {
  if (cp < 0x80) {
    store<u8>(o, <u8> cp);
    return o + 1;
  }
  if (cp < 0x800) {
    store<u8>(o, <u8> (0xc0 | (cp >> 6)));
    store<u8>(o + 1, <u8> (0x80 | (cp & 0x3f)));
    return o + 2;
  }
  if (cp < 0x10000) {
    store<u8>(o, <u8> (0xe0 | (cp >> 12)));
    store<u8>(o + 1, <u8> (0x80 | ((cp >> 6) & 0x3f)));
    store<u8>(o + 2, <u8> (0x80 | (cp & 0x3f)));
    return o + 3;
  }
  store<u8>(o, <u8> (0xf0 | (cp >> 18)));
  store<u8>(o + 1, <u8> (0x80 | ((cp >> 12) & 0x3f)));
  store<u8>(o + 2, <u8> (0x80 | ((cp >> 6) & 0x3f)));
  store<u8>(o + 3, <u8> (0x80 | (cp & 0x3f)));
  return o + 4;
}

/** `"content` as one little-endian word, then the closing `"`. */
const KEY_WORD: u64 = 0x746e65746e6f6322;

/**
 * Takes the `len` bytes of a request body at BODY, writes the content
 * string's UTF-8 bytes at IN, and notes its line breaks at BREAKS and the
 * rest at BODY_INFO for formatBody.
 *
 * @returns The content's length in bytes, or -1 when the body is not of
 *   the one shape taken here (see the notes above).
 */
export function unescapeBody(len: u32): i32 {
  const end: usize = BODY + <usize> len;
  let p = skipSpace(BODY, end);
  if (p >= end || load<u8>(p) != 0x7b) return -1;
  p = skipSpace(p + 1, end);
  if (end - p < 9 || load<u64>(p) != KEY_WORD || load<u8>(p + 8) != 0x22) {
    return -1;
  }
  p = skipSpace(p + 9, end);
  if (p >= end || load<u8>(p) != 0x3a) return -1;
  p = skipSpace(p + 1, end);
  if (p >= end || load<u8>(p) != 0x22) return -1;
  p++;
  store<u32>(BODY_INFO + I_START, <u32> p);
  let o: usize = IN;
  let breaks: usize = BREAKS;
  let canonical: u32 = 1;
  // Just past the last \r escape: a \n escape that starts there ends a CRLF.
  let afterCr: usize = 0;
  const space = i8x16.splat(0x20);
  const quote = i8x16.splat(0x22);
  const slash = i8x16.splat(0x5c);
  for (;;) {
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
      return -1; // no closing quote
    }
    const b = <u32> load<u8>(p);
    if (b >= 0x20 && b != 0x22 && b != 0x5c) {
      store<u8>(o++, <u8> b);
      p++;
      continue;
    }
    if (b == 0x22) break;
    if (b < 0x20 || p + 1 >= end) return -1;
    const e = <u32> load<u8>(p + 1);
    if (e == 0x6e) {
      store<u32>(breaks, <u32> p | (p == afterCr ? CR_BEFORE : 0));
      breaks += 4;
      store<u8>(o++, 0x0a);
      p += 2;
      continue;
    }
    let c: u32 = 0x100;
    if (e == 0x22 || e == 0x5c) c = e;
    else if (e == 0x72) {
      c = 0x0d;
      afterCr = p + 2;
    } else if (e == 0x74) c = 0x09;
    else if (e == 0x62) c = 0x08;
    else if (e == 0x66) c = 0x0c;
    else if (e == 0x2f) {
      c = 0x2f;
      canonical = 0; // JSON.stringify leaves "/" as it is
    }
    if (c != 0x100) {
      store<u8>(o++, <u8> c);
      p += 2;
      continue;
    }
    if (e != 0x75 || end - p < 6) return -1;
    const unit = hex4(p + 2);
    if (unit < 0) return -1;
    // JSON.stringify writes \u00xx, in lower case, only for the controls
    // without a short escape.
    if (
      unit >= 0x20 || unit == 0x08 || unit == 0x09 || unit == 0x0a ||
      unit == 0x0c || unit == 0x0d ||
      (load<u32>(p + 2) & 0x20202020) != 0x20202020
    ) canonical = 0;
    p += 6;
    let cp = <u32> unit;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      // Only a high surrogate escape followed by a low one has UTF-8; a lone
      // one is the general path's (it reads it as U+FFFD).
      if (cp >= 0xdc00 || end - p < 6) return -1;
      if (load<u8>(p) != 0x5c || load<u8>(p + 1) != 0x75) return -1;
      const low = hex4(p + 2);
      if (low < 0xdc00 || low > 0xdfff) return -1;
      p += 6;
      cp = 0x10000 + ((cp - 0xd800) << 10) + (<u32> low - 0xdc00);
    }
    o = putUtf8(o, cp);
  }
  // p is at the closing quote.
  store<u32>(BODY_INFO + I_END, <u32> p);
  store<u32>(BODY_INFO + I_BREAKS, <u32> ((breaks - BREAKS) >> 2));
  store<u32>(BODY_INFO + I_CANONICAL, canonical);
  p = skipSpace(p + 1, end);
  if (p >= end || load<u8>(p) != 0x7d) return -1;
  if (skipSpace(p + 1, end) != end) return -1;
  return <i32> (o - IN);
}

/**
 * formatView for the content unescapeBody took, where every escape of the
 * body was JSON.stringify's: each window line is its spelling in the body,
 * copied behind its prefix. The scanner has run over the content at IN, so
 * FOLDS holds every line's anchor byte.
 *
 * @returns Bytes written at OUT, or -1 when the body spelled a character
 *   otherwise than JSON.stringify does, a window line is longer than
 *   `maxBytes` bytes, or OUT would overflow: formatView then decides.
 */
export function formatBody(first: u32, last: u32, maxBytes: u32): i32 {
  if (load<u32>(BODY_INFO + I_CANONICAL) == 0) return -1;
  const count = load<u32>(BODY_INFO + I_BREAKS);
  const close = <usize> load<u32>(BODY_INFO + I_END);
  let o: usize = OUT;
  // Room for a prefix, a vector store past the mark and the joiner.
  const limit: usize = OUT + OUT_CAP - 64;
  let digits = setNumber(first);
  for (let line = first; line <= last; line++) {
    let from: usize;
    if (line == 1) {
      from = <usize> load<u32>(BODY_INFO + I_START);
      // A BOM is not part of line 1 (JSON.stringify writes it as it is).
      if (
        close - from >= 3 && load<u8>(from) == 0xef &&
        load<u8>(from + 1) == 0xbb && load<u8>(from + 2) == 0xbf
      ) from += 3;
    } else {
      from = <usize> (load<u32>(BREAKS + <usize> (line - 2) * 4) & ~CR_BEFORE) +
        2;
    }
    let to = close;
    // The CR of a CRLF counts toward the line's length, as formatView counts it.
    let cr: usize = 0;
    if (line - 1 < count) {
      const at = load<u32>(BREAKS + <usize> (line - 1) * 4);
      to = <usize> (at & ~CR_BEFORE);
      if (at & CR_BEFORE) {
        to -= 2;
        cr = 1;
      }
    }
    const n = to - from;
    if (n + cr > <usize> maxBytes) return -1;
    if (line > first) {
      store<u8>(o, 0x5c);
      store<u8>(o + 1, 0x6e);
      o += 2;
      digits = nextNumber(digits);
    }
    o = linePrefix(o, digits, line);
    if (o + n >= limit) return -1;
    for (let i: usize = 0; i < n; i += 16) {
      v128.store(o + i, v128.load(from + i));
    }
    o += n;
  }
  return <i32> (o - OUT);
}
