/**
 * The pure TypeScript line scanner: the twin of the Wasm engine, used where
 * Wasm is not allowed or when `HASHLINE_ENGINE=ts`. It walks the bytes once
 * as a small state machine (an unfinished UTF-8 sequence or a CR waiting for
 * its LF carries over to the next chunk) and gives the same hashes, ends and
 * offsets as the Wasm engine for any input and any chunking.
 *
 * Ill-formed UTF-8 hashes deterministically: at a position where no
 * well-formed sequence starts, the byte there counts as the code point equal
 * to its value and decoding moves on by one byte.
 *
 * @module
 */
import { BatchBuffer, KEEP_ENDS, KEEP_FOLDS, KEEP_HASHES } from "./_batch.ts";
import type { HashEngine } from "./types.ts";
import { ScannerBase } from "./_scanner.ts";

const BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

/** Sequence length announced by a byte >= 0x80, or 0 when it cannot lead one. */
function seqLen(lead: number): number {
  if (lead < 0xc2) return 0;
  if (lead < 0xe0) return 2;
  if (lead < 0xf0) return 3;
  return lead < 0xf5 ? 4 : 0;
}

/**
 * `h` with the `len` bytes packed in `pend` (first byte lowest) hashed one
 * by one, each as the code point of its value: a sequence cut short by a
 * byte that cannot go on it, or by the input's end.
 */
function cutShort(h: number, pend: number, len: number): number {
  for (let k = 0; k < len; k++) {
    h = Math.imul(h ^ ((pend >>> (k << 3)) & 0xff), PRIME);
  }
  return h;
}

/**
 * A {@link LineScanner} in plain TypeScript.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TsLineScanner } from "./scan_ts.ts";
 * const scanner = new TsLineScanner();
 * const first = scanner.push(new TextEncoder().encode("a\r\nb"));
 * assert.equal(first.count, 1);
 * assert.equal(first.ends[0], 3);
 * const last = scanner.end();
 * assert.equal(last.count, 1);
 * assert.equal(last.hashes[0].toString(16), "e70c2de5");
 * ```
 */
export class TsLineScanner extends ScannerBase {
  /** Always `"ts"`. */
  readonly engine: HashEngine = "ts";
  #hashing: boolean;
  #h = BASIS;
  #open = false;
  #cr = false;
  #pend = 0;
  #pendLen = 0;
  #pendNeed = 0;
  #pendAt = 0;
  #lo = 0x80;
  #hi = 0xbf;

  /**
   * Creates a scanner for one input.
   *
   * @param hash When false, only line ends and validity are tracked (hashes read as 0).
   * @param out Where batches are gathered (a fresh buffer by default); its
   *   `keep` bits say which per-line arrays are filled.
   */
  constructor(hash = true, out: BatchBuffer = new BatchBuffer()) {
    super(out);
    this.#hashing = hash;
  }

