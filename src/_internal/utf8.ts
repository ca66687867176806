/**
 * The one UTF-8 well-formedness check (the Unicode standard's table of
 * well-formed byte sequences): files, revisions, patch bytes and request
 * bodies are all judged by it, so every door names the same offset.
 *
 * @module
 */

/**
 * Offset of the first byte that starts an ill-formed UTF-8 sequence, or -1.
 * A sequence cut off by the end of `bytes` counts as ill-formed unless
 * `partialEnd` is set.
 */
export function invalidUtf8At(bytes: Uint8Array, partialEnd = false): number {
  const n = bytes.length;
  // Runs of ASCII are skipped four bytes per step where the bytes are aligned
  // for a word view: source text is mostly ASCII.
  const words = (bytes.byteOffset & 3) === 0 && n >= 64
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, n >>> 2)
    : null;
  let i = 0;
  while (i < n) {
    if (words !== null && (i & 3) === 0) {
      let w = i >>> 2;
      while (w < words.length && (words[w] & 0x80808080) === 0) w++;
      i = w << 2;
      if (i >= n) break;
    }
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return partialEnd ? -1 : i;
      const c = bytes[i + k];
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Bytes `text` takes as UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes),
 * counted without encoding it.
 *
 * @param text The text.
 * @returns Its UTF-8 length in bytes.
 */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}

/** Where and why bytes are not text: an ill-formed sequence, or a NUL byte. */
export interface TextFault {
  /** Offset of the bad byte (from `base`). */
  offset: number;
  /** Whether it is a NUL byte (else: not valid UTF-8). */
  nul: boolean;
}

const loose = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The one UTF-8 decoder: refuses ill-formed sequences (and, with
 * `nulWindow`, a NUL byte in the first bytes of a file), whichever comes
 * first, with the offset named; a BOM is kept as U+FEFF. Bytes are checked
 * by {@link invalidUtf8At} (a word-at-a-time pass over ASCII), then decoded
 * without the fatal flag, which runs about twice as fast.
 *
 * @param bytes The bytes.
 * @param refuse Builds the error to throw for a fault.
 * @param options `base` (offset of `bytes[0]` in its file) and `nulWindow` (how far into the file a NUL byte marks it binary; 0 for no check).
 * @returns The text.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeUtf8 } from "./utf8.ts";
 * const refuse = (f: { offset: number }) => new TypeError(`bad at ${f.offset}`);
 * assert.equal(decodeUtf8(new Uint8Array([104, 105]), refuse), "hi");
 * assert.throws(() => decodeUtf8(new Uint8Array([104, 0xff]), refuse), /bad at 1/);
 * ```
 */
export function decodeUtf8(
  bytes: Uint8Array,
  refuse: (fault: TextFault) => Error,
  options: { base?: number; nulWindow?: number } = {},
): string {
  const base = options.base ?? 0;
  const window = options.nulWindow ?? 0;
  const nul = base < window ? bytes.subarray(0, window - base).indexOf(0) : -1;
  const bad = invalidUtf8At(bytes);
  if (bad >= 0 && (nul < 0 || bad < nul)) {
    throw refuse({ offset: base + bad, nul: false });
  }
  if (nul >= 0) throw refuse({ offset: base + nul, nul: true });
  return loose.decode(bytes);
}
