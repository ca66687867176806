/**
 * The behavioural suite every revision store backend must pass, run once per
 * backend (file, memory, PostgreSQL) by the `*_store.test.ts` files.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { lineHash } from "../../src/hash/fnv.ts";
import type { RevisionStore } from "../../src/store/types.ts";

/** One store for one test, and how to throw it away. */
export interface Fixture {
  store: RevisionStore;
  /** Another store over the same storage, as a second process would open it (persistent backends only). */
  reopen?: () => RevisionStore;
  /** Closes every store opened and removes the storage. */
  cleanup: () => Promise<void>;
}

/** Makes a fresh, empty store; `handleHex` shortens first handles to force collisions. */
export type Factory = (options?: { handleHex?: number }) => Promise<Fixture>;

/** The ref a source must get: SHA-256 of its exact UTF-8 bytes. */
export function expectedRef(source: string): string {
  return "sha256:" +
    createHash("sha256").update(Buffer.from(source, "utf8")).digest("hex");
}

/** Sources whose refs share hex prefixes: A and B/C share 2 hex, B and C share 6. */
export const COLLIDING = {
  a: "neighbour 978\n",
  b: "collision 264\n",
  c: "collision 4453\n",
} as const;

async function using<T>(
  factory: Factory,
  fn: (f: Fixture) => Promise<T>,
  handleHex?: number,
): Promise<T> {
  const f = await factory(handleHex === undefined ? {} : { handleHex });
  try {
    return await fn(f);
  } finally {
    await f.cleanup();
  }
}

function anchor(content: string, line: number): string {
  const text = content.split("\n")[line - 1].replace(/\r$/, "");
  return `${line}:${lineHash(text)}`;
}

/**
 * Registers the shared suite.
 *
 * @param name Backend name shown in the report.
 * @param factory Makes a fresh store per test.
 * @param skip When set, the suite is skipped with this reason.
 */
