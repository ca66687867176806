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
