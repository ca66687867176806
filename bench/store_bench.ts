/**
 * Revision store benchmark (not a test): put / get latency and handle
 * resolution with 100,000 revisions in the file store and in PostgreSQL,
 * printed as one table.
 *
 *   node_modules/.bin/deno run -A bench/store_bench.ts [--revisions N] [--samples N] [--json]
 *
 * The file store is kept in bench/.data/file-store and reused by later runs.
 * PostgreSQL comes from HASHLINE_TEST_PG_URL, or a throwaway cluster started
 * with scripts/pg_temp.sh (stopped at the end); its revisions are generated
 * in SQL (same bytes, refs and handles as puts would make) into the schema
 * `hashline_bench`. `--json` adds a last line `RESULT {json}` with every row
 * (and why PostgreSQL was skipped, when it was).
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import postgres from "postgres";
import {
  openFileStore,
  openPostgresStore,
  type RevisionStore,
} from "../src/store/mod.ts";
import { printSummary } from "./_summary.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const REVISIONS = flag("revisions", 100_000);
const SAMPLES = flag("samples", 2000);
const BODY = 1000;
const DATA = new URL("./.data/", import.meta.url).pathname;

/** Revision i of the generated history (about 1 KiB each). */
function benchSource(i: number): string {
  return `bench revision ${i}\n${"x".repeat(BODY)}\n`;
}

async function refOf(text: string): Promise<string> {
  const d = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return "sha256:" +
    Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

interface Row {
  backend: string;
  op: string;
  n: number;
  p50: number;
  p99: number;
  mean: number;
}

async function timeEach(
  n: number,
  fn: (k: number) => Promise<unknown>,
): Promise<Omit<Row, "backend" | "op">> {
  const ms: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = performance.now();
    await fn(k);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) =>
    ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  return {
    n,
    p50: at(0.5),
    p99: at(0.99),
    mean: ms.reduce((a, b) => a + b, 0) / ms.length,
  };
}

/** Random indexes into the generated revisions, the same for both backends. */
function picks(n: number): number[] {
  let s = 12345;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % REVISIONS;
  });
}

async function measure(backend: string, store: RevisionStore): Promise<Row[]> {
  const chosen = picks(SAMPLES);
  const refs = await Promise.all(chosen.map((i) => refOf(benchSource(i))));
  const handles = refs.map((r) => "p_" + r.slice(7, 19));
  const stamp = Date.now().toString(36);
  const rows: Row[] = [];
  const add = async (
    op: string,
    n: number,
    fn: (k: number) => Promise<unknown>,
  ) => {
    rows.push({ backend, op, ...(await timeEach(n, fn)) });
  };
  await store.get(handles[0]); // connect / warm up
  await add(
    "put (new source)",
    Math.min(SAMPLES, 1000),
    (k) => store.put(`fresh ${stamp} ${k}\n${"y".repeat(BODY)}\n`),
  );
  await add(
    "put (already stored)",
    SAMPLES,
    (k) => store.put(benchSource(chosen[k])),
  );
  await add("get by handle (re-hashed)", SAMPLES, (k) => store.get(handles[k]));
  await add("get by ref (re-hashed)", SAMPLES, (k) => store.get(refs[k]));
  await add("resolve handle → ref", SAMPLES, (k) => store.resolve(handles[k]));
  await add("resolve ref → handle", SAMPLES, (k) => store.resolve(refs[k]));
  await add(
    "source read with query",
    SAMPLES,
    (k) => store.source(handles[k], { query: "xxxx", limit: 400 }),
  );
  await add(
    "edit (new revision + diff)",
    Math.min(SAMPLES, 500),
    (k) =>
      store.edit(handles[k], [{
        oldString: `revision ${chosen[k]}\n`,
        newString: `revision ${chosen[k]} ${stamp}\n`,
      }]).catch(
        (e) => {
          if (e.code !== "NO_CHANGE") throw e;
        },
      ),
  );
  return rows;
}

async function seedFileStore(dir: string): Promise<number> {
  const marker = join(DATA, "file-store.json");
  let have = 0;
  try {
    have = JSON.parse(await readFile(marker, "utf8")).revisions ?? 0;
  } catch {
    // First run.
  }
  if (have >= REVISIONS) return 0;
  const store = openFileStore(dir);
  const t = performance.now();
  let next = have;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < REVISIONS) {
        const i = next++;
        await store.put(benchSource(i));
        if (i % 10000 === 0) console.error(`  file store: ${i} revisions…`);
      }
    }),
  );
  await store.close();
  await writeFile(marker, JSON.stringify({ revisions: REVISIONS }));
  return (performance.now() - t) / 1000;
}