export function revisionStoreSuite(
  name: string,
  factory: Factory,
  skip?: string,
): void {
  const t = (title: string, fn: () => Promise<void>) =>
    skip ? it(title, { skip }, () => {}) : it(title, fn);

  describe(`revision store: ${name}`, () => {
    describe("put, get, resolve", () => {
      t(
        "put returns the sha256 ref of the exact UTF-8 bytes and a 12-hex handle; get gives the bytes back",
        () =>
          using(factory, async ({ store }) => {
            const sources = [
              "",
              "plain\n",
              "\uFEFFbom first\r\nwindows line\r\n",
              "no final newline",
              "emoji 😀 and é and 中文\n",
              "nul \u0000 inside\n",
              "lone \r carriage\n",
            ];
            for (const source of sources) {
              const { ref, handle } = await store.put(source);
              assert.equal(ref, expectedRef(source));
              assert.equal(handle, "p_" + ref.slice(7, 19));
              assert.equal(await store.get(ref), source);
              assert.equal(await store.get(handle), source);
              assert.deepEqual(await store.resolve(handle), { ref, handle });
              assert.deepEqual(await store.resolve(ref), { ref, handle });
            }
          }),
      );

      t(
        "putting the same source again gives the same ref and handle",
        () =>
          using(factory, async ({ store }) => {
            const first = await store.put("same\n");
            assert.deepEqual(await store.put("same\n"), first);
            const many = await Promise.all(
              Array.from({ length: 20 }, (_, i) => store.put(`s${i % 4}`)),
            );
            for (let i = 0; i < 20; i++) assert.deepEqual(many[i], many[i % 4]);
          }),
      );

      t(
        "refuses a source over 1 MiB of UTF-8 (counted in bytes, not chars) and stores nothing",
        () =>
          using(factory, async ({ store }) => {
            const atLimit = "a".repeat(1024 * 1024);
            assert.equal((await store.put(atLimit)).ref, expectedRef(atLimit));
            const twoByteChars = "é".repeat(512 * 1024 + 1); // 524289 chars, 1048578 bytes
            await assert.rejects(
              store.put(twoByteChars),
              (e: Error & { code?: string; status?: number }) => {
                assert.equal(e.name, "TooLargeError");
                assert.equal(e.code, "TOO_LARGE");
                assert.match(e.message, /1048578 bytes/);
                assert.match(e.message, /1 MiB/);
                return true;
              },
            );
            await assert.rejects(store.resolve(expectedRef(twoByteChars)), {
              code: "NOT_FOUND",
            });
            await assert.rejects(store.put("b".repeat(1024 * 1024 + 1)), {
              code: "TOO_LARGE",
            });
          }),
      );

      t(
        "refuses unpaired surrogates and non-strings with a TypeError",
        () =>
          using(factory, async ({ store }) => {
            for (
              const bad of [
                "x\uD800y",
                "tail \uD83D",
                "\uDE00 head",
                "ok 😀 then \uDC00",
              ]
            ) {
              await assert.rejects(store.put(bad), (e: Error) => {
                assert.ok(e instanceof TypeError);
                assert.match(e.message, /unpaired surrogate/);
                return true;
              });
            }
            await assert.rejects(store.put(42 as unknown as string), TypeError);
            await assert.rejects(
              store.put(undefined as unknown as string),
              TypeError,
            );
          }),
      );

      t(
        "an unknown handle is a 404 UNKNOWN_HANDLE that names the next call (put)",
        () =>
          using(factory, async ({ store }) => {
            for (
              const call of [
                () => store.get("p_123456789abc"),
                () => store.resolve("p_123456789abc"),
                () => store.source("p_123456789abc"),
                () =>
                  store.edit("p_123456789abc", [{
                    oldString: "a",
                    newString: "b",
                  }]),
                () => store.history("p_123456789abc"),
              ]
            ) {
              await assert.rejects(
                call(),
                (e: Error & { code?: string; status?: number }) => {
                  assert.equal(e.name, "NotFoundError");
                  assert.equal(e.code, "UNKNOWN_HANDLE");
                  assert.match(e.message, /p_123456789abc/);
                  assert.match(e.message, /no such revision/);
                  assert.match(e.message, /put/);
                  return true;
                },
              );
            }
          }),
      );

      t(
        "an unknown full ref is a 404 NOT_FOUND",
        () =>
          using(factory, async ({ store }) => {
            const ref = expectedRef("never stored");
            await assert.rejects(store.get(ref), {
              name: "NotFoundError",
              code: "NOT_FOUND",
            });
            await assert.rejects(store.resolve(ref), { code: "NOT_FOUND" });
            await assert.rejects(
              store.exportTo(ref, join(tmpdir(), "never-written")),
              { code: "NOT_FOUND" },
            );
          }),
      );

      t(
        "a malformed ref or handle is a TypeError that shows the expected form",
        () =>
          using(factory, async ({ store }) => {
            const { ref } = await store.put("x");
            for (
              const bad of [
                "",
                "p_",
                "p_123",
                "p_123456789abcd",
                "p_123456789ABC",
                "sha256:abc",
                ref.toUpperCase(),
                ref.slice(7),
                "../etc/passwd",
                12 as unknown as string,
              ]
            ) {
              await assert.rejects(store.get(bad), (e: Error) => {
                assert.ok(e instanceof TypeError, `${bad}: ${e}`);
                assert.match(e.message, /sha256:/);
                assert.match(e.message, /p_/);
                return true;
              });
            }
          }),
      );

      t(
        "a handle is also accepted in its longer forms only when issued",
        () =>
          using(factory, async ({ store }) => {
            const { ref } = await store.put("y\n");
            await assert.rejects(store.get("p_" + ref.slice(7, 23)), {
              code: "UNKNOWN_HANDLE",
            });
          }),
      );
    });

    describe("handles", () => {
      t(
        "a taken handle prefix is extended by 4 hex at a time, and an issued handle never moves",
        () =>
          using(factory, async (f) => {
            const { store } = f;
            const a = await store.put(COLLIDING.a);
            const b = await store.put(COLLIDING.b);
            const c = await store.put(COLLIDING.c);
            assert.equal(a.handle, "p_" + a.ref.slice(7, 9));
            assert.equal(b.handle, "p_" + b.ref.slice(7, 13));
            assert.equal(c.handle, "p_" + c.ref.slice(7, 17));
            assert.equal(a.handle.slice(0, 4), b.handle.slice(0, 4));
            assert.equal(b.handle, c.handle.slice(0, 8));
            for (const x of [c, b, a]) {
              assert.deepEqual(await store.put(await store.get(x.handle)), x);
              assert.deepEqual(await store.resolve(x.handle), x);
              assert.deepEqual(await store.resolve(x.ref), x);
            }
            if (f.reopen) {
              const again = f.reopen();
              assert.deepEqual(await again.put(COLLIDING.c), c);
              assert.deepEqual(await again.put(COLLIDING.a), a);
              assert.equal(await again.get(b.handle), COLLIDING.b);
            }
          }, 2),
      );

      t(
        "racing puts of the same sources agree on one handle per ref",
        () =>
          using(factory, async (f) => {
            const stores = [
              f.store,
              ...(f.reopen ? [f.reopen(), f.reopen()] : []),
            ];
            const sources = [
              COLLIDING.a,
              COLLIDING.b,
              COLLIDING.c,
              "d\n",
              "e\n",
            ];
            const results = await Promise.all(
              Array.from({ length: 30 }, (_, i) =>
                stores[i % stores.length].put(sources[(i * 7) % 5])),
            );
            const byRef = new Map<string, string>();
            const byHandle = new Map<string, string>();
            for (const r of results) {
              assert.equal(byRef.get(r.ref) ?? r.handle, r.handle);
              assert.equal(byHandle.get(r.handle) ?? r.ref, r.ref);
              byRef.set(r.ref, r.handle);
              byHandle.set(r.handle, r.ref);
            }
            assert.equal(byRef.size, 5);
          }, 2),
      );
    });

    describe("source reads", () => {
      const long = Array.from(
        { length: 3000 },
        (_, i) => `line ${i + 1}: ${"x".repeat(i % 17)}`,
      ).join("\n") + "\n";

      t(
        "reads in windows of 8000 by default and follows nextOffset to the end",
        () =>
          using(factory, async ({ store }) => {
            const { handle } = await store.put(long);
            let offset = 0;
            let text = "";
            let reads = 0;
            for (;;) {
              const r = await store.source(handle, { offset });
              assert.equal(r.found, true);
              assert.equal(r.offset, offset);
              assert.equal(r.totalChars, long.length);
              assert.ok(r.code.length <= 8000);
              text += r.code;
              reads++;
              if (r.nextOffset === null) break;
              assert.equal(r.nextOffset, offset + r.code.length);
              offset = r.nextOffset;
            }
            assert.equal(text, long);
            assert.equal(reads, Math.ceil(long.length / 8000));
          }),
      );

      t(
        "limit is at most 16000; offset past the end is a RangeError naming the size",
        () =>
          using(factory, async ({ store }) => {
            const { handle } = await store.put(long);
            assert.equal(
              (await store.source(handle, { limit: 16000 })).code.length,
              16000,
            );
            await assert.rejects(
              store.source(handle, { limit: 16001 }),
              (e: Error) => {
                assert.ok(e instanceof RangeError);
                assert.match(e.message, /16000/);
                return true;
              },
            );
            await assert.rejects(
              store.source(handle, { limit: 0 }),
              RangeError,
            );
            await assert.rejects(
              store.source(handle, { offset: -1 }),
              RangeError,
            );
            await assert.rejects(
              store.source(handle, { offset: 1.5 }),
              TypeError,
            );
            await assert.rejects(
              store.source(handle, { offset: long.length }),
              (e: Error) => {
                assert.ok(e instanceof RangeError);
                assert.match(e.message, new RegExp(String(long.length)));
                return true;
              },
            );
            const last = await store.source(handle, {
              offset: long.length - 1,
            });
            assert.deepEqual(last, {
              found: true,
              code: "\n",
              offset: long.length - 1,
              nextOffset: null,
              totalChars: long.length,
            });
          }),
      );

      t(
        "an empty source reads as one empty window",
        () =>
          using(factory, async ({ store }) => {
            const { handle } = await store.put("");
            assert.deepEqual(await store.source(handle), {
              found: true,
              code: "",
              offset: 0,
              nextOffset: null,
              totalChars: 0,
            });
          }),
      );

      t(
        "a query returns the text around its first match, starting at a line start",
        () =>
          using(factory, async ({ store }) => {
            const { handle } = await store.put(long);
            const r = await store.source(handle, {
              query: "line 1500:",
              limit: 500,
            });
            assert.equal(r.found, true);
            assert.ok(r.code.includes("line 1500:"));
            assert.ok(r.code.startsWith("line 1498:"), r.code.slice(0, 20));
            assert.equal(
              long.slice(r.offset, r.offset + r.code.length),
              r.code,
            );
            assert.equal(r.offset === 0 || long[r.offset - 1] === "\n", true);
            assert.ok(r.code.length <= 500);
            assert.equal(r.nextOffset, r.offset + 500);
            const second = await store.source(handle, {
              query: "line 15",
              offset: r.offset + 500,
            });
            assert.equal(second.found, true);
            assert.ok(
              second.offset > r.offset && second.code.includes("line 15"),
            );
          }),
      );

      t(
        "a query with no match returns found false and empty code",
        () =>
          using(factory, async ({ store }) => {
            const { handle } = await store.put(long);
            const r = await store.source(handle, { query: "not in there" });
            assert.deepEqual(r, {
              found: false,
              code: "",
              offset: 0,
              nextOffset: null,
              totalChars: long.length,
            });
            await assert.rejects(
              store.source(handle, { query: "" }),
              TypeError,
            );
          }),
      );

      t(
        "a window never splits a surrogate pair",
        () =>
          using(factory, async ({ store }) => {
            const text = "ab😀cd";
            const { handle } = await store.put(text);
            const r = await store.source(handle, { limit: 3 });
            assert.equal(r.code, "ab");
            assert.equal(r.nextOffset, 2);
            const next = await store.source(handle, { offset: 2, limit: 3 });
            assert.equal(next.code, "😀c");
          }),
      );
    });

    describe("edits", () => {
      const base = "alpha\nbeta\ngamma\nbeta\n";

      t(
        "applies ordered edits as one new revision, with parentRef and a unified diff",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            const r = await store.edit(b.handle, [
              { oldString: "alpha", newString: "ALPHA" },
              { oldString: "ALPHA\nbeta", newString: "ALPHA\nBETA" },
            ]);
            const want = "ALPHA\nBETA\ngamma\nbeta\n";
            assert.equal(r.ref, expectedRef(want));
            assert.equal(r.handle, "p_" + r.ref.slice(7, 19));
            assert.equal(r.parentRef, b.ref);
            assert.equal(await store.get(r.handle), want);
            assert.equal(await store.get(b.handle), base);
            assert.equal(r.diffTruncated, false);
            assert.match(
              r.diff,
              new RegExp(`^--- ${b.handle}\\n\\+\\+\\+ ${r.handle}\\n@@ `),
            );
            assert.match(r.diff, /^-alpha\n-beta\n\+ALPHA\n\+BETA$/m);
          }),
      );

      t(
        "no match refuses the whole edit (NO_MATCH, 409) and stores nothing",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            await assert.rejects(
              store.edit(b.handle, [
                { oldString: "alpha", newString: "ALPHA" },
                { oldString: "delta", newString: "x" },
              ]),
              (e: Error & { code?: string; status?: number }) => {
                assert.equal(e.name, "EditRefusedError");
                assert.equal(e.code, "NO_MATCH");
                assert.match(e.message, /Edit 2 of 2/);
                return true;
              },
            );
            await assert.rejects(
              store.resolve(expectedRef(base.replace("alpha", "ALPHA"))),
              { code: "NOT_FOUND" },
            );
            assert.equal(await store.get(b.handle), base);
            assert.equal((await store.history(b.handle)).length, 1);
          }),
      );

      t(
        "several matches refuse without replaceAll (MANY_MATCHES says how many); replaceAll replaces each",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            await assert.rejects(
              store.edit(b.ref, [{ oldString: "beta", newString: "B" }]),
              (e: Error & { code?: string }) => {
                assert.equal(e.code, "MANY_MATCHES");
                assert.match(e.message, /2 times/);
                assert.match(e.message, /replaceAll/);
                return true;
              },
            );
            await assert.rejects(
              store.resolve(expectedRef("alpha\nB\ngamma\nbeta\n")),
              { code: "NOT_FOUND" },
            );
            const r = await store.edit(b.ref, [{
              oldString: "beta",
              newString: "$& $1 B",
              replaceAll: true,
            }]);
            assert.equal(
              await store.get(r.ref),
              "alpha\n$& $1 B\ngamma\n$& $1 B\n",
            );
          }),
      );

      t(
        "an empty oldString or a wrong shape is a TypeError",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            for (
              const bad of [
                [{ oldString: "", newString: "x" }],
                [],
                [{ oldString: "alpha" }],
                [{ oldString: "alpha", newString: "x", replaceAll: "yes" }],
                "alpha",
                [{ oldString: "alpha", newString: "\uD800" }],
              ]
            ) {
              await assert.rejects(
                store.edit(b.handle, bad as never),
                TypeError,
              );
            }
          }),
      );

      t(
        "an edit that changes nothing is refused (NO_CHANGE) and makes no revision",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            await assert.rejects(
              store.edit(b.handle, [{
                oldString: "gamma",
                newString: "gamma",
              }]),
              {
                name: "EditRefusedError",
                code: "NO_CHANGE",
              },
            );
            await assert.rejects(
              store.edit(b.handle, [{ oldString: "alpha", newString: "x" }, {
                oldString: "x\n",
                newString: "alpha\n",
              }]),
              { code: "NO_CHANGE" },
            );
          }),
      );

      t(
        "a diff over 8000 chars is cut at a line end and flagged",
        () =>
          using(factory, async ({ store }) => {
            const big = Array.from({ length: 300 }, (_, i) =>
              `row ${i} ${"-".repeat(30)}`).join("\n") + "\n";
            const b = await store.put(big);
            const r = await store.edit(b.handle, [{
              oldString: "row",
              newString: "ROW",
              replaceAll: true,
            }]);
            assert.equal(r.diffTruncated, true);
            assert.ok(
              r.diff.length <= 8000 && r.diff.length > 7000,
              String(r.diff.length),
            );
            assert.ok(r.diff.endsWith("\n"));
            assert.equal(await store.get(r.ref), big.replaceAll("row", "ROW"));
          }),
      );

      t(
        "an edit whose result is over 1 MiB is refused and stores nothing",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put("head\n" + "x".repeat(1024 * 1024 - 10));
            await assert.rejects(
              store.edit(b.handle, [{
                oldString: "head",
                newString: "head".repeat(5),
              }]),
              {
                code: "TOO_LARGE",
              },
            );
            assert.equal((await store.history(b.handle)).length, 1);
          }),
      );
    });

    describe("hashline patches on revisions", () => {
      const base = "one\ntwo\nthree\n";

      t(
        "text form, ops array and one-file JSON all make a new revision with op patch",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            const viaText = await store.patch(
              b.handle,
              `= ${anchor(base, 2)}\n~TWO\n`,
            );
            assert.equal(await store.get(viaText.handle), "one\nTWO\nthree\n");
            assert.equal(viaText.parentRef, b.ref);
            assert.match(viaText.diff, /^-two\n\+TWO$/m);
            const viaOps = await store.patch(viaText.ref, [{
              op: "insert_after",
              anchor: anchor("one\nTWO\nthree\n", 3),
              lines: ["four"],
            }]);
            assert.equal(
              await store.get(viaOps.ref),
              "one\nTWO\nthree\nfour\n",
            );
            const viaJson = await store.patch(viaOps.handle, {
              files: [{
                path: "",
                ops: [{ op: "delete", start: anchor(base, 1) }],
              }],
            });
            assert.equal(await store.get(viaJson.ref), "TWO\nthree\nfour\n");
            const h = await store.history(viaJson.handle);
            assert.deepEqual(h.map((e) => e.op), [
              "patch",
              "patch",
              "patch",
              "put",
            ]);
          }),
      );

      t(
        "a wrong anchor hash refuses the patch and stores nothing",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            const wrong = anchor(base, 2).endsWith("00") ? "2:01" : "2:00";
            await assert.rejects(
              store.patch(b.handle, `= ${wrong}\n~refused line`),
              (e: Error & { code?: string; status?: number }) => {
                assert.equal(e.name, "PatchRefusedError");
                assert.match(e.message, /^Rejected — nothing written\./);
                return true;
              },
            );
            await assert.rejects(
              store.resolve(expectedRef("one\nrefused line\nthree\n")),
              { code: "NOT_FOUND" },
            );
          }),
      );

      t(
        "a patch naming two files is a TypeError",
        () =>
          using(factory, async ({ store }) => {
            const b = await store.put(base);
            const op = { op: "append" as const, lines: ["x"] };
            await assert.rejects(
              store.patch(b.handle, {
                files: [{ path: "a", ops: [op] }, { path: "b", ops: [op] }],
              }),
              TypeError,
            );
          }),
      );
    });

    describe("history", () => {
      t(
        "walks parent links newest first",
        () =>
          using(factory, async ({ store }) => {
            const a = await store.put("v1\n");
            const b = await store.edit(a.handle, [{
              oldString: "v1",
              newString: "v2",
            }]);
            const c = await store.patch(
              b.handle,
              `= ${anchor("v2\n", 1)}\n~v3`,
            );
            const h = await store.history(c.handle);
            assert.deepEqual(
              h.map(({ ref, handle, parentRef, op }) => ({
                ref,
                handle,
                parentRef,
                op,
              })),
              [
                { ref: c.ref, handle: c.handle, parentRef: b.ref, op: "patch" },
                { ref: b.ref, handle: b.handle, parentRef: a.ref, op: "edit" },
                { ref: a.ref, handle: a.handle, parentRef: null, op: "put" },
              ],
            );
            for (const e of h) {
              assert.ok(
                !Number.isNaN(Date.parse(e.createdAt)) &&
                  e.createdAt.endsWith("Z"),
              );
            }
            assert.deepEqual(await store.history(a.ref), [h[2]]);
          }),
      );

      t(
        "a revision keeps the lineage it was first stored with",
        () =>
          using(factory, async ({ store }) => {
            const a = await store.put("first\n");
            const again = await store.put("second\n");
            const b = await store.edit(a.handle, [{
              oldString: "first",
              newString: "second",
            }]);
            assert.equal(b.ref, again.ref);
            assert.equal(b.parentRef, a.ref);
            const h = await store.history(b.ref);
            assert.equal(h.length, 1);
            assert.equal(h[0].op, "put");
          }),
      );
    });

    describe("export and import", () => {
      t(
        "export writes the exact bytes to a new file; import puts a file",
        () =>
          using(factory, async ({ store }) => {
            const dir = await mkdtemp(join(tmpdir(), "hashline-export-"));
            try {
              const source = "\uFEFFcafé\r\nno newline";
              const { ref, handle } = await store.put(source);
              const path = join(dir, "out.txt");
              const done = await store.exportTo(handle, path);
              assert.deepEqual(done, {
                path,
                ref,
                bytes: Buffer.byteLength(source),
              });
              assert.deepEqual(
                await readFile(path),
                Buffer.from(source, "utf8"),
              );
              assert.deepEqual(await store.importFrom(path), { ref, handle });
            } finally {
              await rm(dir, { recursive: true, force: true });
            }
          }),
      );

      t(
        "export refuses to overwrite an existing file (EXISTS, 409) and leaves its bytes",
        () =>
          using(factory, async ({ store }) => {
            const dir = await mkdtemp(join(tmpdir(), "hashline-export-"));
            try {
              const { handle } = await store.put("new content\n");
              const path = join(dir, "keep.txt");
              const old = Buffer.from([0xff, 0x00, 0x41]);
              await writeFile(path, old);
              await assert.rejects(
                store.exportTo(handle, path),
                (e: Error & { code?: string; status?: number }) => {
                  assert.equal(e.name, "EditRefusedError");
                  assert.equal(e.code, "EXISTS");
                  assert.match(e.message, /keep\.txt/);
                  return true;
                },
              );
              assert.deepEqual(await readFile(path), old);
              await assert.rejects(
                store.exportTo(handle, join(dir, "missing", "x.txt")),
                { code: "NOT_FOUND" },
              );
            } finally {
              await rm(dir, { recursive: true, force: true });
            }
          }),
      );

      t(
        "import refuses binary, missing and oversized files",
        () =>
          using(factory, async ({ store }) => {
            const dir = await mkdtemp(join(tmpdir(), "hashline-import-"));
            try {
              await writeFile(
                join(dir, "bin"),
                Buffer.from([0x61, 0x62, 0xc3, 0x28]),
              );
              // The ill-formed sequence starts at the lead byte 0xc3.
              await assert.rejects(store.importFrom(join(dir, "bin")), {
                name: "BinaryContentError",
                offset: 2,
              });
              await writeFile(join(dir, "nul"), Buffer.from("ab\u0000c"));
              await assert.rejects(store.importFrom(join(dir, "nul")), {
                code: "NOT_TEXT",
                offset: 2,
              });
              await assert.rejects(store.importFrom(join(dir, "none")), {
                code: "NOT_FOUND",
              });
              await writeFile(
                join(dir, "big"),
                Buffer.alloc(1024 * 1024 + 1, 0x61),
              );
              await assert.rejects(store.importFrom(join(dir, "big")), {
                code: "TOO_LARGE",
              });
              // A folder is NOT_A_FILE (docs/workspace.md, "Confinement"), like a FIFO or a device.
              await assert.rejects(store.importFrom(dir), {
                name: "NotAFileError",
                code: "NOT_A_FILE",
              });
            } finally {
              await rm(dir, { recursive: true, force: true });
            }
          }),
      );
    });

    describe("lifecycle", () => {
      t(
        "a closed store refuses further calls",
        () =>
          using(factory, async ({ store }) => {
            await store.put("x");
            await store.close();
            await assert.rejects(store.put("y"), /closed/);
          }),
      );

      t(
        "a persistent store shows the same revisions to a second opener",
        () =>
          using(factory, async (f) => {
            if (!f.reopen) return;
            const a = await f.store.put("shared\n");
            const b = await f.store.edit(a.handle, [{
              oldString: "shared",
              newString: "seen",
            }]);
            const other = f.reopen();
            assert.equal(await other.get(b.handle), "seen\n");
            assert.deepEqual(
              (await other.history(b.handle)).map((h) => h.ref),
              [b.ref, a.ref],
            );
          }),
      );
    });
  });
}
