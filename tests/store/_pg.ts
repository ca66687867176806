/** Test helpers for the PostgreSQL store: the URL, fresh schemas, and an admin connection. */
import process from "node:process";
import postgres from "postgres";

/** The test database, or undefined when none is configured. */
export const PG_URL: string | undefined = process.env.HASHLINE_TEST_PG_URL ||
  undefined;

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const PG_SKIP: string | undefined = PG_URL
  ? undefined
  : 'HASHLINE_TEST_PG_URL is not set; start a cluster with `eval "$(bash scripts/pg_temp.sh start)"` to run the PostgreSQL store tests';

// Bun lists skipped tests without their reason; say it once where every runner shows it.
if (PG_SKIP) console.warn(`PostgreSQL store tests skipped: ${PG_SKIP}.`);

/** A schema name no other test run uses. */
export function freshSchema(): string {
  const r = crypto.getRandomValues(new Uint8Array(6));
  return "hashline_t_" +
    Array.from(r, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Runs statements on a short-lived connection. */
export async function admin<T>(
  fn: (sql: postgres.Sql) => Promise<T>,
): Promise<T> {
  const sql = postgres(PG_URL!, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** Drops a test schema and everything in it. */
export function dropSchema(schema: string): Promise<void> {
  return admin(async (sql) => {
    await sql.unsafe(`drop schema if exists "${schema}" cascade`);
  });
}
