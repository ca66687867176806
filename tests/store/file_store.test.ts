import assert from "node:assert/strict";
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { StoreCore } from "../../src/store/_core.ts";
import { FileBackend } from "../../src/store/_file_backend.ts";
import { openFileStore } from "../../src/store/file_store.ts";
import type { RevisionStore } from "../../src/store/types.ts";
import { type Factory, revisionStoreSuite } from "./_suite.ts";

const factory: Factory = async (options = {}) => {
  const dir = await mkdtemp(join(tmpdir(), "hashline-fstore-"));
  const opened: RevisionStore[] = [];
  const open = () => {
    const s = new StoreCore(new FileBackend(dir), options);
    opened.push(s);
    return s;
  };
  return {
    store: open(),
    reopen: open,
    cleanup: async () => {
      for (const s of opened) await s.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

revisionStoreSuite("file", factory);

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "hashline-fstore-"));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function objectPath(dir: string, ref: string): string {
  return join(dir, "objects", ref.slice(7, 9), ref.slice(7));
}

describe("file store on disk", () => {
  it("keeps objects, handles and temp files in their own folders, next to other state", () =>
    withDir(async (dir) => {
      await mkdir(join(dir, "sessions"));
      await writeFile(join(dir, "sessions", "default.json"), "{}");
      const store = openFileStore(dir);
      const { ref, handle } = await store.put("layout\n");
      assert.deepEqual((await readdir(dir)).sort(), [
        "handles",
        "objects",
        "sessions",
        "tmp",
      ]);
      assert.equal(await readFile(objectPath(dir, ref), "utf8"), "layout\n");
      const rec = JSON.parse(
        await readFile(
          join(dir, "handles", handle.slice(2, 4), handle),
          "utf8",
        ),
      );
      assert.equal(rec.ref, ref);
      assert.deepEqual(await readdir(join(dir, "tmp")), []);
      assert.equal(
        await readFile(join(dir, "sessions", "default.json"), "utf8"),
        "{}",
      );
      assert.equal(
        (await stat(objectPath(dir, ref))).mode & 0o222,
        0,
        "objects are read-only",
      );
      await store.close();
    }));

  it("a corrupted object fails every read with an IntegrityError, and a put does not paper over it", () =>
    withDir(async (dir) => {
      const store = openFileStore(dir);
      const { ref, handle } = await store.put("precious\n");
      const path = objectPath(dir, ref);
      await chmod(path, 0o644);
      await writeFile(path, "tampered\n");
      for (
        const call of [
          () => store.get(handle),
          () => store.get(ref),
          () => store.source(handle),
          () => store.edit(handle, [{ oldString: "t", newString: "x" }]),
          () => store.exportTo(handle, join(dir, "out.txt")),
          () => store.put("precious\n"),
        ]
      ) {
        await assert.rejects(
          call(),
          (e: Error & { code?: string; status?: number }) => {
            assert.equal(e.name, "IntegrityError");
            assert.equal(e.code, "INTEGRITY");
            return true;
          },
        );
      }
      assert.equal(await readFile(path, "utf8"), "tampered\n");
      await assert.rejects(stat(join(dir, "out.txt")), { code: "ENOENT" });
      await store.close();
    }));

  it("a damaged handle file is an IntegrityError, not a wrong answer", () =>
    withDir(async (dir) => {
      const store = openFileStore(dir);
      const { handle } = await store.put("h\n");
      const path = join(dir, "handles", handle.slice(2, 4), handle);
      await chmod(path, 0o644);
      await writeFile(path, "{not json");
      await assert.rejects(store.get(handle), { name: "IntegrityError" });
      const other = await store.put("other\n");
      await chmod(
        join(dir, "handles", other.handle.slice(2, 4), other.handle),
        0o644,
      );
      await writeFile(
        path,
        JSON.stringify({
          handle,
          ref: other.ref,
          parentRef: null,
          op: "put",
          createdAt: "x",
        }),
      );
      await assert.rejects(store.get(handle), { name: "IntegrityError" });
      await store.close();
    }));

  it("sweeps temp files left by a stopped writer once they are old, and keeps fresh ones", () =>
    withDir(async (dir) => {
      await mkdir(join(dir, "tmp"), { recursive: true });
      await writeFile(join(dir, "tmp", "old.tmp"), "half");
      await writeFile(join(dir, "tmp", "fresh.tmp"), "half");
      const past = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(join(dir, "tmp", "old.tmp"), past, past);
      const store = openFileStore(dir);
      await store.put("x");
      assert.deepEqual(await readdir(join(dir, "tmp")), ["fresh.tmp"]);
      await store.close();
    }));

  it("an object without a handle (a writer stopped between the two) gets its handle on the next call", () =>
    withDir(async (dir) => {
      const store = openFileStore(dir);
      const { ref, handle } = await store.put("orphan\n");
      await rm(join(dir, "handles"), { recursive: true });
      const fresh = openFileStore(dir);
      await assert.rejects(fresh.get(handle), { code: "UNKNOWN_HANDLE" });
      assert.deepEqual(await fresh.resolve(ref), { ref, handle });
      assert.equal(await fresh.get(handle), "orphan\n");
      await store.close();
      await fresh.close();
    }));

  it("openFileStore returns at once and refuses an empty folder name", () => {
    assert.throws(() => openFileStore(""), TypeError);
    const store = openFileStore(
      join(tmpdir(), "hashline-never-used-" + Date.now()),
    );
    assert.equal(typeof store.put, "function");
  });
});
