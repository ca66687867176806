// Fixed memory layout. Everything lives at constant addresses above the
// compiler's static data, sized for the largest chunk once, so the host
// never grows memory per file and keeps reusing warm pages.

/** Largest chunk the host may place at IN in one call. */
export const CAPACITY: usize = 1 << 20;
/** Most lines one chunk can complete (every byte a newline, plus the last line). */
export const MAX_LINES: usize = CAPACITY + 8;

/** Bytes of the per-scanner state block (the host saves and restores it). */
export const STATE_BYTES: usize = 32;
/** Per-scanner state: see the field offsets below. */
export const STATE: usize = 0x10000;
export const S_HASH: usize = 0; // FNV state of the line in progress
export const S_FLAGS: usize = 4; // F_* bits
export const S_CARRY_LEN: usize = 8; // undecided bytes held back (0..3)
export const S_CARRY: usize = 12; // those bytes, low byte first
export const S_INVALID: usize = 16; // per call: first ill-formed offset, chunk-relative, or NONE
export const S_NUL: usize = 20; // per call: first NUL offset, chunk-relative, or NONE

export const F_OPEN: u32 = 1; // a line has begun and not ended
export const F_AT_START: u32 = 2; // no byte decided yet (a BOM may still come)
export const F_BOM: u32 = 4; // the input began with EF BB BF
export const F_NUL_SEEN: u32 = 8; // a NUL was reported by an earlier call
export const F_INVALID_SEEN: u32 = 16; // an ill-formed sequence was reported earlier

/** "Not found" in the per-call report fields. */
export const NONE: u32 = 0x80000000;

/** Mode bits of push(). */
export const M_FINAL: u32 = 1; // the chunk ends the input
export const M_HASH: u32 = 2; // compute line hashes
export const M_FOLD: u32 = 4; // also write folded 8-bit anchors
export const M_ENDS: u32 = 8; // write absolute line ends as f64

/** The chunk; up to 16 carried bytes are written just below it. */
export const IN: usize = 0x20000;
/** Slack after the chunk: vector loads may read past its end. */
const IN_SLACK: usize = 0x1000;

/** u32 address of each newline found in the chunk (unconditional group stores spill up to 3 past the count). */
export const NLPOS: usize = IN + CAPACITY + IN_SLACK;
/** u32 full hash of each completed line (the host reads this). */
export const HASHES: usize = NLPOS + (MAX_LINES + 64) * 4;
/** f64 absolute end of each completed line (the host reads this). */
export const ENDS: usize = HASHES + (MAX_LINES + 64) * 4;
/** u8 folded anchor of each completed line (the host reads this). */
export const FOLDS: usize = ENDS + (MAX_LINES + 64) * 8;
/** Blocks of 64 input bytes holding a byte >= 0x80: u32 address, u32 unused, u64 mask. */
export const HIGHS: usize = (FOLDS + MAX_LINES + 64 + 63) & ~63;
const HIGHS_BYTES: usize = (CAPACITY / 64 + 4) * 16;

/** Lines shorter than BUCKETS bytes wait in the bucket for their length until 32 are ready. */
export const BUCKETS: u32 = 512;
/**
 * A group: GROUP_LANES slots of (u32 start, u32 line index), then, for
 * groups of mixed lengths, GROUP_LANES u32 lengths. Lanes 4q..4q+3 form
 * quad q.
 */
export const GROUP_LANES: u32 = 16;
export const SLOT_BYTES: usize = 8;
export const GROUP_LENS: usize = 128;
export const GROUP_BYTES: usize = 192;
/**
 * Bucket b: the slots of two groups (256 bytes), at BUCKET + 256b (256-byte
 * aligned). A bucket is hashed when both groups are full, so filing lines
 * stops for hashing half as often.
 */
export const BUCKET: usize = (HIGHS + HIGHS_BYTES + 255) & ~255;
/** Bytes of one bucket. */
export const BUCKET_BYTES: usize = 256;
/** u32 address of the next free slot of each bucket. */
export const FILL: usize = BUCKET + <usize> BUCKETS * BUCKET_BYTES;
/** Lines of BUCKETS bytes or more (u32 start, length, index each), sorted at the end of a chunk. */
export const LONGS: usize = FILL + <usize> BUCKETS * 4;
const LONGS_MAX: usize = CAPACITY / <usize> BUCKETS + 4;
/** Leftover groups: what the buckets still hold at the end of a chunk, then the long lines. */
export const LEFT: usize = LONGS + LONGS_MAX * 12;
const LEFT_GROUPS: usize =
  (<usize> BUCKETS * (2 * <usize> GROUP_LANES - 1) + LONGS_MAX) /
    <usize> GROUP_LANES + 2;
/** Transposed words of the current sixteen-byte step: word k of quad x at SCRATCH + 64x + 16k. */
export const SCRATCH: usize = (LEFT + LEFT_GROUPS * GROUP_BYTES + 63) & ~63;
/** Write-only slots that keep the hashing rounds in order (see lanes.ts). */
export const PIN: usize = SCRATCH + 256;
/** Constant vectors, loaded where the compilers would otherwise rebuild them in loops. */
export const CONSTS: usize = PIN + 64;
/** What countLines reports: see assembly/count.ts. */
export const COUNTS: usize = CONSTS + 128;
/** The line number formatView is at, as decimal digits. */
export const DIGITS: usize = COUNTS + 32;
/** Bytes free just below OUT, where the host writes what goes before a view. */
export const OUT_HEAD: usize = 32;
/** What formatView writes: JSON string content of a read view (see assembly/format.ts). */
export const OUT: usize = (DIGITS + 16 + OUT_HEAD + 63) & ~63;
/** Room at OUT; a view that needs more is formatted by the host. */
export const OUT_CAP: usize = 8 << 20;
/** A request body, which unescapeBody turns into content at IN (see assembly/body.ts). */
export const BODY: usize = (OUT + OUT_CAP + 63) & ~63;
/** Slack after the body: vector loads may read past its end. */
const BODY_SLACK: usize = 0x1000;
/** u32 address of the backslash of each \n escape of the body's content; bit 31: a \r escape just before it. */
export const BREAKS: usize = BODY + CAPACITY + BODY_SLACK;
/** Most breaks a body of CAPACITY bytes can hold (two bytes each). */
const MAX_BREAKS: usize = CAPACITY / 2 + 8;
/** What unescapeBody reports about the body: see assembly/body.ts. */
export const BODY_INFO: usize = BREAKS + MAX_BREAKS * 4;
/** First byte past the layout. */
export const LAYOUT_END: usize = BODY_INFO + 16;
