import assert from "node:assert/strict";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { StoreCore } from "../../src/store/_core.ts";
import { FileBackend } from "../../src/store/_file_backend.ts";
import { PgBackend } from "../../src/store/_pg_backend.ts";
import type { RevisionStore } from "../../src/store/types.ts";
import { collect, startTs } from "../_spawn.ts";
import { dropSchema, freshSchema, PG_SKIP, PG_URL } from "./_pg.ts";
import { expectedRef } from "./_suite.ts";

const WORKER = new URL("./_put_worker.ts", import.meta.url).pathname;
const WORKERS = 4;
const PUTS = 50;
/** Short first handles, so racing processes also race on extending taken handles. */
const HANDLE_HEX = 2;

function sharedSource(n: number): string {
  return `shared source ${n}\n${"line\n".repeat(n % 7)}`;
}

/** Runs the workers at once and checks everything they printed against a fresh store. */
async function race(
  kind: "file" | "pg",
  where: string,
  open: () => RevisionStore,
): Promise<void> {
  const runs = await Promise.all(
    Array.from(
      { length: WORKERS },
      (_, w) =>
        collect(
          startTs(WORKER, [
            kind,
            where,
            String(w),
            String(PUTS),
            String(HANDLE_HEX),
          ]),
        ),
    ),
  );
  const byN = new Map<number, { ref: string; handle: string }>();
  const byHandle = new Map<string, string>();
  let puts = 0;
  for (const run of runs) {
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0);
    for (const line of run.stdout.trim().split("\n")) {
      const { n, ref, handle } = JSON.parse(line);
      puts++;
      assert.equal(ref, expectedRef(sharedSource(n)));
      assert.ok(ref.startsWith("sha256:" + handle.slice(2)));
      assert.deepEqual(
        byN.get(n) ?? { ref, handle },
        { ref, handle },
        `source ${n} got two answers`,
      );
      assert.equal(
        byHandle.get(handle) ?? ref,
        ref,
        `handle ${handle} points at two refs`,
      );
      byN.set(n, { ref, handle });
      byHandle.set(handle, ref);
    }
  }
  assert.equal(puts, WORKERS * PUTS);
  assert.equal(byHandle.size, byN.size);
  const store = open();
  try {
    for (const [n, id] of byN) {
      assert.deepEqual(await store.resolve(id.handle), id);
      assert.deepEqual(await store.resolve(id.ref), id);
      assert.equal(await store.get(id.handle), sharedSource(n));
    }
  } finally {
    await store.close();
  }
}

describe("several processes share one store", () => {
  it(
    `${WORKERS} processes × ${PUTS} overlapping puts into one file store agree on every ref and handle`,
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "hashline-race-"));
      try {
        await race(
          "file",
          dir,
          () => new StoreCore(new FileBackend(dir), { handleHex: HANDLE_HEX }),
        );
        let handles = 0;
        for (const fan of await readdir(join(dir, "handles"))) {
          handles += (await readdir(join(dir, "handles", fan))).length;
        }
        let objects = 0;
        for (const fan of await readdir(join(dir, "objects"))) {
          objects += (await readdir(join(dir, "objects", fan))).length;
        }
        assert.equal(handles, objects, "one handle per ref, none left over");
        assert.deepEqual(await readdir(join(dir, "tmp")), []);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    `${WORKERS} processes × ${PUTS} overlapping puts into one PostgreSQL store agree on every ref and handle`,
    { skip: PG_SKIP, timeout: 60_000 },
    async () => {
      const schema = freshSchema();
      try {
        await race(
          "pg",
          schema,
          () =>
            new StoreCore(new PgBackend(PG_URL!, { schema }), {
              handleHex: HANDLE_HEX,
            }),
        );
      } finally {
        await dropSchema(schema);
      }
    },
  );
});
