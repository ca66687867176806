/**
 * Decoding file bytes as text, refusing what is not (docs/reads.md "Text").
 *
 * @module
 */
import { decodeUtf8 } from "../_internal/utf8.ts";
import { BinaryContentError } from "../errors.ts";
import { NUL_WINDOW } from "../fs/text.ts";

/**
 * Decodes UTF-8 bytes, refusing invalid sequences and a NUL byte in the
 * first 8 KiB, with the byte offset named.
 *
 * @param bytes File bytes.
 * @param name How to name the file in messages.
 * @throws {BinaryContentError} Not UTF-8 text.
 */
export function sourceText(bytes: Uint8Array, name: string): string {
  return decodeUtf8(bytes, ({ offset, nul }) =>
    new BinaryContentError(
      nul
        ? `${name} holds a NUL byte at byte offset ${offset}: it looks binary, and the store takes only text.`
        : `${name} is not valid UTF-8 (an ill-formed sequence starts at byte offset ${offset}): it is binary or in another encoding; convert it to UTF-8 first.`,
      offset,
    ), { nulWindow: NUL_WINDOW });
}
