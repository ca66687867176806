/**
 * A file's stamp (docs/patch-format.md#drift): its size and content hash as
 * a session last read or wrote it, so a later patch of the unchanged file
 * needs no alignment.
 *
 * @module
 */
import { toHex } from "../_internal/bytes.ts";
import { sha256 } from "../_internal/sha256.ts";

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
  return `${bytes.length}:${toHex(await sha256(bytes), 16)}`;
}

/**
 * The stamp of a file by its identity (`id:DEV:INO:SIZE:CTIME`), for files
 * read by streaming, whose bytes are never held whole: the change time moves
 * with every write and cannot be set back.
 *
 * @param id The file's identity (device, inode, size, change time).
 * @returns The stamp.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { identityStamp } from "./stamp.ts";
 * assert.equal(identityStamp({ dev: 1, ino: 2, size: 3, ctimeMs: 4 }), "id:1:2:3:4");
 * ```
 */
export function identityStamp(
  id: { dev: number; ino: number; size: number; ctimeMs: number },
): string {
  return `id:${id.dev}:${id.ino}:${id.size}:${id.ctimeMs}`;
}

/**
 * Whether a file still has the stamp a record holds: by identity for an
 * `id:` stamp, else by size and content hash.
 *
 * @param stamp The recorded stamp, if any.
 * @param id The file's identity now.
 * @param bytes Its content now, when held whole.
 * @returns True only when the file is known unchanged.
 */
export async function stillStamped(
  stamp: string | undefined,
  id: { dev: number; ino: number; size: number; ctimeMs: number },
  bytes?: Uint8Array,
): Promise<boolean> {
  if (stamp === undefined) return false;
  if (stamp.startsWith("id:")) return stamp === identityStamp(id);
  return bytes !== undefined && stamp === await contentStamp(bytes);
}