  /** Scans one piece of input (see {@link ScannerBase}). */
  protected scan(bytes: Uint8Array, final: boolean): void {
    const out = this.out;
    const hashing = this.#hashing;
    const base = this.seen;
    const n = bytes.length;
    const keepHashes = (out.keep & KEEP_HASHES) !== 0;
    const keepEnds = (out.keep & KEEP_ENDS) !== 0;
    const keepFolds = (out.keep & KEEP_FOLDS) !== 0;
    let hashes = out.hashes;
    let ends = out.ends;
    let folds = out.folds;
    let room = out.capacity;
    let count = 0;
    let h = this.#h;
    let open = this.#open;
    let cr = this.#cr;
    let pend = this.#pend;
    let pendLen = this.#pendLen;
    let pendNeed = this.#pendNeed;
    let pendAt = this.#pendAt;
    let lo = this.#lo;
    let hi = this.#hi;
    let invalidAt = this.invalid;
    let nulAt = this.nul;
    let i = 0;
    for (;;) {
      let lineEnd = -1;
      if (i < n) {
        let b = bytes[i];
        if (pendLen !== 0) {
          if (b >= lo && b <= hi) {
            pend |= b << (pendLen << 3);
            pendLen++;
            lo = 0x80;
            hi = 0xbf;
            i++;
            if (pendLen === pendNeed) {
              pendLen = 0;
              let cp: number;
              if (pendNeed === 2) {
                cp = ((pend & 0x1f) << 6) | ((pend >>> 8) & 0x3f);
              } else if (pendNeed === 3) {
                cp = ((pend & 0x0f) << 12) | (((pend >>> 8) & 0x3f) << 6) |
                  ((pend >>> 16) & 0x3f);
              } else {
                cp = ((pend & 0x07) << 18) | (((pend >>> 8) & 0x3f) << 12) |
                  (((pend >>> 16) & 0x3f) << 6) | ((pend >>> 24) & 0x3f);
              }
              if (cp === 0xfeff && pendAt === 0) this.bom = true;
              else {
                open = true;
                if (hashing) {
                  h = Math.imul(h ^ (cp & 0xff), PRIME);
                  if (cp > 0xff) {
                    h = Math.imul(h ^ ((cp >>> 8) & 0xff), PRIME);
                    if (cp > 0xffff) h = Math.imul(h ^ (cp >>> 16), PRIME);
                  }
                }
              }
            }
            continue;
          }
          if (invalidAt < 0) invalidAt = pendAt;
          open = true;
          if (hashing) h = cutShort(h, pend, pendLen);
          pendLen = 0;
        }
        if (cr) {
          cr = false;
          if (b === 0x0a) {
            i++;
            lineEnd = base + i;
          } else if (hashing) h = Math.imul(h ^ 0x0d, PRIME);
        }
        if (lineEnd < 0) {
          if (b > 0x0d && b < 0x80) {
            open = true;
            if (hashing) {
              for (;;) {
                h = Math.imul(h ^ b, PRIME);
                if (++i === n) break;
                b = bytes[i];
                if (b <= 0x0d || b >= 0x80) break;
              }
            } else {
              for (;;) {
                if (++i === n) break;
                b = bytes[i];
                if (b <= 0x0d || b >= 0x80) break;
              }
            }
            continue;
          }
          i++;
          if (b === 0x0a) lineEnd = base + i;
          else if (b === 0x0d) {
            cr = true;
            open = true;
            continue;
          } else if (b < 0x80) {
            if (b === 0 && nulAt < 0) nulAt = base + i - 1;
            open = true;
            if (hashing) h = Math.imul(h ^ b, PRIME);
            continue;
          } else {
            pendNeed = seqLen(b);
            if (pendNeed === 0) {
              if (invalidAt < 0) invalidAt = base + i - 1;
              open = true;
              if (hashing) h = Math.imul(h ^ b, PRIME);
            } else {
              pend = b;
              pendLen = 1;
              pendAt = base + i - 1;
              lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
              hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
            }
            continue;
          }
        }
      } else {
        if (!final) break;
        if (pendLen !== 0) {
          if (invalidAt < 0) invalidAt = pendAt;
          open = true;
          if (hashing) h = cutShort(h, pend, pendLen);
          pendLen = 0;
        }
        if (cr) {
          cr = false;
          if (hashing) h = Math.imul(h ^ 0x0d, PRIME);
        }
        if (!open) break;
        lineEnd = base + n;
        final = false;
      }
      if (count === room) {
        out.count = count;
        out.reserve(1);
        hashes = out.hashes;
        ends = out.ends;
        folds = out.folds;
        room = out.capacity;
      }
      if (keepHashes) hashes[count] = hashing ? h >>> 0 : 0;
      if (keepEnds) ends[count] = lineEnd;
      if (keepFolds) folds[count] = h ^ (h >>> 8) ^ (h >>> 16) ^ (h >>> 24);
      count++;
      h = BASIS;
      open = false;
    }
    out.count = count;
    this.#h = h;
    this.#open = open;
    this.#cr = cr;
    this.#pend = pend;
    this.#pendLen = pendLen;
    this.#pendNeed = pendNeed;
    this.#pendAt = pendAt;
    this.#lo = lo;
    this.#hi = hi;
    this.invalid = invalidAt;
    this.nul = nulAt;
    this.seen = base + n;
    this.lines += count;
  }
}
