/**
 * Decoding file bytes as text, refusing what is not (docs/reads.md "Text").
 *
 * @module
 */
import { invalidUtf8At } from "../_internal/utf8.ts";
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
    const at = Math.max(0, invalidUtf8At(bytes));
    throw new BinaryContentError(
      `${name} is not valid UTF-8 (an ill-formed sequence starts at byte offset ${at}): it is binary or in another encoding; convert it to UTF-8 first.`,
      at,
    );
  }
}
