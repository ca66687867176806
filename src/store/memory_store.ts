/**
 * A revision store held in memory, bounded in bytes.
 *
 * @module
 */
import { StoreCore } from "./_core.ts";
import { MemoryBackend } from "./_memory_backend.ts";
import { DEFAULT_MEMORY_BYTES } from "./limits.ts";
import type { RevisionStore } from "./types.ts";

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Most bytes of sources held (UTF-8; default 64 MiB). */
  maxBytes?: number;
}

/**
 * Creates a revision store in memory. It keeps at most `maxBytes` of
 * sources; a put past that is refused (nothing is evicted, so a handle
 * stays valid as long as the store lives).
 *
 * @param options `maxBytes`: the bound (default 64 MiB).
 * @returns A store with the same behaviour as the file and PostgreSQL stores.
 * @throws {RangeError} `maxBytes` is not a positive whole number.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "./memory_store.ts";
 * const store = createMemoryStore({ maxBytes: 1024 });
 * const { ref, handle } = await store.put("const x = 1;\n");
 * assert.match(ref, /^sha256:[0-9a-f]{64}$/);
 * assert.equal(handle, "p_" + ref.slice(7, 19));
 * assert.equal(await store.get(handle), "const x = 1;\n");
 * await assert.rejects(store.put("y".repeat(2000)), { code: "TOO_LARGE" });
 * await store.close();
 * ```
 */
export function createMemoryStore(
  options: MemoryStoreOptions = {},
): RevisionStore {
  const maxBytes = options.maxBytes ?? DEFAULT_MEMORY_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RangeError(
      `maxBytes must be a positive whole number of bytes, got ${maxBytes}.`,
    );
  }
  return new StoreCore(new MemoryBackend(maxBytes));
}
