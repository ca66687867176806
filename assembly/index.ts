// hashline line scanner: finds line ends in UTF-8 bytes and computes each
// line's anchor hash, streaming chunk by chunk.
//
// Lines end at LF or CRLF; the terminator is not part of the line and a lone
// CR is content. A final terminator ends the last line rather than opening
// an empty one; empty input has no lines. EF BB BF at absolute offset 0 is a
// BOM and not part of line 1.
//
// Hash: FNV-1a/32 (basis 0x811c9dc5, prime 0x01000193) over each code point
// of the line, feeding the code point's bytes low byte first, as many as it
// needs and at least one (cp <= 0xff: 1 byte, <= 0xffff: 2, else 3). ASCII
// hashes like its UTF-8 bytes.
//
// Ill-formed UTF-8 (Unicode Table 3-7: no overlongs, no surrogates D800-DFFF,
// nothing above U+10FFFF) still hashes deterministically: at a position where
// no well-formed sequence starts, the single byte there is fed as a code
// point equal to its value and decoding moves on by one byte. The offset of
// the first such byte is reported, as is the offset of the first NUL.
//
// Streaming: the host writes each chunk (at most capacity() bytes) at
// inputPtr() and calls push(). Bytes that cannot be decided yet (a trailing
// CR, or a prefix of a multi-byte sequence) are held back in the state block
// and placed in front of the next chunk, so every later step sees contiguous
// bytes. The state block is small; a host running several scanners over one
// instance saves and restores it around each call.

import {
  CAPACITY,
  CONSTS,
  COUNTS,
  ENDS,
  F_AT_START,
  F_BOM,
  F_INVALID_SEEN,
  F_NUL_SEEN,
  F_OPEN,
  FOLDS,
  HASHES,
  HIGHS,
  IN,
  LAYOUT_END,
  M_ENDS,
  M_FINAL,
  M_FOLD,
  M_HASH,
  NLPOS,
  NONE,
  OUT,
  S_CARRY,
  S_CARRY_LEN,
  S_FLAGS,
  S_HASH,
  S_INVALID,
  S_NUL,
  STATE,
  STATE_BYTES,
} from "./layout";
import { highCount, nulAt, scanNewlines, startScan } from "./newlines";
import { finishLines, hashLines, startLines } from "./lines";
import {
  BASIS,
  firstInvalid,
  hashUtf8,
  noteInvalid,
  resetInvalid,
  undecidedTail,
  validate,
} from "./utf8";

export function inputPtr(): usize {
  return IN;
}

export function capacity(): u32 {
  return <u32> CAPACITY;
}

export function statePtr(): usize {
  return STATE;
}

export function stateBytes(): u32 {
  return <u32> STATE_BYTES;
}

export function hashesPtr(): usize {
  return HASHES;
}

export function endsPtr(): usize {
  return ENDS;
}

export function foldsPtr(): usize {
  return FOLDS;
}

/** First byte past the fixed layout; the memory must reach at least this far. */
export function layoutEnd(): usize {
  return LAYOUT_END;
}

/** Starts a new input in the state block. */
export function reset(): void {
  store<u32>(STATE + S_HASH, BASIS);
  store<u32>(STATE + S_FLAGS, F_AT_START);
  store<u32>(STATE + S_CARRY_LEN, 0);
  store<u32>(STATE + S_CARRY, 0);
  store<u32>(STATE + S_INVALID, NONE);
  store<u32>(STATE + S_NUL, NONE);
}

function isBomPrefix(s: usize, n: usize): bool {
  if (n >= 1 && load<u8>(s) != 0xef) return false;
  if (n >= 2 && load<u8>(s + 1) != 0xbb) return false;
  return true;
}

function holdBack(from: usize, n: usize): void {
  let carry: u32 = 0;
  for (let i: usize = 0; i < n; i++) {
    carry |= <u32> load<u8>(from + i) << (<u32> i << 3);
  }
  store<u32>(STATE + S_CARRY_LEN, <u32> n);
  store<u32>(STATE + S_CARRY, carry);
}

/** Bytes scanned and hashed at a time (a multiple of 64). */
const PIECE: usize = 64 << 10;

function writeFolds(count: usize): void {
  // Loaded, not a literal: see the constants in lanes.ts.
  const lowByte = v128.load(CONSTS, 32);
  for (let i: usize = 0; i < count; i += 16) {
    let a = v128.load(HASHES + (i << 2));
    let b = v128.load(HASHES + (i << 2), 16);
    let c = v128.load(HASHES + (i << 2), 32);
    let d = v128.load(HASHES + (i << 2), 48);
    a = v128.and(
      v128.xor(
        v128.xor(a, i32x4.shr_u(a, 8)),
        v128.xor(i32x4.shr_u(a, 16), i32x4.shr_u(a, 24)),
      ),
      lowByte,
    );
    b = v128.and(
      v128.xor(
        v128.xor(b, i32x4.shr_u(b, 8)),
        v128.xor(i32x4.shr_u(b, 16), i32x4.shr_u(b, 24)),
      ),
      lowByte,
    );
    c = v128.and(
      v128.xor(
        v128.xor(c, i32x4.shr_u(c, 8)),
        v128.xor(i32x4.shr_u(c, 16), i32x4.shr_u(c, 24)),
      ),
      lowByte,
    );
    d = v128.and(
      v128.xor(
        v128.xor(d, i32x4.shr_u(d, 8)),
        v128.xor(i32x4.shr_u(d, 16), i32x4.shr_u(d, 24)),
      ),
      lowByte,
    );
    v128.store(
      FOLDS + i,
      i8x16.narrow_i16x8_u(
        i16x8.narrow_i32x4_u(a, b),
        i16x8.narrow_i32x4_u(c, d),
      ),
    );
  }
}

