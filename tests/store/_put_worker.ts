/**
 * Child process for the concurrency test: puts overlapping sources into a
 * shared store and prints one JSON line per put.
 *
 * Usage: _put_worker.ts file DIR WORKER COUNT HANDLE_HEX
 *        _put_worker.ts pg SCHEMA WORKER COUNT HANDLE_HEX   (URL from HASHLINE_TEST_PG_URL)
 */
import process from "node:process";
import { StoreCore } from "../../src/store/_core.ts";
import { FileBackend } from "../../src/store/_file_backend.ts";
import { PgBackend } from "../../src/store/_pg_backend.ts";

const [kind, where, worker, count, hex] = process.argv.slice(2);
const handleHex = Number(hex);
const backend = kind === "pg"
  ? new PgBackend(process.env.HASHLINE_TEST_PG_URL!, { schema: where, max: 4 })
  : new FileBackend(where);
const store = new StoreCore(backend, { handleHex });

/** The source a worker puts at step i: workers overlap on most of them. */
function sharedSource(n: number): string {
  return `shared source ${n}\n${"line\n".repeat(n % 7)}`;
}

const w = Number(worker);
const lines: string[] = [];
for (let i = 0; i < Number(count); i += 5) {
  const batch = Array.from(
    { length: Math.min(5, Number(count) - i) },
    (_, k) => (w * 11 + i + k) % 60,
  );
  const results = await Promise.all(
    batch.map((n) => store.put(sharedSource(n))),
  );
  results.forEach((r, k) => lines.push(JSON.stringify({ n: batch[k], ...r })));
}
await store.close();
process.stdout.write(lines.join("\n") + "\n");
