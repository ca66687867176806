/**
 * The embedded revision store: a folder that several processes (CLI calls
 * and a running server) share safely.
 *
 * @module
 */
import { resolve } from "node:path";
import { StoreCore } from "./_core.ts";
import { FileBackend } from "./_file_backend.ts";
import type { RevisionStore } from "./types.ts";

/**
 * Opens the revision store kept in a folder (created on first use, with
 * `objects/`, `handles/` and `tmp/` inside). Objects and handles are written
 * to a temp file, flushed and published with a hard link, so a crash or a
 * second writer never leaves half an object or a moved handle; every read
 * re-hashes. Nothing is ever deleted or rewritten.
 *
 * Returns at once; the folder is prepared by the first call.
 *
 * @param dir The store folder (the CLI uses `.hashline/` in the working folder, or `HASHLINE_STORE`).
 * @returns A store with the same behaviour as the memory and PostgreSQL stores.
 * @throws {TypeError} `dir` is not a non-empty string.
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtemp, rm } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { openFileStore } from "./file_store.ts";
 *
 * const dir = await mkdtemp(join(tmpdir(), "hashline-store-"));
 * const store = openFileStore(dir);
 * const { handle } = await store.put("let a = 1;\nlet b = 2;\n");
 * const next = await store.edit(handle, [{ oldString: "b = 2", newString: "b = 3" }]);
 * assert.equal(await store.get(next.handle), "let a = 1;\nlet b = 3;\n");
 * assert.equal(await store.get(handle), "let a = 1;\nlet b = 2;\n");
 * assert.deepEqual((await store.history(next.ref)).map((h) => h.op), ["edit", "put"]);
 * await store.close();
 * await rm(dir, { recursive: true, force: true });
 * ```
 */
export function openFileStore(dir: string): RevisionStore {
  if (typeof dir !== "string" || dir === "") {
    throw new TypeError(
      `openFileStore needs the store folder as a non-empty path, got ${
        JSON.stringify(dir)
      }.`,
    );
  }
  return new StoreCore(new FileBackend(resolve(dir)), {
    stateDir: resolve(dir),
  });
}