/**
 * Scans `n` bytes at inputPtr(). `mode` holds M_* bits; `base` is the
 * absolute offset of the chunk's first byte (used for M_ENDS). Returns the
 * number of lines completed; their hashes, folds and ends are at
 * hashesPtr(), foldsPtr(), endsPtr(). The state block then reports the
 * first ill-formed sequence and NUL found by this call (chunk-relative,
 * possibly negative for held-back bytes), each only once per input.
 */
export function push(n: u32, mode: u32, base: f64): u32 {
  let flags = load<u32>(STATE + S_FLAGS);
  let h = load<u32>(STATE + S_HASH);
  const held = <usize> load<u32>(STATE + S_CARRY_LEN);
  const carry = load<u32>(STATE + S_CARRY);
  store<u32>(STATE + S_INVALID, NONE);
  store<u32>(STATE + S_NUL, NONE);
  const final = (mode & M_FINAL) != 0;
  const doHash = (mode & M_HASH) != 0;
  let s = IN - held;
  for (let i: usize = 0; i < held; i++) {
    store<u8>(s + i, <u8> (carry >> (<u32> i << 3)));
  }
  const e = IN + <usize> n;

  if ((flags & F_AT_START) != 0) {
    const avail = e - s;
    if (avail >= 3) {
      if (
        load<u8>(s) == 0xef && load<u8>(s + 1) == 0xbb &&
        load<u8>(s + 2) == 0xbf
      ) {
        flags |= F_BOM;
        s += 3;
      }
      flags &= ~F_AT_START;
    } else if (!final && isBomPrefix(s, avail)) {
      holdBack(s, avail);
      store<u32>(STATE + S_FLAGS, flags);
      return 0;
    } else {
      flags &= ~F_AT_START;
    }
  }

  const tail: usize = final ? 0 : undecidedTail(s, e);
  const d = e - tail;
  // Hashing needs to know which lines are ASCII; validation alone can stop
  // looking once an ill-formed sequence was reported.
  const findHigh = doHash || (flags & F_INVALID_SEEN) == 0;
  // Held-back bytes hold no LF or NUL, so scanning them is harmless, and
  // padding after the chunk saves the scan a partial last block.
  memory.fill(e, 0x20, 64);
  const findNul = (flags & F_NUL_SEEN) == 0;
  resetInvalid();
  startScan();
  let count: usize = 0;
  if (doHash) {
    // Piece by piece, so the lines are filed and hashed while their bytes
    // are still in the core's caches.
    startLines();
    for (let p = s; p < e; p += PIECE) {
      const q = e - p > PIECE ? p + PIECE : e;
      count = scanNewlines(p, q, findNul, findHigh);
      hashLines(count);
    }
  } else {
    count = scanNewlines(s, e, findNul, findHigh);
  }
  const nul = nulAt;

  let rest = s; // where the line still open at the end of the chunk begins
  if (count > 0) rest = <usize> load<u32>(NLPOS + ((count - 1) << 2)) + 1;
  let open = (flags & F_OPEN) != 0;
  if (count > 0) open = d > rest;
  else open = open || d > s;

  if (doHash) {
    if (count > 0) {
      const nl = <usize> load<u32>(NLPOS);
      const end = nl > s && load<u8>(nl - 1) == 0x0d ? nl - 1 : nl;
      store<u32>(HASHES, hashUtf8(h, s, end));
      h = BASIS;
      finishLines();
    }
    h = hashUtf8(h, rest, d);
  } else if (highCount > 0) {
    // Everything before the first block with a high byte is ASCII, so that
    // block starts on a sequence boundary.
    const bad = validate(<usize> load<u32>(HIGHS), d);
    if (bad < d) noteInvalid(bad);
  }

  if (final && open) {
    if (doHash) store<u32>(HASHES + (count << 2), h);
    store<u32>(NLPOS + (count << 2), <u32> (e - 1));
    count++;
    open = false;
    h = BASIS;
  }

  if ((mode & M_ENDS) != 0) {
    for (let k: usize = 0; k < count; k++) {
      const rel = <f64> (<usize> load<u32>(NLPOS + (k << 2)) + 1 - IN);
      store<f64>(ENDS + (k << 3), base + rel);
    }
  }
  if (doHash && (mode & M_FOLD) != 0) writeFolds(count);

  if (nul != <usize> -1) {
    store<i32>(STATE + S_NUL, <i32> (nul - IN));
    flags |= F_NUL_SEEN;
  }
  const bad = firstInvalid;
  if (bad != <usize> -1 && (flags & F_INVALID_SEEN) == 0) {
    store<i32>(STATE + S_INVALID, <i32> bad - <i32> IN);
    flags |= F_INVALID_SEEN;
  }
  if (tail > 0) open = true;
  flags = open ? flags | F_OPEN : flags & ~F_OPEN;
  holdBack(d, tail);
  store<u32>(STATE + S_HASH, h);
  store<u32>(STATE + S_FLAGS, flags);
  return <u32> count;
}

export { countLines } from "./count";
export { formatView } from "./format";
export { formatBody, unescapeBody } from "./body";

/** Address of what formatView writes. */
export function outPtr(): usize {
  return OUT;
}

/** Address of what countLines reports. */
export function countsPtr(): usize {
  return COUNTS;
}

/** Address of the checkpoints countLines writes. */
export function checksPtr(): usize {
  return NLPOS;
}
