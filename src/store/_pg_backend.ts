/**
 * The {@link Backend} primitives over PostgreSQL, shared by many servers.
 *
 * Two tables in one schema. `hashline_objects(ref, body)` has a CHECK that
 * the ref is the SHA-256 of the body, so the database itself refuses a row
 * whose ref does not match its bytes. `hashline_handles(handle, ref, …)`
 * has the handle as primary key and the ref unique, so racing servers that
 * insert with `ON CONFLICT DO NOTHING` agree on one handle per ref. Triggers
 * refuse updates, deletes and truncation: the store is append-only.
 *
 * @module
 */
import type postgres from "postgres";
import { loadOptional } from "../_internal/optional.ts";
import { IntegrityError } from "../errors.ts";
import type { Backend, HandleRecord } from "./_backend.ts";
import { MAX_SOURCE_BYTES } from "./limits.ts";
import type { RevisionOp } from "./types.ts";

/** Connection and placement options. */
export interface PgBackendOptions {
  /** Schema holding the tables (default `public`); created when missing. */
  schema?: string;
  /** Most connections kept open (default 10). */
  max?: number;
}

const SCHEMA_RE = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

interface HandleRow {
  handle: string;
  ref: string;
  parent_ref: string | null;
  op: RevisionOp;
  created_at: Date;
}

/** Objects and handles as rows. */
export class PgBackend implements Backend {
  readonly #url: string;
  readonly #max: number;
  #sql: Promise<postgres.Sql> | undefined;
  readonly #schema: string;
  readonly #objects: string;
  readonly #handles: string;

  constructor(url: string, options: PgBackendOptions = {}) {
    if (typeof url !== "string" || url === "") {
      throw new TypeError(
        `openPostgresStore needs a connection URL (postgres://user@host:port/db), got ${
          JSON.stringify(url)
        }.`,
      );
    }
    const schema = options.schema ?? "public";
    if (typeof schema !== "string" || !SCHEMA_RE.test(schema)) {
      throw new TypeError(
        `schema must be a plain SQL name (letters, digits, _; at most 63), got ${
          JSON.stringify(schema)
        }.`,
      );
    }
    this.#schema = schema;
    this.#objects = `"${schema}".hashline_objects`;
    this.#handles = `"${schema}".hashline_handles`;
    this.#url = url;
    this.#max = options.max ?? 10;
  }

