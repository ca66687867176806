// From newline positions to hashed lines. Line 0 of a chunk continues the
// previous chunk and is hashed by the caller; here come lines 1..count-1.
//
// Lines of one length go together: each waits in the bucket for its length
// until thirty-two are ready, then they are hashed sixteen at once with no
// lane left idle (lanes.ts). The chunk is filed piece by piece as the
// newline scan finds line ends, while its bytes are still in cache. At the end of the chunk the lines still waiting, and
// lines of BUCKETS bytes or more, are sorted by length and hashed sixteen at
// a time, lanes that run out early keeping their hash (or, where lengths
// differ too much for that to pay, four at a time by scalar chains). Lines
// holding a byte >= 0x80 (the newline scan lists where those are) are
// decoded one by one by the scalar UTF-8 path.

import { hashGroupMixed, hashGroupSame } from "./lanes";
import {
  BUCKET,
  BUCKETS,
  FILL,
  GROUP_BYTES,
  GROUP_LANES,
  GROUP_LENS,
  HASHES,
  HIGHS,
  LEFT,
  LONGS,
  NLPOS,
  SLOT_BYTES,
} from "./layout";
import { highCount } from "./newlines";
import { BASIS, hashUtf8, PRIME } from "./utf8";

// Every bucket starts empty.
for (let len: usize = 0; len < <usize> BUCKETS; len++) {
  store<u32>(FILL + (len << 2), <u32> (BUCKET + (len << 8)));
}

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

let longs: usize = 0;

/**
 * Hashes or files away line k, [from, end), when the quick path cannot:
 * it may hold non-ASCII, be long, or fill its bucket.
 */
function fileLine(k: usize, from: usize, end: usize): void {
  const len = end - from;
  if (len >= <usize> BUCKETS) {
    const at = LONGS + longs * 12;
    store<u32>(at, <u32> from);
    store<u32>(at, <u32> len, 4);
    store<u32>(at, <u32> k, 8);
    longs++;
    return;
  }
  const fill = FILL + (len << 2);
  let slot = <usize> load<u32>(fill);
  store<u32>(slot, <u32> from);
  store<u32>(slot, <u32> k, 4);
  slot += SLOT_BYTES;
  if ((slot & 255) == 0) {
    slot -= 256;
    hashGroupSame(slot, len);
    hashGroupSame(slot + 128, len);
  }
  store<u32>(fill, <u32> slot);
}

// Where hashing stands in the chunk: the next line to file and where it
// begins (valid once the first line end is known).
let next: usize = 1;
let lineStart: usize = 0;

/** Starts hashing a new chunk. */
export function startLines(): void {
  highAt = 0;
  longs = 0;
  next = 1;
  lineStart = <usize> -1;
}

/**
 * Files (and hashes, as their groups fill) lines next..count-1 of the
 * chunk; the scan must have found `count` line ends so far.
 */
export function hashLines(count: usize): void {
  if (count == 0) return;
  if (lineStart == <usize> -1) lineStart = <usize> load<u32>(NLPOS) + 1;
  // Later pieces of the scan may have listed more blocks with high bytes.
  let high = nextHigh();
  let start = lineStart;
  let k = next;
  while (k < count) {
    // The quick path: no calls inside, so the compiler keeps its values in
    // registers. It stops at a line it cannot file on its own.
    let nl: usize = 0;
    let end: usize = 0;
    for (; k < count; k++) {
      nl = <usize> load<u32>(NLPOS + (k << 2));
      // The byte before an empty line is the previous LF, never CR.
      end = nl - <usize> (load<u8>(nl - 1) == 0x0d);
      const len = end - start;
      if (high < end || len >= <usize> BUCKETS) break;
      const fill = FILL + (len << 2);
      const slot = <usize> load<u32>(fill);
      if (((slot + SLOT_BYTES) & 255) == 0) break;
      store<u32>(slot, <u32> start);
      store<u32>(slot, <u32> k, 4);
      store<u32>(fill, <u32> (slot + SLOT_BYTES));
      start = nl + 1;
    }
    if (k == count) break;
    if (high < end) {
      const wide = touchesHigh(start, end);
      high = nextHigh();
      if (wide) store<u32>(HASHES + (k << 2), hashUtf8(BASIS, start, end));
      else fileLine(k, start, end);
    } else {
      fileLine(k, start, end);
    }
    start = nl + 1;
    k++;
  }
  next = k;
  lineStart = start;
}

/** Hashes the lines still waiting at the end of the chunk. */
export function finishLines(): void {
  hashLeftovers(longs);
}

/** Puts a line in slot `n` of the leftover groups. */
function leave(n: usize, start: u32, len: u32, k: u32): void {
  const g = LEFT + (n / <usize> GROUP_LANES) * GROUP_BYTES;
  const slot = n % <usize> GROUP_LANES;
  store<u32>(g + slot * SLOT_BYTES, start);
  store<u32>(g + slot * SLOT_BYTES, k, 4);
  store<u32>(g + GROUP_LENS + (slot << 2), len);
}

