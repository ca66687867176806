/**
 * The text check of docs/reads.md "Text": content must be UTF-8 with no NUL byte in its
 * first 8 KiB. One well-formedness pass (which skips ASCII a word at a time)
 * finds the offset of a bad byte, then the native decoder decodes.
 *
 * @module
 */
import { decodeUtf8, type TextFault } from "../_internal/utf8.ts";
import { BinaryContentError } from "../errors.ts";

/** How far into a file a NUL byte marks it as binary. */
export const NUL_WINDOW = 8192;

/** The refusal for a file that is not text. */
function notTextError(path: string, f: TextFault): BinaryContentError {
  const why = f.nul
    ? `a NUL byte at offset ${f.offset} (it looks binary)`
    : `a byte at offset ${f.offset} that is not valid UTF-8 (binary, or another encoding)`;
  return new BinaryContentError(
    `Cannot use "${path}" as text: it has ${why}. Only UTF-8 text files can be read or patched.`,
    f.offset,
  );
}

/** Throws the refusal for a file that is not text. */
export function notText(path: string, offset: number, nul: boolean): never {
  throw notTextError(path, { offset, nul });
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
 * The lines of a stretch of a file's bytes that holds `count` whole lines
 * (the last may be unterminated): decoded as UTF-8 (a BOM, if any, is kept
 * as U+FEFF), invalid sequences refused with the offset of the bad byte,
 * and each line without its `\n` or `\r\n`.
 *
 * @param path Shown in the refusal.
 * @param bytes The bytes.
 * @param base File offset of `bytes[0]`, for the refusal.
 * @param count How many lines the bytes hold; 0 decodes nothing.
 */
export function windowLines(
  path: string,
  bytes: Uint8Array,
  base: number,
  count: number,
): string[] {
  if (count === 0) return [];
  const text = decodeUtf8(bytes, (f) => notTextError(path, f), { base });
  const lines: string[] = [];
  let pos = 0;
  for (let k = 0; k < count; k++) {
    const nl = text.indexOf("\n", pos);
    const stop = nl < 0 ? text.length : nl;
    const end = nl >= 0 && stop > pos && text.charCodeAt(stop - 1) === 13
      ? stop - 1
      : stop;
    lines.push(text.slice(pos, end));
    pos = stop + 1;
  }
  return lines;
}

/**
 * Decodes a whole file, refusing it at the first NUL byte in its first 8 KiB
 * or the first invalid UTF-8 sequence, whichever comes first.
 *
 * @param path Shown in the refusal.
 * @param bytes The file's bytes.
 */
export function fileText(path: string, bytes: Uint8Array): string {
  return decodeUtf8(bytes, (f) => notTextError(path, f), {
    nulWindow: NUL_WINDOW,
  });
}