async function seedPostgres(url: string, schema: string): Promise<number> {
  const store = openPostgresStore(url, { schema });
  await store.put(benchSource(0)); // creates the tables
  await store.close();
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ n }] = await sql.unsafe(
      `select count(*)::int as n from "${schema}".hashline_handles`,
    );
    if (n >= REVISIONS) return 0;
    const t = performance.now();
    const src =
      `convert_to('bench revision ' || i || E'\\n' || repeat('x', ${BODY}) || E'\\n', 'UTF8')`;
    await sql.unsafe(`
      insert into "${schema}".hashline_objects (ref, body)
        select 'sha256:' || encode(sha256(b), 'hex'), b
        from (select ${src} as b from generate_series(0, ${
      REVISIONS - 1
    }) as i) s
        on conflict do nothing`);
    await sql.unsafe(`
      insert into "${schema}".hashline_handles (handle, ref, parent_ref, op, created_at)
        select 'p_' || substr(h, 1, 12), 'sha256:' || h, null, 'put', now()
        from (select encode(sha256(${src}), 'hex') as h from generate_series(0, ${
      REVISIONS - 1
    }) as i) s
        on conflict do nothing`);
    await sql.unsafe(
      `analyze "${schema}".hashline_objects; analyze "${schema}".hashline_handles`,
    );
    return (performance.now() - t) / 1000;
  } finally {
    await sql.end();
  }
}

function startCluster(): { url: string; dir: string } | undefined {
  const out = execFileSync("bash", [
    new URL("../scripts/pg_temp.sh", import.meta.url).pathname,
    "start",
  ], {
    encoding: "utf8",
  });
  const url = /HASHLINE_TEST_PG_URL=(\S+)/.exec(out)?.[1];
  const dir = /HASHLINE_PG_DIR=(\S+)/.exec(out)?.[1];
  return url && dir ? { url, dir } : undefined;
}

function table(rows: Row[]): string {
  const head = [
    "backend",
    "revisions",
    "operation",
    "n",
    "p50 ms",
    "p99 ms",
    "mean ms",
  ];
  const body = rows.map((r) => [
    r.backend,
    String(REVISIONS),
    r.op,
    String(r.n),
    r.p50.toFixed(3),
    r.p99.toFixed(3),
    r.mean.toFixed(3),
  ]);
  const widths = head.map((h, c) =>
    Math.max(h.length, ...body.map((b) => b[c].length))
  );
  const line = (cells: string[]) =>
    "| " +
    cells.map((x, c) => (c >= 3 ? x.padStart(widths[c]) : x.padEnd(widths[c])))
      .join(" | ") +
    " |";
  return [
    line(head),
    "|" +
    widths.map((w, c) => (c >= 3 ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2)))
      .join("|") +
    "|",
    ...body.map(line),
  ]
    .join("\n");
}

await mkdir(DATA, { recursive: true });
const rows: Row[] = [];

const fileDir = join(DATA, "file-store");
console.error(`file store: ${fileDir}`);
const fileSeed = await seedFileStore(fileDir);
if (fileSeed > 0) {
  console.error(
    `  generated ${REVISIONS} revisions in ${fileSeed.toFixed(1)} s`,
  );
}
const fileStore = openFileStore(fileDir);
rows.push(...(await measure("file", fileStore)));
await fileStore.close();

let postgresSkipped: string | undefined;
let cluster: { url: string; dir: string } | undefined;
let pgUrl = process.env.HASHLINE_TEST_PG_URL;
if (!pgUrl) {
  cluster = startCluster();
  pgUrl = cluster?.url;
}
if (pgUrl) {
  try {
    console.error(
      `postgres: ${pgUrl.replace(/:[^:@/]*@/, ":***@")} schema hashline_bench`,
    );
    const pgSeed = await seedPostgres(pgUrl, "hashline_bench");
    if (pgSeed > 0) {
      console.error(
        `  generated ${REVISIONS} revisions in ${pgSeed.toFixed(1)} s`,
      );
    }
    const pgStore = openPostgresStore(pgUrl, { schema: "hashline_bench" });
    rows.push(...(await measure("postgres", pgStore)));
    await pgStore.close();
  } finally {
    if (cluster) {
      execFileSync("bash", [
        new URL("../scripts/pg_temp.sh", import.meta.url).pathname,
        "stop",
        cluster.dir,
      ]);
    }
  }
} else {
  postgresSkipped =
    "no server (HASHLINE_TEST_PG_URL unset and no server binaries)";
  console.error(`postgres: ${postgresSkipped}; skipped`);
}

console.log(table(rows));
printSummary("store", {
  revisions: REVISIONS,
  samples: SAMPLES,
  rows,
  ...(postgresSkipped === undefined ? {} : { postgresSkipped }),
});