/** Hashes what the buckets still hold, then the long lines, in length order. */
function hashLeftovers(longs: usize): void {
  let n: usize = 0;
  for (let len: usize = 0; len < <usize> BUCKETS; len++) {
    const fill = FILL + (len << 2);
    const bucket = BUCKET + (len << 8);
    const end = <usize> load<u32>(fill);
    for (let slot = bucket; slot < end; slot += SLOT_BYTES) {
      leave(n++, load<u32>(slot), <u32> len, load<u32>(slot, 4));
    }
    store<u32>(fill, <u32> bucket);
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
    const at = LONGS + i * 12;
    leave(n++, load<u32>(at), load<u32>(at, 4), load<u32>(at, 8));
  }
  if (n == 0) return;
  // Fill the last group with copies of its last line.
  const last = n - 1;
  const lastGroup = LEFT + (last / <usize> GROUP_LANES) * GROUP_BYTES;
  const lastSlot = last % <usize> GROUP_LANES;
  const start = load<u32>(lastGroup + lastSlot * SLOT_BYTES);
  const k = load<u32>(lastGroup + lastSlot * SLOT_BYTES, 4);
  const len = load<u32>(lastGroup + GROUP_LENS + (lastSlot << 2));
  while (n % <usize> GROUP_LANES != 0) leave(n++, start, len, k);
  const lastLen = GROUP_LENS + ((<usize> GROUP_LANES - 1) << 2);
  for (let g = LEFT; g <= lastGroup; g += GROUP_BYTES) {
    const first = <usize> load<u32>(g + GROUP_LENS);
    const longest = <usize> load<u32>(g + lastLen);
    if (first == longest) {
      hashGroupSame(g, first);
      continue;
    }
    // Lanes idle once their line ends: when they would idle most of the
    // time (a few long lines of very different lengths), scalar chains do
    // better.
    const real = g == lastGroup ? lastSlot + 1 : <usize> GROUP_LANES;
    let sum: usize = 0;
    for (let i: usize = 0; i < real; i++) {
      sum += <usize> load<u32>(g + GROUP_LENS + (i << 2));
    }
    if (sum * 2 >= longest * <usize> GROUP_LANES) hashGroupMixed(g);
    else hashScalar(g, real);
  }
}

function fnvRange(h: u32, p: usize, end: usize): u32 {
  for (; p < end; p++) h = (h ^ <u32> load<u8>(p)) * PRIME;
  return h;
}

/**
 * Hashes the first `count` lines of group `g` (ASCII, lengths after the
 * slots) with four scalar chains side by side, into HASHES.
 */
function hashScalar(g: usize, count: usize): void {
  let i: usize = 0;
  for (; i + 4 <= count; i += 4) {
    const at = g + i * SLOT_BYTES;
    const lens = g + GROUP_LENS + (i << 2);
    const p0 = <usize> load<u32>(at);
    const p1 = <usize> load<u32>(at, 8);
    const p2 = <usize> load<u32>(at, 16);
    const p3 = <usize> load<u32>(at, 24);
    const l0 = <usize> load<u32>(lens);
    const l1 = <usize> load<u32>(lens, 4);
    const l2 = <usize> load<u32>(lens, 8);
    const l3 = <usize> load<u32>(lens, 12);
    const common = min(min(l0, l1), min(l2, l3));
    let h0 = BASIS;
    let h1 = BASIS;
    let h2 = BASIS;
    let h3 = BASIS;
    for (let j: usize = 0; j < common; j++) {
      h0 = (h0 ^ <u32> load<u8>(p0 + j)) * PRIME;
      h1 = (h1 ^ <u32> load<u8>(p1 + j)) * PRIME;
      h2 = (h2 ^ <u32> load<u8>(p2 + j)) * PRIME;
      h3 = (h3 ^ <u32> load<u8>(p3 + j)) * PRIME;
    }
    store<u32>(
      HASHES + (<usize> load<u32>(at, 4) << 2),
      fnvRange(h0, p0 + common, p0 + l0),
    );
    store<u32>(
      HASHES + (<usize> load<u32>(at, 12) << 2),
      fnvRange(h1, p1 + common, p1 + l1),
    );
    store<u32>(
      HASHES + (<usize> load<u32>(at, 20) << 2),
      fnvRange(h2, p2 + common, p2 + l2),
    );
    store<u32>(
      HASHES + (<usize> load<u32>(at, 28) << 2),
      fnvRange(h3, p3 + common, p3 + l3),
    );
  }
  for (; i < count; i++) {
    const at = g + i * SLOT_BYTES;
    const p = <usize> load<u32>(at);
    const len = <usize> load<u32>(g + GROUP_LENS + (i << 2));
    store<u32>(
      HASHES + (<usize> load<u32>(at, 4) << 2),
      fnvRange(BASIS, p, p + len),
    );
  }
}
