// Counting lines without hashing them: what a read of a window deep in a
// huge file needs for the rest of the file (how many lines there are, that
// every byte is well-formed UTF-8, and where every `every`-th line starts
// for the sparse line index). One pass of 64-byte vector steps; bytes are
// decoded one by one only in blocks that hold a byte >= 0x80.

import { CONSTS, COUNTS, IN, NLPOS } from "./layout";
import { mask64 } from "./newlines";
import { undecidedTail, wellFormedLen } from "./utf8";

/** "Not found" in the report. */
const NONE: i32 = 0x80000000;

/**
 * Checks the sequences that start in [p, stop); each must end by `d`.
 * Returns where the next sequence starts, or `-1` after writing the
 * ill-formed one's address to COUNTS + 4.
 */
function checkSpan(p: usize, stop: usize, d: usize): usize {
  while (p < stop) {
    if (load<u8>(p) < 0x80) {
      p++;
      continue;
    }
    const n = wellFormedLen(p, d);
    if (n == 0) {
      store<i32>(COUNTS, <i32> p - <i32> IN, 4);
      return <usize> -1;
    }
    p += n;
  }
  return p;
}

/**
 * Counts the line feeds in the `held` carried bytes just below inputPtr()
 * and the `n` bytes from it. Unless `final`, bytes at the end that cannot be
 * decided yet (a prefix of a multi-byte sequence, a trailing CR) are left
 * for the caller to carry into the next call. The carried bytes hold no
 * line feed.
 *
 * `until` is how many line feeds remain before the next checkpoint, and
 * `every` the distance between checkpoints after it: the position just past
 * each checkpoint's line feed is written (as an i32 relative to
 * inputPtr()) from NLPOS on.
 *
 * Returns the bytes decided, counted from the first carried one. COUNTS
 * then holds, as i32: line feeds, the first ill-formed sequence (relative to
 * inputPtr(), or NONE), checkpoints written, `until` for the next call, and
 * the position just past the last line feed (relative, or NONE).
 */
export function countLines(
  held: u32,
  n: u32,
  final: bool,
  until: u32,
  every: u32,
): u32 {
  const s = IN - <usize> held;
  const e = IN + <usize> n;
  const d = final ? e : e - undecidedTail(s, e);
  // No line feed or high byte after the input: whole 64-byte steps are safe.
  memory.fill(e, 0x20, 64);
  store<i32>(COUNTS, NONE, 4);
  const lf = v128.load(CONSTS);
  let valid = true;
  let next = s; // where the next unchecked sequence starts
  let total: u32 = 0;
  let checks: usize = 0;
  let last: i32 = NONE;
  for (let p = s; p < d; p += 64) {
    const v0 = v128.load(p);
    const v1 = v128.load(p, 16);
    const v2 = v128.load(p, 32);
    const v3 = v128.load(p, 48);
    const m = mask64(
      i8x16.eq(v0, lf),
      i8x16.eq(v1, lf),
      i8x16.eq(v2, lf),
      i8x16.eq(v3, lf),
    );
    if (
      valid && i8x16.bitmask(v128.or(v128.or(v0, v1), v128.or(v2, v3))) != 0
    ) {
      // Before a block with a high byte, every block was ASCII or checked,
      // so both `next` and p are sequence starts.
      const stop = p + 64 < d ? p + 64 : d;
      next = checkSpan(next > p ? next : p, stop, d);
      valid = next != <usize> -1;
    }
    if (m == 0) continue;
    let c = <u32> popcnt(m);
    last = <i32> (p + <usize> (63 - clz(m)) + 1) - <i32> IN;
    total += c;
    if (c < until) {
      until -= c;
      continue;
    }
    let left = m;
    let need = until;
    for (;;) {
      for (let k: u32 = 1; k < need; k++) left &= left - 1;
      store<i32>(
        NLPOS + (checks << 2),
        <i32> (p + <usize> ctz(left) + 1) - <i32> IN,
      );
      checks++;
      left &= left - 1;
      c -= need;
      need = every;
      if (c < need) break;
    }
    until = need - c;
  }
  store<i32>(COUNTS, <i32> total);
  store<i32>(COUNTS, <i32> checks, 8);
  store<i32>(COUNTS, <i32> until, 12);
  store<i32>(COUNTS, last, 16);
  return <u32> (d - s);
}
