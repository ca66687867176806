// From newline positions to hashed lines. Line 0 of a chunk continues the
// previous chunk and is hashed by the caller; here come lines 1..count-1.
//
// Lines of one length go together: each waits in the bucket for its length
// until sixteen are ready, then the sixteen are hashed at once with no lane
// left idle (lanes.ts). At the end of the chunk the lines still waiting, and
// lines of BUCKETS bytes or more, are sorted by length and hashed sixteen at
// a time, lanes that run out early keeping their hash. Lines holding a byte
// >= 0x80 (the newline scan lists where those are) are decoded one by one
// by the scalar UTF-8 path.

import { hashGroupMixed, hashGroupSame } from "./lanes";
import {
  BUCKET,
  BUCKET_BYTES,
  BUCKETS,
  FILL,
  HASHES,
  HIGHS,
  LEFT,
  LONGS,
  NLPOS,
  QUAD_BYTES,
} from "./layout";
import { highCount } from "./newlines";
import { BASIS, hashUtf8 } from "./utf8";

let highAt: usize = 0;

function highAddr(i: usize): usize {
  return <usize> load<u32>(HIGHS + (i << 4));
}

/** Whether [start, end) holds a byte >= 0x80; moves the HIGHS cursor forward. */
function touchesHigh(start: usize, end: usize): bool {
  while (highAt < highCount && highAddr(highAt) + 64 <= start) highAt++;
  for (let i = highAt; i < highCount; i++) {
    const p = highAddr(i);
    if (p >= end) break;
    const span = end - p;
    let range: u64 = span >= 64 ? <u64> -1 : (<u64> 1 << <u64> span) - 1;
    if (start > p) range &= ~((<u64> 1 << <u64> (start - p)) - 1);
    if ((load<u64>(HIGHS + (i << 4), 8) & range) != 0) return true;
  }
  return false;
}

function nextHigh(): usize {
  return highAt < highCount ? highAddr(highAt) : <usize> -1;
}

/** Puts a line in slot `slot` (0..15) of the group of quad records at `g`. */
function place(
  g: usize,
  slot: usize,
  start: usize,
  len: usize,
  k: usize,
): void {
  const at = g + (slot >> 2) * QUAD_BYTES + ((slot & 3) << 2);
  store<u32>(at, <u32> start);
  store<u32>(at, <u32> len, 16);
  store<u32>(at, <u32> k, 32);
}

/** Hashes lines 1..count-1 of the chunk into HASHES. */
export function hashLines(count: usize): void {
  highAt = 0;
  let high = nextHigh();
  let used: usize = 0;
  let longs: usize = 0;
  let start = <usize> load<u32>(NLPOS) + 1;
  for (let k: usize = 1; k < count; k++) {
    const nl = <usize> load<u32>(NLPOS + (k << 2));
    // The byte before an empty line is the previous LF, never CR.
    const end = nl - <usize> (load<u8>(nl - 1) == 0x0d);
    const from = start;
    start = nl + 1;
    if (high < end) {
      const wide = touchesHigh(from, end);
      high = nextHigh();
      if (wide) {
        store<u32>(HASHES + (k << 2), hashUtf8(BASIS, from, end));
        continue;
      }
    }
    const len = end - from;
    if (len < <usize> BUCKETS) {
      const bucket = BUCKET + len * BUCKET_BYTES;
      const fp = FILL + (len << 2);
      const fill = <usize> load<u32>(fp);
      place(bucket, fill, from, len, k);
      if (fill == 15) {
        hashGroupSame(bucket, len);
        store<u32>(fp, 0);
      } else {
        store<u32>(fp, <u32> fill + 1);
      }
      if (len > used) used = len;
    } else {
      const at = LONGS + longs * 12;
      store<u32>(at, <u32> from);
      store<u32>(at, <u32> len, 4);
      store<u32>(at, <u32> k, 8);
      longs++;
    }
  }
  hashLeftovers(used, longs);
}

/** Hashes what the buckets still hold, then the long lines, in length order. */
function hashLeftovers(used: usize, longs: usize): void {
  let n: usize = 0;
  for (let len: usize = 0; len <= used; len++) {
    const fp = FILL + (len << 2);
    const fill = <usize> load<u32>(fp);
    if (fill == 0) continue;
    const bucket = BUCKET + len * BUCKET_BYTES;
    for (let i: usize = 0; i < fill; i++) {
      const from = bucket + (i >> 2) * QUAD_BYTES + ((i & 3) << 2);
      place(
        LEFT + (n >> 4) * BUCKET_BYTES,
        n & 15,
        <usize> load<u32>(from),
        len,
        <usize> load<u32>(from, 32),
      );
      n++;
    }
    store<u32>(fp, 0);
  }
  // Few lines are this long; insertion sort keeps the idle lanes few.
  for (let i: usize = 1; i < longs; i++) {
    const start = load<u32>(LONGS + i * 12);
    const len = load<u32>(LONGS + i * 12, 4);
    const k = load<u32>(LONGS + i * 12, 8);
    let j = i;
    while (j > 0 && load<u32>(LONGS + (j - 1) * 12, 4) > len) {
      memory.copy(LONGS + j * 12, LONGS + (j - 1) * 12, 12);
      j--;
    }
    store<u32>(LONGS + j * 12, start);
    store<u32>(LONGS + j * 12, len, 4);
    store<u32>(LONGS + j * 12, k, 8);
  }
  for (let i: usize = 0; i < longs; i++) {
    const from = LONGS + i * 12;
    place(
      LEFT + (n >> 4) * BUCKET_BYTES,
      n & 15,
      <usize> load<u32>(from),
      <usize> load<u32>(from, 4),
      <usize> load<u32>(from, 8),
    );
    n++;
  }
  if (n == 0) return;
  // Fill the last group with copies of its last line.
  const last = n - 1;
  const lastGroup = LEFT + (last >> 4) * BUCKET_BYTES;
  const from = lastGroup + ((last & 15) >> 2) * QUAD_BYTES + ((last & 3) << 2);
  const start = <usize> load<u32>(from);
  const len = <usize> load<u32>(from, 16);
  const k = <usize> load<u32>(from, 32);
  for (let i = last + 1; (i & 15) != 0; i++) {
    place(lastGroup, i & 15, start, len, k);
  }
  for (let g = LEFT; g <= lastGroup; g += BUCKET_BYTES) {
    const first = <usize> load<u32>(g, 16);
    const final = <usize> load<u32>(g + QUAD_BYTES * 3, 28);
    if (first == final) hashGroupSame(g, first);
    else hashGroupMixed(g);
  }
}
