/**
 * The text check of docs/reads.md "Text": content must be UTF-8 with no NUL byte in its
 * first 8 KiB. The native decoder does the fast pass; the offset of a bad
 * byte is only worked out when there is one.
 *
 * @module
 */
import { BinaryContentError } from "../errors.ts";

/** How far into a file a NUL byte marks it as binary. */
export const NUL_WINDOW = 8192;

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Offset of the first byte that starts an ill-formed UTF-8 sequence, or -1.
 * A sequence cut off by the end of `bytes` counts as ill-formed unless
 * `partialEnd` is set.
 */
export function invalidUtf8At(bytes: Uint8Array, partialEnd = false): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
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

/** Throws the refusal for a file that is not text. */
export function notText(path: string, offset: number, nul: boolean): never {
  const why = nul
    ? `a NUL byte at offset ${offset} (it looks binary)`
    : `a byte at offset ${offset} that is not valid UTF-8 (binary, or another encoding)`;
  throw new BinaryContentError(
    `Cannot use "${path}" as text: it has ${why}. Only UTF-8 text files can be read or patched.`,
    offset,
  );
}

/**
 * Refuses bytes holding a NUL in the first 8 KiB of the file.
 *
 * @param bytes Bytes starting at file offset `base`.
 * @param base File offset of `bytes[0]`.
 */
export function checkNul(path: string, bytes: Uint8Array, base = 0): void {
  if (base >= NUL_WINDOW) return;
  const end = Math.min(bytes.length, NUL_WINDOW - base);
  const at = bytes.subarray(0, end).indexOf(0);
  if (at >= 0) notText(path, base + at, true);
}

/**
 * Decodes UTF-8 bytes (a BOM, if any, is kept as U+FEFF), refusing invalid
 * sequences with the offset of the bad byte.
 *
 * @param path Shown in the refusal.
 * @param bytes The bytes.
 * @param base File offset of `bytes[0]`, for the refusal.
 */
export function decodeText(path: string, bytes: Uint8Array, base = 0): string {
  try {
    return fatal.decode(bytes);
  } catch {
    notText(path, base + Math.max(0, invalidUtf8At(bytes)), false);
  }
}

/**
 * Decodes a whole file, refusing it at the first NUL byte in its first 8 KiB
 * or the first invalid UTF-8 sequence, whichever comes first.
 *
 * @param path Shown in the refusal.
 * @param bytes The file's bytes.
 */
export function fileText(path: string, bytes: Uint8Array): string {
  const nul = bytes.subarray(0, NUL_WINDOW).indexOf(0);
  let text: string | undefined;
  try {
    text = fatal.decode(bytes);
  } catch {
    const bad = Math.max(0, invalidUtf8At(bytes));
    if (nul < 0 || bad < nul) notText(path, bad, false);
  }
  if (nul >= 0) notText(path, nul, true);
  return text as string;
}
