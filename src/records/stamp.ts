/**
 * A file's stamp (docs/patch-format.md#drift): its size and content hash as
 * a session last read or wrote it, so a later patch of the unchanged file
 * needs no alignment.
 *
 * @module
 */

/**
 * The stamp of a file's bytes: `SIZE:HEX`, the hex being the first 16
 * bytes of their SHA-256.
 *
 * @param bytes The file's whole content.
 * @returns The stamp.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { contentStamp } from "./stamp.ts";
 * assert.match(await contentStamp(new TextEncoder().encode("a\n")), /^2:[0-9a-f]{32}$/);
 * ```
 */
export async function contentStamp(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (let i = 0; i < 16; i++) hex += digest[i].toString(16).padStart(2, "0");
  return `${bytes.length}:${hex}`;
}
