/**
 * The store's fixed limits (docs/store.md).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MAX_SOURCE_BYTES, MAX_SOURCE_LIMIT } from "./limits.ts";
 * assert.equal(MAX_SOURCE_BYTES, 1024 * 1024);
 * assert.equal(MAX_SOURCE_LIMIT, 16000);
 * ```
 *
 * @module
 */

/** Largest source the store takes, in UTF-8 bytes (1 MiB). */
export const MAX_SOURCE_BYTES: number = 1024 * 1024;

/** Default window of a source read, in UTF-16 units. */
export const DEFAULT_SOURCE_LIMIT: number = 8000;

/** Largest window of a source read, in UTF-16 units. */
export const MAX_SOURCE_LIMIT: number = 16000;

/** Longest diff an edit returns, in chars; longer diffs are cut. */
export const MAX_DIFF_CHARS: number = 8000;

/** Default bound of a memory store, in bytes of stored sources (64 MiB). */
export const DEFAULT_MEMORY_BYTES: number = 64 * 1024 * 1024;

/** Hex digits of a new handle (`p_` + 12 hex). */
export const HANDLE_HEX: number = 12;

/** Hex digits a handle grows by when its prefix is taken. */
export const HANDLE_STEP: number = 4;
