/**
 * The revision store (docs/store.md): sources stored once, content-addressed
 * (`sha256:…`), reached by short handles (`p_…`), read in bounded windows,
 * and edited into new revisions that never overwrite. Three backends with
 * one behaviour: {@link openFileStore} (the embedded default),
 * {@link createMemoryStore} (bounded) and {@link openPostgresStore} (shared
 * by many servers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemoryStore } from "./mod.ts";
 *
 * const store = createMemoryStore();
 * const base = await store.put("function add(a, b) {\n  return a - b;\n}\n");
 * const fixed = await store.edit(base.handle, [{ oldString: "a - b", newString: "a + b" }]);
 * assert.equal(fixed.parentRef, base.ref);
 * assert.match(fixed.diff, /^-  return a - b;$/m);
 * const hit = await store.source(fixed.handle, { query: "return" });
 * assert.equal(hit.found, true);
 * assert.match(hit.code, /return a \+ b/);
 * await store.close();
 * ```
 *
 * @module
 */
export type * from "./types.ts";
// The syntax check's option and answer, which the options and results name.
export type { CheckMode, SyntaxCheck, SyntaxIssue } from "../check/mod.ts";
export { openFileStore } from "./file_store.ts";
export { createMemoryStore, type MemoryStoreOptions } from "./memory_store.ts";
export {
  openPostgresStore,
  type PostgresStoreOptions,
} from "./postgres_store.ts";
export {
  DEFAULT_MEMORY_BYTES,
  DEFAULT_SOURCE_LIMIT,
  HANDLE_HEX,
  HANDLE_STEP,
  MAX_DIFF_CHARS,
  MAX_SOURCE_BYTES,
  MAX_SOURCE_LIMIT,
} from "./limits.ts";