  /** The pool, made on first use: the driver is an optional package, loaded only by this backend. */
  #pool(): Promise<postgres.Sql> {
    this.#sql ??= loadOptional(
      "postgres",
      "openPostgresStore",
      () => import("postgres"),
    ).then(({ default: connect }) =>
      connect(this.#url, {
        max: this.#max,
        onnotice: () => {},
        idle_timeout: 30,
        connect_timeout: 10,
      })
    );
    return this.#sql;
  }

  async init(): Promise<void> {
    const [row] = await (await this.#pool()).unsafe(
      "select to_regclass($1) is not null and to_regclass($2) is not null as ready",
      [this.#objects, this.#handles],
    );
    if (row?.ready === true) return;
    await (await this.#pool()).begin(async (tx) => {
      // Concurrent CREATE … IF NOT EXISTS can still collide in the catalog; one creator at a time.
      await tx.unsafe("select pg_advisory_xact_lock(hashtext($1))", [
        `hashline:${this.#schema}`,
      ]);
      await tx.unsafe(this.#ddl());
    });
  }

  async readObject(ref: string): Promise<Uint8Array | undefined> {
    const rows = await (await this.#pool()).unsafe(
      `select body from ${this.#objects} where ref = $1`,
      [ref],
      {
        prepare: true,
      },
    );
    return rows.length === 0
      ? undefined
      : new Uint8Array(rows[0].body as Uint8Array);
  }

  async hasObject(ref: string): Promise<boolean> {
    const rows = await (await this.#pool()).unsafe(
      `select 1 from ${this.#objects} where ref = $1`,
      [ref],
      {
        prepare: true,
      },
    );
    return rows.length > 0;
  }

  async writeObject(ref: string, bytes: Uint8Array): Promise<void> {
    try {
      await (await this.#pool()).unsafe(
        `insert into ${this.#objects} (ref, body) values ($1, $2) on conflict (ref) do nothing`,
        [ref, bytes],
        { prepare: true },
      );
    } catch (e) {
      if ((e as { code?: string }).code === "23514") {
        throw new IntegrityError(
          `The database refused ${ref}: its bytes do not hash to it.`,
        );
      }
      throw e;
    }
  }

  async readHandle(handle: string): Promise<HandleRecord | undefined> {
    const rows = await (await this.#pool()).unsafe<HandleRow[]>(
      `select handle, ref, parent_ref, op, created_at from ${this.#handles} where handle = $1`,
      [handle],
      { prepare: true },
    );
    return rows.length === 0 ? undefined : toRecord(rows[0]);
  }

  async claimHandle(record: HandleRecord): Promise<HandleRecord | undefined> {
    const rows = await (await this.#pool()).unsafe(
      `insert into ${this.#handles} (handle, ref, parent_ref, op, created_at)
       values ($1, $2, $3, $4, $5) on conflict do nothing returning handle`,
      [
        record.handle,
        record.ref,
        record.parentRef,
        record.op,
        record.createdAt,
      ],
      { prepare: true },
    );
    if (rows.length > 0) return record;
    return await this.readHandle(record.handle);
  }

  async close(): Promise<void> {
    const sql = this.#sql;
    if (sql) await (await sql).end({ timeout: 5 });
  }

  #ddl(): string {
    const s = `"${this.#schema}"`;
    const trigger = (
      table: string,
      name: string,
      when: string,
      each: string,
    ) => `
      IF NOT EXISTS (SELECT 1 FROM pg_trigger
          WHERE tgname = '${name}' AND tgrelid = '${s}.${table}'::regclass) THEN
        CREATE TRIGGER ${name} BEFORE ${when} ON ${s}.${table}
          FOR EACH ${each} EXECUTE FUNCTION ${s}.hashline_append_only();
      END IF;`;
    return `
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${this.#objects} (
        ref text PRIMARY KEY,
        body bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT hashline_objects_ref_is_sha256
          CHECK (ref = 'sha256:' || encode(sha256(body), 'hex')),
        CONSTRAINT hashline_objects_size CHECK (octet_length(body) <= ${MAX_SOURCE_BYTES})
      );
      CREATE TABLE IF NOT EXISTS ${this.#handles} (
        handle text PRIMARY KEY,
        ref text NOT NULL UNIQUE REFERENCES ${this.#objects} (ref),
        parent_ref text REFERENCES ${this.#objects} (ref),
        op text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT hashline_handles_form CHECK (handle ~ '^p_[0-9a-f]{1,64}$'),
        CONSTRAINT hashline_handles_prefix_of_ref
          CHECK (starts_with(ref, 'sha256:' || substr(handle, 3))),
        CONSTRAINT hashline_handles_op CHECK (op IN ('put', 'edit', 'patch'))
      );
      CREATE OR REPLACE FUNCTION ${s}.hashline_append_only() RETURNS trigger
        LANGUAGE plpgsql AS $fn$
        BEGIN
          RAISE EXCEPTION 'the hashline revision store is append-only: % on % refused',
            TG_OP, TG_TABLE_NAME;
        END $fn$;
      DO $do$ BEGIN
        ${
      trigger(
        "hashline_objects",
        "hashline_objects_no_change",
        "UPDATE OR DELETE",
        "ROW",
      )
    }
        ${
      trigger(
        "hashline_objects",
        "hashline_objects_no_truncate",
        "TRUNCATE",
        "STATEMENT",
      )
    }
        ${
      trigger(
        "hashline_handles",
        "hashline_handles_no_change",
        "UPDATE OR DELETE",
        "ROW",
      )
    }
        ${
      trigger(
        "hashline_handles",
        "hashline_handles_no_truncate",
        "TRUNCATE",
        "STATEMENT",
      )
    }
      END $do$;`;
  }
}

function toRecord(row: HandleRow): HandleRecord {
  return {
    handle: row.handle,
    ref: row.ref,
    parentRef: row.parent_ref,
    op: row.op,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
