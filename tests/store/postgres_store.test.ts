import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { StoreCore } from "../../src/store/_core.ts";
import { PgBackend } from "../../src/store/_pg_backend.ts";
import { openPostgresStore } from "../../src/store/postgres_store.ts";
import type { RevisionStore } from "../../src/store/types.ts";
import { admin, dropSchema, freshSchema, PG_SKIP, PG_URL } from "./_pg.ts";
import { expectedRef, type Factory, revisionStoreSuite } from "./_suite.ts";

/** Most tests share one schema (creating tables per test is slow); tests with other handle settings get their own. */
const shared = freshSchema();
let sharedUsed = false;

const factory: Factory = (options = {}) => {
  const own = options.handleHex !== undefined;
  const schema = own ? freshSchema() : shared;
  sharedUsed ||= !own;
  const opened: RevisionStore[] = [];
  const open = () => {
    const s = new StoreCore(
      new PgBackend(PG_URL!, { schema, max: 4 }),
      options,
    );
    opened.push(s);
    return s;
  };
  return Promise.resolve({
    store: open(),
    reopen: open,
    cleanup: async () => {
      for (const s of opened) await s.close();
      if (own) await dropSchema(schema);
    },
  });
};

after(async () => {
  if (sharedUsed) await dropSchema(shared);
});

revisionStoreSuite("postgres", factory, PG_SKIP);

async function withSchema(
  fn: (schema: string) => Promise<void>,
): Promise<void> {
  const schema = freshSchema();
  try {
    await fn(schema);
  } finally {
    await dropSchema(schema);
  }
}

const t = (title: string, fn: () => Promise<void>) =>
  PG_SKIP ? it(title, { skip: PG_SKIP }, () => {}) : it(title, fn);

describe("postgres store in the database", () => {
  t(
    "the database itself refuses a row whose ref does not match its bytes",
    () =>
      withSchema(async (schema) => {
        const store = openPostgresStore(PG_URL!, { schema });
        await store.put("make the tables\n");
        await store.close();
        await admin(async (sql) => {
          await assert.rejects(
            sql.unsafe(
              `insert into "${schema}".hashline_objects (ref, body) values ($1, $2)`,
              [
                expectedRef("what the ref says"),
                new TextEncoder().encode("what the bytes are"),
              ],
            ),
            { code: "23514" },
          );
          const good = new TextEncoder().encode("honest\n");
          await sql.unsafe(
            `insert into "${schema}".hashline_objects (ref, body) values ($1, $2)`,
            [
              expectedRef("honest\n"),
              good,
            ],
          );
        });
      }),
  );

  t(
    "the database refuses updates and deletes: revisions and handles never change",
    () =>
      withSchema(async (schema) => {
        const store = openPostgresStore(PG_URL!, { schema });
        const { ref, handle } = await store.put("fixed\n");
        const other = await store.put("other\n");
        await admin(async (sql) => {
          await assert.rejects(
            sql.unsafe(
              `update "${schema}".hashline_handles set ref = $1 where handle = $2`,
              [other.ref, handle],
            ),
            /append-only/,
          );
          await assert.rejects(
            sql.unsafe(
              `delete from "${schema}".hashline_objects where ref = $1`,
              [ref],
            ),
            /append-only/,
          );
          await assert.rejects(
            sql.unsafe(`truncate "${schema}".hashline_handles cascade`),
            /append-only/,
          );
        });
        assert.deepEqual(await store.resolve(handle), { ref, handle });
        await store.close();
      }),
  );

  t(
    "reads re-hash: bytes changed behind the database's back are an IntegrityError",
    () =>
      withSchema(async (schema) => {
        const store = openPostgresStore(PG_URL!, { schema });
        const { handle, ref } = await store.put("original\n");
        await admin(async (sql) => {
          await sql.unsafe(
            `alter table "${schema}".hashline_objects drop constraint hashline_objects_ref_is_sha256`,
          );
          await sql.unsafe(
            `alter table "${schema}".hashline_objects disable trigger user`,
          );
          await sql.unsafe(
            `update "${schema}".hashline_objects set body = $1 where ref = $2`,
            [
              new TextEncoder().encode("forged\n"),
              ref,
            ],
          );
        });
        await assert.rejects(store.get(handle), {
          name: "IntegrityError",
        });
        await store.close();
      }),
  );

  t(
    "many stores opening one fresh schema at once all succeed and agree",
    () =>
      withSchema(async (schema) => {
        const stores = Array.from(
          { length: 6 },
          () => openPostgresStore(PG_URL!, { schema, max: 2 }),
        );
        const results = await Promise.all(
          stores.map((s, i) => s.put(`first use ${i % 2}\n`)),
        );
        assert.deepEqual(results[0], results[2]);
        assert.deepEqual(results[1], results[5]);
        await Promise.all(stores.map((s) => s.close()));
      }),
  );

  t(
    "an unreachable server is a plain error, and the store can be closed",
    async () => {
      const store = openPostgresStore("postgres://nobody@127.0.0.1:1/none");
      await assert.rejects(store.put("x"));
      await store.close();
    },
  );

  it("refuses an empty URL or a schema that is not a plain SQL name", () => {
    assert.throws(() => openPostgresStore(""), TypeError);
    assert.throws(
      () =>
        openPostgresStore("postgres://x@127.0.0.1/db", { schema: 'a"; drop' }),
      TypeError,
    );
  });
});
