/**
 * Decoding file bytes as text, refusing what is not (docs/reads.md "Text").
 *
 * @module
 */
import { BinaryContentError } from "../errors.ts";

const NUL_WINDOW = 8192;

/**
 * Decodes UTF-8 bytes, refusing invalid sequences and a NUL byte in the
 * first 8 KiB, with the byte offset named.
 *
 * @param bytes File bytes.
 * @param name How to name the file in messages.
 * @throws {BinaryContentError} Not UTF-8 text.
 */
export function decodeText(bytes: Uint8Array, name: string): string {
  const nul = bytes.subarray(0, NUL_WINDOW).indexOf(0);
  if (nul !== -1) {
    throw new BinaryContentError(
      `${name} holds a NUL byte at byte offset ${nul}: it looks binary, and the store takes only text.`,
      nul,
    );
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      bytes,
    );
  } catch {
    const at = invalidUtf8At(bytes);
    throw new BinaryContentError(
      `${name} is not valid UTF-8 (bad byte at offset ${at}): it is binary or in another encoding; convert it to UTF-8 first.`,
      at,
    );
  }
}

/**
 * Offset of the first byte that does not start or continue a valid UTF-8
 * sequence, or -1 when every byte does.
 *
 * @param b Bytes to check.
 */
export function invalidUtf8At(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined) return i;
      if (k === 1 ? d < lo || d > hi : d < 0x80 || d > 0xbf) return i + k;
    }
    i += need + 1;
  }
  return -1;
}
