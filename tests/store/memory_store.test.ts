import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StoreCore } from "../../src/store/_core.ts";
import { MemoryBackend } from "../../src/store/_memory_backend.ts";
import { createMemoryStore } from "../../src/store/memory_store.ts";
import { type Factory, revisionStoreSuite } from "./_suite.ts";

const factory: Factory = (options = {}) => {
  const store = new StoreCore(new MemoryBackend(64 * 1024 * 1024), options);
  return Promise.resolve({ store, cleanup: () => store.close() });
};

revisionStoreSuite("memory", factory);

describe("memory store bound", () => {
  it("refuses a put past maxBytes, says so, and names the file store", async () => {
    const store = createMemoryStore({ maxBytes: 100 });
    const a = await store.put("a".repeat(60));
    await assert.rejects(
      store.put("b".repeat(41)),
      (e: Error & { code?: string; status?: number }) => {
        assert.equal(e.name, "TooLargeError");
        assert.equal(e.code, "TOO_LARGE");
        assert.match(e.message, /memory store is full/);
        assert.match(e.message, /openFileStore/);
        return true;
      },
    );
    assert.deepEqual(
      await store.put("a".repeat(60)),
      a,
      "a source already held needs no room",
    );
    await store.put("c".repeat(40));
    await assert.rejects(store.put("d"), { code: "TOO_LARGE" });
    await assert.rejects(
      store.edit(a.handle, [{
        oldString: "a",
        newString: "z",
        replaceAll: true,
      }]),
      { code: "TOO_LARGE" },
    );
    assert.equal(await store.get(a.handle), "a".repeat(60));
    await store.close();
  });

  it("counts bytes of UTF-8, and defaults to 64 MiB", async () => {
    const small = createMemoryStore({ maxBytes: 4 });
    await assert.rejects(small.put("ééé"), { code: "TOO_LARGE" });
    await small.put("éé");
    const big = createMemoryStore();
    const parts = await Promise.all(
      Array.from(
        { length: 64 },
        (_, i) => big.put(String(i).padEnd(1024 * 1024, ".")),
      ),
    );
    assert.equal(parts.length, 64);
    await assert.rejects(big.put("one more byte"), { code: "TOO_LARGE" });
  });

  it("refuses a maxBytes that is not a positive whole number", () => {
    for (const maxBytes of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => createMemoryStore({ maxBytes }), RangeError);
    }
  });
});
