/**
 * The revision store in PostgreSQL, for teams and servers on many machines.
 *
 * @module
 */
import { StoreCore } from "./_core.ts";
import { PgBackend } from "./_pg_backend.ts";
import type { RevisionStore } from "./types.ts";

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  /** Schema holding the store's tables (default `public`; created when missing). */
  schema?: string;
  /** Most connections kept open (default 10). */
  max?: number;
}

/**
 * Opens the revision store kept in a PostgreSQL database (11 or newer), with
 * the same behaviour as the file and memory stores. The tables
 * (`hashline_objects`, `hashline_handles`) are created on first use, safely
 * when several servers start at once. The database itself refuses a row
 * whose ref does not match its bytes, refuses updates and deletes, and gives
 * each ref one handle however many servers race to store it.
 *
 * Returns at once; the first call connects. Call `close()` to end the connections.
 *
 * @param url Connection URL, e.g. `postgres://user:pass@db.internal:5432/app`.
 * @param options Schema and pool size.
 * @returns The store.
 * @throws {TypeError} An empty URL or a schema that is not a plain SQL name.
 * @example
 * ```ts ignore
 * import { openPostgresStore } from "@hashline/kit/store";
 * const store = openPostgresStore("postgres://hashline@127.0.0.1:5432/app", { schema: "hashline" });
 * const { handle } = await store.put("export const answer = 42;\n");
 * console.log(await store.source(handle, { query: "answer" }));
 * await store.close();
 * ```
 */
export function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): RevisionStore {
  return new StoreCore(new PgBackend(url, options));
}
